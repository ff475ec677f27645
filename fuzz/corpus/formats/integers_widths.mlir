module attributes {x.a = 0 : i1, x.b = 1 : i1, x.d = 0x10, x.e = -0x10 : i32, x.f = 0 : ui1, x.g = 0 : si1, x.h = -1 : si1, x.l = 255 : i8, x.m = 5 : i3, x.n = 7 : ui3, x.o = 1 : i65} {}
