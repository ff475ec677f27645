module attributes {x.a = 1 : vector<2xi32>} {}
