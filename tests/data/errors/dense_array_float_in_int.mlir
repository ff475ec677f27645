module attributes {x.a = array<i8: 1.5>} {}
