// verdict: mlir-opt-22 accepts, sysdesc refuses
//   /tmp/tmp6xreeaz3/case.mlir:1:55: error: empty string as DLTI key is not allowed
module @m attributes {dlti.target_system_spec = #dlti.target_system_spec<"" = #dlti.target_device_spec<"vendor" = #dlti.map<"%" = "{%">, "dlti.x" = si64, "<>: 😀" = 0x7C00 : tf32, "L1" = array<i64: -6248530118498366551, 13926715354968265438>, "\22é\22>{" = array<i1>>>} {

}