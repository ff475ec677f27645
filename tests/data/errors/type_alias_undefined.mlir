module attributes {dlti.dl_spec = #dlti.dl_spec<!shared = dense<[32, 32, 32]> : vector<3xi64>>} {}
