// RUN: mlir-opt --split-input-file --verify-diagnostics --test-data-layout-query %s
// sysdesc's own cases of identifier entries, index entries and the dialects
// that own an identifier (mlir/test/Interfaces/DataLayoutInterfaces/types.mlir
// and module.mlir), written anew.

module attributes { dlti.dl_spec = #dlti.dl_spec<index = [16]>} {
}

// -----

// The op's own dialect has no identifier entries.
"test.op_with_data_layout"() { dlti.dl_spec = #dlti.dl_spec<
  index = 16, "test.knob" = 3>} : () -> ()

// -----

// A dialect loaded by an op elsewhere in the file counts too.
module attributes { dlti.dl_spec = #dlti.dl_spec<"func.knob" = 1>} {
  func.func private @g()
}

// -----

// ...and one loaded with another dialect (gpu loads arith).
module attributes { dlti.dl_spec = #dlti.dl_spec<"arith.knob" = 1>} {
  gpu.module @kernels {
  }
}

// -----

// A dialect named only inside the entry's string is not loaded: accepted.
module attributes { dlti.dl_spec = #dlti.dl_spec<"gpu.knob" = 1, "vendor.knob" = 2>} {
  func.func @widths() {
    "test.data_layout_query"() : () -> i32
    return
  }
}

// -----

// The type of an entry loads its dialect.
module attributes { dlti.dl_spec = #dlti.dl_spec<!llvm.ptr = dense<64> : vector<4xi64>, "llvm.knob" = 1>} {
}

// -----

module @index_width attributes { dlti.dl_spec = #dlti.dl_spec<index = 16>} {
  func.func @query() {
    "test.data_layout_query"() : () -> index
    "test.data_layout_query"() : () -> i48
    return
  }
}

// -----

module @index_default {
  func.func @query() {
    "test.data_layout_query"() : () -> index
    return
  }
}
