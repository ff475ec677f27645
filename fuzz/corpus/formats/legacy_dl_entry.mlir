module attributes {dlti.dl_spec = #dlti.dl_spec<#dlti.dl_entry<"k", 1 : i32>, #dlti.dl_entry<i32, dense<32> : vector<2xi64>>>, x.e = #dlti.dl_entry<"k", 42>, x.f = #dlti.dl_entry<i8, "v">} {}
