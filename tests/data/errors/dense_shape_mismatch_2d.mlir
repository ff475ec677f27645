module attributes {x.a = dense<[[1, 2], [3, 4]]> : tensor<2x3xi32>} {}
