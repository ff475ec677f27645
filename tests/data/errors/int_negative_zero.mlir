module attributes {x.a = -0 : i8} {}
