// Two devices, nested maps, type keys, and a nested scope that shadows "CPU".
module @top attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<
      "cache" = #dlti.map<"L1" = #dlti.map<"size_in_bytes" = 32768, "line_size_in_bytes" = 64 : i32>,
                          "L2" = #dlti.map<"size_in_bytes" = 1048576>>,
      "num_threads" = 16 : ui32, "vendor" = "GenuineIntel", "L1_cache_size_in_bytes" = 32768,
      "features" = ["avx2", "fma"]>,
    "GPU" = #dlti.target_device_spec<"max_shared_memory_per_block" = 49152, "mma" = #dlti.map<i32 = 8, f16 = 16>>>} {
  module @inner attributes {dlti.target_system_spec = #dlti.target_system_spec<
      "CPU" = #dlti.target_device_spec<"num_threads" = 4 : ui32>>} {
  }
}
