// RUN: mlir-opt -split-input-file %s | FileCheck %s
// sysdesc's own round-trip cases (mlir/test/Dialect/DLTI/valid.mlir and
// roundtrip.mlir), written anew in MLIR 22's spelling: `sysdesc fmt` must
// print what mlir-opt-22 prints, byte for byte.

module attributes {
  dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"dlti.L1_cache_size_in_bytes" = 8192 : ui32>,
    "GPU" = #dlti.target_device_spec<"dlti.max_vector_op_width" = 256 : ui32>
  >} {}

// -----

module attributes {
  dlti.map = #dlti.map<
    "answer" = 7 : i16,
    "ratio" = 0.75 : f32,
    "elem" = bf16,
    i8 = #dlti.map<"bits" = 8 : i32>,
    "flags" = [true, "x", 3]
  >} {}

// -----

"test.holder"() {
  test.a = #dlti.dl_entry<"vendor.key", 9 : i64>,
  test.b = #dlti.dl_entry<i16, 2 : index>,
  test.c = #dlti.dl_entry<memref<?xi8>, ["s", 1]>,
  test.d = #dlti.dl_spec<>,
  test.e = #dlti.dl_spec<#dlti.dl_entry<"vendor.k", 1 : i32>, #dlti.dl_entry<"vendor.j", 2 : index>>
} : () -> ()

// -----

"test.op_with_data_layout"() ({
  "test.op_with_data_layout"() ({
    "test.op_with_data_layout"() { dlti.dl_spec = #dlti.dl_spec<"vendor.w" = 8> } : () -> ()
    "test.maybe_terminator_op"() : () -> ()
  }) { dlti.dl_spec = #dlti.dl_spec<"vendor.w" = 8> } : () -> ()
  "test.maybe_terminator_op"() : () -> ()
}) { dlti.dl_spec = #dlti.dl_spec<"vendor.w" = 8> } : () -> ()

// -----

// Comments only: an empty module.

// -----

module @outer attributes {dlti.dl_spec = #dlti.dl_spec<"dlti.endianness" = "little", index = 32 : i64>} {
  module @inner attributes {dlti.map = #dlti.map<"tile" = [4, 8]>} {
  }
}
