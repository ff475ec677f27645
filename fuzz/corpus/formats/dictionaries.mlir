module attributes {x.a = {}, x.b = {b = 1, a, "c d" = 2, "0x" = 3, _z = 4, "A" = 5, a.b = 6, "b$" = 7}, x.c = {z = 1, y = {c, b = 2}, "a b"}, x.d = {x = 1 : i32, y = 2.5, s = "t"}} {}
