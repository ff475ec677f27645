module attributes {x.a = dense<> : tensor<2xi32>} {}
