module attributes {x.a = dense<-1> : vector<2xui8>} {}
