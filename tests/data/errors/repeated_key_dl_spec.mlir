module attributes {dlti.dl_spec = #dlti.dl_spec<"x.a" = 1, "x.a" = 2>} {}
