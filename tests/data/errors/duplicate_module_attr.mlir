module attributes {x.a = 1, x.a = 2} {}
