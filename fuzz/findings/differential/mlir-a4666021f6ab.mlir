// verdict: mlir-opt-22 rejects, sysdesc accepts
//   /tmp/tmp6xreeaz3/case.mlir:1:71: error: invalid kind of attribute specified
//   module attributes {dlti.target_system_spec = #dlti.target_system_spec<f6E3M2FN = #dlti.target_device_spec<"
//   \00a
//   \t>" = "é<">>, dlti.dl_spec = #dlti.dl_spec<!llvm.ptr<270> = dense<32> : vector<4xi64>, "dlti.mangling_mode" = "e", "dlti.legal_int_widths" = array<i32: 8, 16, 32, 64>, i128 = dense<128> : vector<2xi64>>} {
module attributes {dlti.target_system_spec = #dlti.target_system_spec<f6E3M2FN = #dlti.target_device_spec<" \00a\t>" = "é<">>, dlti.dl_spec = #dlti.dl_spec<!llvm.ptr<270> = dense<32> : vector<4xi64>, "dlti.mangling_mode" = "e", "dlti.legal_int_widths" = array<i32: 8, 16, 32, 64>, i128 = dense<128> : vector<2xi64>>} {
  module {

}
}