// verdict: mlir-opt-22 rejects, sysdesc accepts
//   /tmp/tmp6xreeaz3/case.mlir:1:74: error: invalid kind of attribute specified
//   module @m attributes {dlti.target_system_spec = #dlti.target_system_spec<si8 = #dlti.target_device_spec<"\ta\7F\7F{" = "\n\7F
//   \\">>} {
module @m attributes {dlti.target_system_spec = #dlti.target_system_spec<si8 = #dlti.target_device_spec<"\ta\7F\7F{" = "\n\7F \\">>} {

}