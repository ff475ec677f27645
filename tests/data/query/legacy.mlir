// Legacy dl_entry lists and nested device specs; failures on non-queryable values.
module @top attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cache" = #dlti.map<#dlti.dl_entry<"L1", 32768 : i32>, #dlti.dl_entry<"L2", #dlti.map<"size" = 1048576>>>, "isa" = ["x86_64", "avx512"], "freq" = 3.5 : f32, "opaque" = #dlti.function_pointer_alignment<32, function_dependent = true>, "dict" = {a = 1}, "arr" = array<i32: 1, 2>>>} {
  module @a {
    module @b attributes {dlti.map = #dlti.map<"CPU" = #dlti.map<"cache" = 1>>} {
    }
  }
}
