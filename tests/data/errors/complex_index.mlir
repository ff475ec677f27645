module attributes {x.a = complex<index>} {}
