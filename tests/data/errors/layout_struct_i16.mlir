module attributes { dlti.dl_spec = #dlti.dl_spec<!llvm.struct<()> = dense<[8, 16]> : vector<2xi16>> } {}
