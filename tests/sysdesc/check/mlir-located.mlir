// Problems in MLIR are shown at the quoted key: in nested maps, past a
// `source` map and a CPU kind that hold the same names, in the older
// "CPU" : #dlti.target_device_spec form, and in the second device.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "CPU" : #dlti.target_device_spec<
    "device_type" = "CPU",
    "source" = #dlti.map<"num_cores" = "hwloc", "cache" = "hwloc">,
    "cpu_kinds" = #dlti.map<"0" = #dlti.map<"num_cores" = 4 : i64>>,
    "num_cores" = 0 : i64,
    "cache" = #dlti.map<
      "L1" = #dlti.map<"size_in_bytes" = "48KB", "associativity" = 0 : i64>>>,
  "GPU0" = #dlti.target_device_spec<
    "device_type" = "GPU",
    "num_compute_unit" = 132 : i64,
    "peak_ops_per_second" = #dlti.map<"bf16_matrix" = 989.4 : f64>>>} {}
