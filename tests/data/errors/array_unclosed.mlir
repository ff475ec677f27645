module attributes {x.a = [1, 2} {}
