module attributes {x.a = {a = 1, a = 2}} {}
