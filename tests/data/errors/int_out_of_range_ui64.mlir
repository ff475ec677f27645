module attributes {x.a = 18446744073709551616 : ui64} {}
