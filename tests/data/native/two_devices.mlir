// The shape of the DLTI dialect's own example: one flat key a device.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 8192 : i32>, "GPU3" = #dlti.target_device_spec<"max_vector_op_width" = 64 : ui32>>} {
}
