// verdict: mlir-opt-22 rejects, sysdesc accepts
//   /tmp/tmp7zdwacrx/case.mlir:1:129: error: expected 'true' or 'false' values for i1 type
//   module @m attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU0" = #dlti.target_device_spec<"\n\7F" = array<i1: 1, 0>, "vendor" = 0>>, test.attr = #dlti.map<"CPU" = 1 : i128, !llvm.ptr<271> = "é
//   ", "num_cores" = array<i32>>} {
module @m attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU0" = #dlti.target_device_spec<"\n\7F" = array<i1: 1, 0>, "vendor" = 0>>, test.attr = #dlti.map<"CPU" = 1 : i128, !llvm.ptr<271> = "é ", "num_cores" = array<i32>>} {

}