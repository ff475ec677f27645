module attributes {x.a = f8E4M3FN, x.b = tf32, x.c = bf16, x.d = si7, x.e = ui128, x.f = i16777215, x.g = vector<1x[2]xindex>, x.h = tensor<0xf32>, x.i = tuple<>, x.j = !llvm.ptr<1>, x.k = !x.y} {}
