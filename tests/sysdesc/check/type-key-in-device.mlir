// A type key (i32) among a device's properties: the core refuses it while
// parsing, with MLIR's own message; nothing else is checked.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "CPU" = #dlti.target_device_spec<
    "device_type" = "CPU",
    i32 = 1 : i64,
    "num_cores" = 0 : i64>>} {}
