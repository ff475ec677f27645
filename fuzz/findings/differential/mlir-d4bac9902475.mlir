// verdict: mlir-opt-22 accepts, sysdesc refuses
//   /tmp/tmp6xreeaz3/case.mlir:1:218: error: expected '>'
module @a attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU0" = #dlti.target_device_spec<"  \t" = dense<-1895669644> : vector<3xi32>, "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\ta" = @a::@b>>, dlti.dl_spec = #dlti.dl_spec<"dlti.endianness" = "big", !llvm.ptr = dense<64> : vector<4xi64>, !llvm.ptr<270> = dense<32> : vector<4xi64>, "dlti.mangling_mode" = "e", f80 = dense<128> : vector<2xi64>>} {

}