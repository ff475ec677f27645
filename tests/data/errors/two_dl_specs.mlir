module attributes {x.a = #dlti.dl_spec<>, dlti.dl_spec = #dlti.dl_spec<>} {}
