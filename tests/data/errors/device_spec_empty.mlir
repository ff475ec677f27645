module attributes {x.a = #dlti.target_device_spec<>} {}
