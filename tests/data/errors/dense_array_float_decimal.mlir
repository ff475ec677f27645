module attributes {x.a = array<f32: 1, 2>} {}
