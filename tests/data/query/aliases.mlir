// Attribute aliases inside DLTI attributes, and affine_map values (kept as
// written: MLIR prints them through a #map alias).
#l1 = #dlti.map<"size_in_bytes" = 32768 : i32>
#l1d = #dlti.map<"size_in_bytes" = 49152 : i32>
#transpose = affine_map<(d0, d1) -> (d1, d0)>
!lds = !llvm.ptr<3>
module @top attributes {test.dlti = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cache" = #dlti.map<"L1" = #l1, "L1d" = #l1d>, "layout" = #transpose, "inline_map" = affine_map<(d0)[s0] -> (d0 * 4 + s0)>>, "GPU" = #dlti.target_device_spec<"shared" = #dlti.map<!lds = 65536 : i32>>>} {
  func.func private @f() attributes {test.dlti = #dlti.map<"tile" = #l1>}
}
