module attributes {x.a = i16777216} {}
