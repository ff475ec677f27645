// RUN: mlir-opt -split-input-file -verify-diagnostics %s
// sysdesc's own cases for the DLTI verifier of MLIR's newest tests
// (mlir/test/Dialect/DLTI/invalid.mlir): each chunk is written here anew and
// judged by mlir-opt-22 against sysdesc (tests/dlti/interop_corpus.sh).

"test.holder"() { dlti.bogus } : () -> ()

// -----

"test.holder"() { dlti.map = "not a map" } : () -> ()

// -----

module attributes {dlti = 7 : i64} {}

// -----

"test.holder"() { dlti.dl_spec = 8 : i32 } : () -> ()

// -----

"test.holder"() { dlti.dl_spec = #dlti.dl_spec<[1]> } : () -> ()

// -----

"test.holder"() { test.entry = #dlti.dl_entry<7, 7> } : () -> ()

// -----

"test.holder"() { test.table = #dlti.map<"" = 1> } : () -> ()

// -----

"test.holder"() { test.table = #dlti.dl_spec<
  #dlti.dl_entry<"vendor.knob", 1>,
  #dlti.dl_entry<"vendor.knob", 2>
>} : () -> ()

// -----

"test.holder"() { test.table = #dlti.map<
  #dlti.dl_entry<i16, 1>,
  #dlti.dl_entry<i16, 1>
>} : () -> ()

// -----

"test.holder"() { test.table = #dlti.dl_spec<f32 = 1, f32 = 2> } : () -> ()

// -----

"test.holder"() { test.table = #dlti.nonsense } : () -> ()

// -----

"test.op_with_data_layout"() ({
}) { dlti.dl_spec = #dlti.dl_spec<"dlti.no_such_entry" = 3> } : () -> ()

// -----

"test.op_with_data_layout"() ({
}) { dlti.dl_spec = #dlti.dl_spec<"dlti.endianness" = "middle"> } : () -> ()

// -----

// Inner and outer spec disagree on one identifier.
"test.op_with_data_layout"() ({
  "test.op_with_data_layout"() { dlti.dl_spec = #dlti.dl_spec<"vendor.width" = 16> } : () -> ()
  "test.maybe_terminator_op"() : () -> ()
}) { dlti.dl_spec = #dlti.dl_spec<"vendor.width" = 17> } : () -> ()

// -----

"test.op_with_data_layout"() { dlti.dl_spec = #dlti.dl_spec<memref<4xi8> = 8> } : () -> ()

// -----

"test.op_with_data_layout"() { dlti.dl_spec = #dlti.dl_spec<!test.test_type = 8> } : () -> ()

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<"vendor.width" = 64>} {
  module attributes { dlti.dl_spec = #dlti.dl_spec<"vendor.width" = 65>} {
  }
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<"vendor.width" = 64>} {
  "test.op_with_data_layout"() { dlti.dl_spec = #dlti.dl_spec<"vendor.width" = 32>} : () -> ()
}

// -----

"test.holder"() { dlti.target_system_spec = "CPU" } : () -> ()

// -----

"test.holder"() { dlti.target_system_spec = #dlti.target_system_spec<[]> } : () -> ()

// -----

module attributes {
  dlti.target_system_spec = #dlti.target_system_spec<
    = #dlti.target_device_spec<"lanes" = 8 : i32>
  >} {}

// -----

module attributes {
  dlti.target_system_spec = #dlti.target_system_spec<
    3 = #dlti.target_device_spec<"lanes" = 8 : i32>
  >} {}

// -----

module attributes {
  dlti.target_system_spec = #dlti.target_system_spec<
    "NPU" = #dlti.target_device_spec<"lanes" = 8>,
    "NPU" = #dlti.target_device_spec<"lanes" = 16>
  >} {}

// -----

module attributes {
  dlti.target_system_spec = #dlti.target_system_spec<
    "NPU" = #dlti.target_device_spec<"lanes" = 8,
                                     "lanes" = 16>
  >} {}
