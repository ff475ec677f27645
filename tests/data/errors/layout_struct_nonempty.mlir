module attributes { dlti.dl_spec = #dlti.dl_spec<!llvm.struct<(i32, f32)> = dense<[32, 64]> : vector<2xi64>> } {}
