// Type keys, a dl_spec and a map side by side, a map with more than 8 entries.
module @top attributes {dlti.dl_spec = #dlti.dl_spec<i32 = dense<32> : vector<2xi64>, !llvm.ptr<270> = dense<[32, 32, 32]> : vector<3xi64>, !llvm.ptr = dense<[64, 64, 64]> : vector<3xi64>, "dlti.endianness" = "little", index = 32, f16 = dense<16> : vector<2xi64>>,
    dlti.map = #dlti.map<"k0" = 0, "k1" = 1, "k2" = 2, "k3" = 3, "k4" = 4, "k5" = 5, "k6" = 6, "k7" = 7, "k8" = 8, "k9" = 9, "k10" = 10, i8 = "byte", vector<4xf32> = "v4", "nested" = #dlti.map<i1 = true, "deep" = #dlti.map<"x" = [1, 2.5, "s"]>>, "a\"b" = 11>} {
  module @inner attributes {dlti.map = #dlti.map<"k0" = 100, "only_inner" = 1.5 : f32>} {
  }
}
