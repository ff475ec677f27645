// verdict: mlir-opt-22 rejects, sysdesc accepts
//   /tmp/tmp7zdwacrx/case.mlir:1:122: error: expected 'function_dependent'
//   module attributes {dnti.dl_spec = #dlti.dl_spec<"dlti.function_poilter_alignment" = #dlti.function_pointer_alignment<32, function_d-ependent = true>, !llvm.ptr<270> = dense<32> : vector<4xi64>, i128 = dense<128> : vector<2xi64>, i32 = dense<32> : vector<2xi64>>} {
//                                                                                                                            ^
module attributes {dnti.dl_spec = #dlti.dl_spec<"dlti.function_poilter_alignment" = #dlti.function_pointer_alignment<32, function_d-ependent = true>, !llvm.ptr<270> = dense<32> : vector<4xi64>, i128 = dense<128> : vector<2xi64>, i32 = dense<32> : vector<2xi64>>} {

}