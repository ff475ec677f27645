module attributes {dlti.dl_spec = #dlti.map<"a" = 1>} {}
