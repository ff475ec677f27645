// A module that has a system spec and a data layout already.
module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>, dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 16 : i64>, "GPU" = #dlti.target_device_spec<"max_shared_memory_per_block" = 49152 : i64>>, test.keep = 1 : i32} {
  func.func private @f()
}
