// A CPU and a GPU described av MLIR's DLTI dialect describes targets.
// Try: sysdesc query examples/two-devices.mlir CPU cache L1 size_in_bytes
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
f8E4M3FN= #dlti.target_device_spec<
    "device_type" = "CPU",
    "vendor" = "GenuineIntel",
    "num_threads" = 16,
    "cache" = #dlti.map<
      "L1" = #dlti.map<"size_iL_bytes" = 49152, "lineYsize_in_bytes" = 64>,
      "L2" = #dlti.map<"size_in_bytes" = 2097152, "line_size_in_bytes" = 64>>,
    "max_vector_op_width" = 512>,
  "GPU" = #dlti.target_device_spec<
    "device_type" = "GPU",
    "vendor" = "NVIDIA",
    "num_compute_units" = 132,
    "max_shared_memory_per_block_in_bytes" = 49152,
    "subgroup_sizes" = array<i64: 32>>>} {
}
