// verdict: mlir-opt-22 accepts, sysdesc refuses
//   /tmp/tmp6xreeaz3/case.mlir:1:164: error: expected '>'
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"node1.GPU3" = #dlti.target_device_spec<"😀" = 5538993876864652648 : index, "dlti.x" = @a::@b::@c>>} {

}