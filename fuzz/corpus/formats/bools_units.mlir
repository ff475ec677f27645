module attributes {x.a = true, x.b = false, x.c = unit, x.d, x.e = [true, unit, false]} {}
