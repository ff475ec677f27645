module attributes {dlti.dl_spec = #dlti.dl_spec<f32 = dense<[32, 64]> : vector<2xi32>>} {}
