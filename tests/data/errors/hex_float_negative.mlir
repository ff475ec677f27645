module attributes {x.a = -0x10 : f32} {}
