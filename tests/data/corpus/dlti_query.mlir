// RUN: mlir-opt -transform-interpreter -canonicalize -split-input-file -verify-diagnostics %s
// sysdesc's own query cases (mlir/test/Dialect/DLTI/query.mlir), written
// anew in MLIR 22's spelling: each transform.dlti.query is answered by
// mlir-opt-22 and by `sysdesc query`, values and failure notes alike.

module attributes { test.dlti = #dlti.map<"vendor.id" = 11 : i32> } {
  func.func private @a()
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.get_parent_op %f : (!transform.any_op) -> !transform.any_op
    %v = transform.dlti.query ["vendor.id"] at %m : (!transform.any_op) -> !transform.any_param
    %w = transform.dlti.query ["vendor.other"] at %m : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}

// -----

module attributes { test.dlti = #dlti.map<f16 = unit, "nested" = #dlti.map<"leaf" = 5 : i8>> } {
  func.func private @b()
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.get_parent_op %f : (!transform.any_op) -> !transform.any_op
    %v = transform.dlti.query [f16] at %m : (!transform.any_op) -> !transform.any_param
    %w = transform.dlti.query ["nested", "leaf"] at %m : (!transform.any_op) -> !transform.any_param
    %x = transform.dlti.query ["nested", "twig"] at %m : (!transform.any_op) -> !transform.any_param
    %y = transform.dlti.query [f16, "leaf"] at %m : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}

// -----

// A system spec whose failure note prints the whole device (longer than a
// line: MLIR does not shorten it).
module attributes { dlti.target_system_spec = #dlti.target_system_spec<
  "CPU" = #dlti.target_device_spec<"cache" = #dlti.map<"L1" = #dlti.map<"size_in_bytes" = 49152 : i64, "line_size" = 64 : i64>, "L2" = #dlti.map<"size_in_bytes" = 2097152 : i64>>, "vector_width" = 512 : i64>,
  "GPU" = #dlti.target_device_spec<"max_threads_per_block" = 1024 : i64, "warp_size" = 32 : i64>> } {
  func.func private @c()
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.dlti.query ["CPU", "cache", "L1", "size_in_bytes"] at %f : (!transform.any_op) -> !transform.any_param
    %b = transform.dlti.query ["GPU", "warp_size"] at %f : (!transform.any_op) -> !transform.any_param
    %c = transform.dlti.query ["NPU"] at %f : (!transform.any_op) -> !transform.any_param
    %d = transform.dlti.query ["CPU", "cache", "L3"] at %f : (!transform.any_op) -> !transform.any_param
    %e = transform.dlti.query ["CPU", "simd_width"] at %f : (!transform.any_op) -> !transform.any_param
    %g = transform.dlti.query ["GPU", "warp_size", "x"] at %f : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<"vendor.id" = 4 : i32, i32 = dense<32> : vector<2xi64>> } {
  func.func private @d() attributes { test.dlti = #dlti.map<"vendor.id" = 5 : i32> }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.get_parent_op %f : (!transform.any_op) -> !transform.any_op
    %v = transform.dlti.query ["vendor.id"] at %f : (!transform.any_op) -> !transform.any_param
    %w = transform.dlti.query ["vendor.id"] at %m : (!transform.any_op) -> !transform.any_param
    %x = transform.dlti.query [i32] at %m : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}

// -----

#small = #dlti.map<"size_in_bytes" = 32768 : i32>
#big = #dlti.map<"size_in_bytes" = 1048576 : i32>
module attributes { dlti.target_system_spec =
  #dlti.target_system_spec<"CPU" =
    #dlti.target_device_spec<"cache" = #dlti.map<"L1" = #small, "L2" = #big>>> } {
  func.func private @e()
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.dlti.query ["CPU", "cache", "L2", "size_in_bytes"] at %f : (!transform.any_op) -> !transform.any_param
    %b = transform.dlti.query ["CPU", "cache", "L1", "bytes"] at %f : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}

// -----

module {
  func.func private @nothing()
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.dlti.query ["CPU"] at %f : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}
