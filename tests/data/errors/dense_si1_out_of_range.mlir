module attributes {x.a = dense<[1, 2]> : vector<2xsi1>} {}
