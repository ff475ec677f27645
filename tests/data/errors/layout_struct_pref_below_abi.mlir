module attributes { dlti.dl_spec = #dlti.dl_spec<!llvm.struct<()> = dense<[128, 64]> : vector<2xi64>> } {}
