module attributes {x.a = 1.0 : f80, x.b = 2.5 : f128, x.c = 1.5 : tf32, x.d = 0.5 : f8E4M3FN, x.e = 0.1 : f80, x.f = 0.1 : f128, x.g = 2.0 : f8E5M2} {}
