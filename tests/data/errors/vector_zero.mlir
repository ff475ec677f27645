module attributes {x.a = vector<0xf32>} {}
