// A device whose id names no type the schema knows, and a dl_spec beside
// the system spec.
module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64, "dlti.endianness" = "little">, dlti.target_system_spec = #dlti.target_system_spec<"NPU" = #dlti.target_device_spec<"tile_rows" = 16 : ui16, "sram_size_in_bytes" = 4194304 : i64>>} {
}
