module attributes {x.y = #dlti.map<"a" = array<i1: true, 1>>} {}
