#gpu = #dlti.target_device_spec<"warp_size" = 32 : i32, "warp_size" = 64 : i32>
module {}
