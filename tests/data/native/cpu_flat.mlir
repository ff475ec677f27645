// A host spec as a pipeline's Python tooling writes it: flat keys, unsigned
// and 32-bit integers, no device_type, a key of its own (max_vector_width).
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 32768 : ui32, "L2_cache_size_in_bytes" = 1048576 : ui64, "L3_cache_size_in_bytes" = 37486592 : ui64, "num_threads" = 48 : i32, "max_vector_width" = 256 : i64, "max_vector_op_width" = 256 : i32>>} {
}
