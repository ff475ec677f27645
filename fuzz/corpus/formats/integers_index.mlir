module attributes {x.a = 1 : index, x.b = -1 : index, x.c = 9223372036854775807 : index, x.d = 0x10 : index} {}
