builtin.module attributes {x.a = 1} {}
