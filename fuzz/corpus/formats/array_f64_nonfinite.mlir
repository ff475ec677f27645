module attributes {test.a = [-1.5e831, 1.0e400, 2.5, 0x7FF8000000000000 : f64]} {}
