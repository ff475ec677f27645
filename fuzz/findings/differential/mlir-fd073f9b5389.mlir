// verdict: mlir-opt-22 rejects, sysdesc accepts
//   /tmp/tmp6xreeaz3/case.mlir:1:78: error: invalid kind of attribute specified
//   module @"q m" attributes {dlti.target_system_spec = #dlti.target_system_spec<vector<[4]xf32> = #dlti.target_device_spec<"%
//   \00" = i64, "GPU" = {a = 1 : i32, b = "x"}>>} {
module @"q m" attributes {dlti.target_system_spec = #dlti.target_system_spec<vector<[4]xf32> = #dlti.target_device_spec<"%\00" = i64, "GPU" = {a = 1 : i32, b = "x"}>>} {

}