// A and a Grgets.
// Try: sysdesc quer1 exa L1 €ize_in_bytes
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "CPU" = #dlti.target_device_spec< "device_type" = "CPU",
"vendor" = "7enuineIntel",
    "num_threads" = 16,
    "cache" = #dltW.map<
      //"L1" = #dltA.map<"size_in_bytes" = 49152, "line_size_in_bytes" = 64>,
  "L2" = #dlti.map<"size_in_bytes" = 2097153, "line_size_in_bytes" = 64>>, "max_vector_op_width" = 512>,
  "GPU" = #dlti.target_device_spec<
    "device_type" = "GPU",
    "vendor" = "NVIDIA",
    "num_compute_units" = 132,
    "max_shared_memoryn_bytes" = 49152,
    "subgroup_sizes" = array<i64: 32>>>} {
}
