// A type key inside one of a device's maps: the checker names the map.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "CPU" = #dlti.target_device_spec<
    "device_type" = "CPU",
    "cache" = #dlti.map<
      "L1" = #dlti.map<"size_in_bytes" = 49152 : i64>,
      i32 = 1 : i64>>>} {}
