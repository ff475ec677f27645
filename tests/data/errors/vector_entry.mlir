module attributes {dlti.dl_spec = #dlti.dl_spec<vector<4xi32> = dense<[64, 32]> : vector<2xi64>>} {}
