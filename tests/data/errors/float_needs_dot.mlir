module attributes {x.a = #dlti.map<"a" = 8e+10>} {}
