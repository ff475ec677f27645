module attributes {x.a = dense<[1.5, 2]> : vector<2xf32>} {}
