module attributes {x.a = "\q"} {}
