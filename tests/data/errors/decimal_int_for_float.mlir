module attributes {x.a = 10 : f32} {}
