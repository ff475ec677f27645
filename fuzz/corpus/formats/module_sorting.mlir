module attributes {z.z = true, b.c = false, A.x = 1, "quoted.name" = 1, a.b, unitattr.x = unit, dlti.dl_spec = #dlti.dl_spec<>, a.a = 0, "a b.c" = 1} {}
