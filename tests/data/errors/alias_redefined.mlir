#cpu = #dlti.target_device_spec<"num_threads" = 8 : i32>
#cpu = #dlti.target_device_spec<"num_threads" = 16 : i32>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #cpu>} {}
