module attributes {x.a = complex<vector<2xf32>>} {}
