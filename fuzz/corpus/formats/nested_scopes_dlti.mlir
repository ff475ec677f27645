module @top attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"a" = 1>>} {
  module @mid attributes {dlti.map = #dlti.map<"k" = 2>} {
    module @leaf attributes {dlti.dl_spec = #dlti.dl_spec<"dlti.endianness" = "little">} {}
  }
}
