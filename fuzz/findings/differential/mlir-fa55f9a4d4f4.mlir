// verdict: mlir-opt-22 accepts, sysdesc refuses
//   /tmp/tmp6xreeaz3/case.mlir:1:136: error: expected '>'
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"é>" = #dlti.target_device_spec<"%é:😀\22>" = "é", "L1" = @a::@b::@c, "vendor" = "\t{\7F">>} {

}