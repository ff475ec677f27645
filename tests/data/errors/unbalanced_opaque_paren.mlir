module attributes {x.a = #foo.bar<1, (2>} {}
