module attributes {x.a = dense<[1, 2]> : i32} {}
