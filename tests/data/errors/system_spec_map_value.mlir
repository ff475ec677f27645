module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" = #dlti.map<"a" = 1>>} {}
