module attributes { dlti.dl_spec = #dlti.dl_spec<!llvm.token = dense<8> : vector<2xi64>> } {}
