module attributes {dlti.dl_spec = #dlti.dl_spec<"dlti.endianness" = "big">} {
  module attributes {dlti.dl_spec = #dlti.dl_spec<"dlti.endianness" = "little">} {}
}
