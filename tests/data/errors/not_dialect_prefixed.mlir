module attributes {a = 1} {}
