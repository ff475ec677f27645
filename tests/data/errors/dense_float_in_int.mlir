module attributes {x.a = dense<[1, 2.5]> : vector<2xi32>} {}
