module attributes {x.a = 300 : i8} {}
