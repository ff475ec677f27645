// Attribute and type aliases used inside DLTI attributes are resolved; MLIR
// prints DLTI attributes inline, so the definitions do not print.
#l1 = #dlti.map<"size_in_bytes" = 49152 : i32, "line_size_in_bytes" = 64 : i32>
#l2 = #dlti.map<"size_in_bytes" = 2097152 : i32>
#caches = #dlti.map<"L1" = #l1, "L2" = #l2>
!gptr = !llvm.ptr<1>
module attributes {dlti.dl_spec = #dlti.dl_spec<!gptr = dense<[64, 64, 64]> : vector<3xi64>>, dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cache" = #caches, "L1_cache_size_in_bytes" = 49152 : i32>>} {
}
