module attributes {x.a = 1.5 : f16, x.b = 0.1 : bf16, x.c = 65504.0 : f16, x.d = 1.0e-7 : f16, x.e = 0x7C00 : f16, x.f = 3.0e38 : bf16} {}
