module attributes {x.a = dense<[1, 256]> : vector<2xi8>} {}
