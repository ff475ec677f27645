// The same in MLIR: `: i32` where the schema wants i64 (a bare integer is i64).
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "GPU" = #dlti.target_device_spec<
    "device_type" = "GPU",
    "max_threads_per_block" = 1024 : i32,
    "subgroup_sizes" = array<i32: 32>>>} {}
