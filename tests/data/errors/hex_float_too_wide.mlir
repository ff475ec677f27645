module attributes {x.a = 0x1FFFF : f16} {}
