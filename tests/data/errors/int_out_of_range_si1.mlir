module attributes {x.a = 1 : si1} {}
