module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = 1>} {}
