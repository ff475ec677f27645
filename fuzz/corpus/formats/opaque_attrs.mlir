module attributes {x.y = #dlti.function_pointer_alignment<32, function_dependent = true>, x.z = #foo.bar<"a" , 1>, x.w = @sym, x.v = @"q sym", x.u = #foo.baz<(a) -> (b), [1]>, x.t = #foo.q} {}
