module attributes {x.a = 2 : i1} {}
