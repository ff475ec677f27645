// verdict: mlir-opt-22 accepts, sysdesc refuses
//   /tmp/tmp6xreeaz3/case.mlir:1:52: error: empty string as DLTI key is not allowed
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"" = #dlti.target_device_spec<"CPU" = dense<-1> : tensor<4xi8>, "dlti.x" = array<f64>>, "GPU" = #dlti.target_device_spec<"😀\nkeyx\n" = dense<[-1, 0x69]> : tensor<2xi32>>>, dlti.dl_spec = #dlti.dl_spec<"dlti.stack_alignment" = 128 : i64, !llvm.ptr = dense<64> : vector<4xi64>, "dlti.mangling_mode" = "e", "dlti.global_memory_space" = 1 : ui64, "dlti.alloca_memory_space" = 5 : ui64>} {

}