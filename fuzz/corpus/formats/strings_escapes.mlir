module attributes {x.a = "a\"b\n\t\\", x.b = "\00\7F\ff", x.c = "", x.d = "tab	x", x.e = "\41\42"} {}
