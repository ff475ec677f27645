module attributes {dlti.target_system_spec = #dlti.target_system_spec<"" = #dlti.target_device_spec<"a" = 1>>} {}
