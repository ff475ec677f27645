module attributes {x.a = 3.14159 : f32, x.b = 1.0e10 : f32, x.c = 123456.7 : f32, x.d = 16777217.0 : f32, x.e = 0x7FC00000 : f32, x.f = 0xFFC00000 : f32, x.g = 0.1 : f32, x.h = -2.5 : f32} {}
