module attributes {x.a = -1 : ui8} {}
