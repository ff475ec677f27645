module attributes {x.a = dense<1> : tensor<?xi32>} {}
