module attributes {x.a = 1.5 : i32} {}
