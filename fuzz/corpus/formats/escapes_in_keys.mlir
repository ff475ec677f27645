module attributes {dlti.map = #dlti.map<"a\"b" = 1, "\0A" = 2, "é" = 3>} {}
