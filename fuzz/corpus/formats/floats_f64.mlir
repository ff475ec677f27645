module attributes {x.a = 1.5, x.b = 0.123456789, x.c = 1.0e-320, x.d = -0.0, x.e = 0x7FF0000000000000 : f64, x.f = 1.0e+300, x.g = 0.1 : f64, x.h = 100.0} {}
