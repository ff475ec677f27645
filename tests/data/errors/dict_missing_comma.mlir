module attributes {x.a = {a = 1 b = 2}} {}
