module attributes {x.b = #dlti.dl_spec<>, x.a = #dlti.dl_spec<"dlti.endianness" = "x">} {}
