// The same in MLIR, as pipelines write it: `: i32`, `: ui32`, array<i32: ...>.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "GPU" = #dlti.target_device_spec<
    "device_type" = "GPU",
    "max_threads_per_block" = 1024 : i32,
    "L2_cache_size_in_bytes" = 52428800 : ui32,
    "subgroup_sizes" = array<i32: 32>>>} {}
