// verdict: mlir-opt-22 accepts, sysdesc refuses
//   /tmp/tmp6xreeaz3/case.mlir:1:59: error: empty string as DLTI key is not allowed
module @"q m" attributes {dlti.target_system_spec = #dlti.target_system_spec<"" = #dlti.target_device_spec<">% " = 6399588490270037207, "\7F%" = "#", " #'x😀>" = "", "\n#\ff:a " = 3 : i3>>} {

}