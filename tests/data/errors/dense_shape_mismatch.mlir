module attributes {x.a = dense<[1, 2]> : vector<3xi32>} {}
