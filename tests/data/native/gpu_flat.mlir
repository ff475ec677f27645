// A GPU spec as GPU passes read it: their own keys, i32 values.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" = #dlti.target_device_spec<"num_exec_units" = 512 : i32, "num_exec_units_per_slice" = 16 : i32, "num_threads_per_eu" = 8 : i32, "L1_cache_size_in_bytes" = 131072 : i32, "max_vector_op_width" = 256 : i32, "max_work_group_size" = 1024 : i32>>} {
}
