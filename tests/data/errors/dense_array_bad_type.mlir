module attributes {x.a = array<vector<2xi32>: 1>} {}
