module attributes { dlti.dl_spec = #dlti.dl_spec<!ptr.ptr<#ptr.generic_space> = dense<64> : vector<4xi64>> } {}
