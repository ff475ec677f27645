module attributes {dlti.dl_spec = #dlti.dl_spec<>} {}
