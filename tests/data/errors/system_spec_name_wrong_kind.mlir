module attributes {dlti.target_system_spec = #dlti.map<"a" = 1>} {}
