module attributes {dlti.map = #dlti.map<"a" = 1, "a" = 2>} {}
