module attributes {x.a = #dlti.map<"a" = 1 "b" = 2>} {}
