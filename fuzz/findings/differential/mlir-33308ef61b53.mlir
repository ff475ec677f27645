// verdict: mlir-opt-22 accepts, sysdesc refuses
//   /tmp/tmp6xreeaz3/case.mlir:1:54: error: empty string as DLTI key is not allowed
module attributes {dlt0xi.target_system_spec = #dlti.target_system_spec<"" = #dlti.target_device_spec<"GPU" = i32>>} {

}