module attributes {x.a = dense<true> : vector<2xi32>} {}
