module attributes {x.a = dense<-3> : tensor<f64>} {}
