module attributes {x.a = "abc} {}
