module attributes {dlti.map = #dlti.dl_spec<"a" = 1>} {}
