// verdict: mlir-opt-22 accepts, sysdesc refuses
//   /tmp/tmp6xreeaz3/case.mlir:1:483: error: expected '>'
module @m attributes {dlti.target_system_spec = #dlti.target_system_spec<":xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx " = #dlti.target_device_spec<"CPU" = 0x00 : f128, "\n😀\"\00" = @"quoted sym", "é😀\"key\00" = @a::@bi64, "GPU" = false>, "" = #dlti.target_device_spec<"size_in_bytes" = true, "<" = @sym>, "GPU0" = #dlti.target_device_spec<":\\\00" = 0xFC00 : f16, " \n\" \\" = 1.0e308 : f80>>} {

}