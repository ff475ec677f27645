module attributes {x.a = dense<[1, 2]> : memref<2xi8>, x.b = dense<[255, 0]> : vector<2xui8>, x.c = dense<[-128, 127]> : vector<2xsi8>, x.d = dense<18446744073709551615> : vector<2xui64>} {}
