// RUN: mlir-opt --test-data-layout-query --split-input-file --verify-diagnostics %s
// sysdesc's own cases for the LLVM dialect's types in a data layout
// (mlir/test/Dialect/LLVMIR/layout.mlir), written anew.

module {
  func.func @defaults() {
    "test.data_layout_query"() : () -> !llvm.ptr
    "test.data_layout_query"() : () -> !llvm.ptr<1>
    "test.data_layout_query"() : () -> !llvm.ptr<270>
    return
  }
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !llvm.ptr = dense<[32, 32, 64]> : vector<3xi64>,
  !llvm.ptr<6> = dense<[64, 64, 64]> : vector<3xi64>,
  !llvm.ptr<2> = dense<[32, 64, 64, 16]> : vector<4xi64>,
  "dlti.endianness" = "big",
  "dlti.default_memory_space" = 1 : ui64,
  "dlti.alloca_memory_space" = 6 : ui64,
  "dlti.global_memory_space" = 2 : ui64,
  "dlti.program_memory_space" = 4 : ui64,
  "dlti.stack_alignment" = 64 : i64,
  "dlti.mangling_mode" = "o"
>} {
  func.func @with_spec() {
    "test.data_layout_query"() : () -> !llvm.ptr
    "test.data_layout_query"() : () -> !llvm.ptr<5>
    "test.data_layout_query"() : () -> !llvm.ptr<6>
    "test.data_layout_query"() : () -> !llvm.ptr<2>
    return
  }
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !llvm.ptr = dense<[32.0, 32.0, 32.0]> : vector<3xf32>
>} {
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !llvm.ptr = dense<[64, 128, 64]> : vector<3xi64>
>} {
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !llvm.ptr = dense<[64, 64, 64]> : vector<3xi16>
>} {
}

// -----

module {
  func.func @structs() {
    "test.data_layout_query"() : () -> !llvm.struct<(i16)>
    "test.data_layout_query"() : () -> !llvm.struct<(i8, f64)>
    "test.data_layout_query"() : () -> !llvm.struct<(f64, i8)>
    "test.data_layout_query"() : () -> !llvm.struct<packed (f64, i16)>
    "test.data_layout_query"() : () -> !llvm.struct<()>
    return
  }
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !llvm.struct<()> = dense<[16, 64]> : vector<2xi64>
>} {
  func.func @struct_entry() {
    "test.data_layout_query"() : () -> !llvm.struct<(i8)>
    "test.data_layout_query"() : () -> !llvm.struct<(i64, f32)>
    "test.data_layout_query"() : () -> !llvm.struct<packed (i8, i8)>
    "test.data_layout_query"() : () -> !llvm.struct<()>
    return
  }
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !llvm.struct<(i32)> = dense<[32, 32]> : vector<2xi64>
>} {
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !llvm.struct<()> = dense<[32, 32, 32]> : vector<3xi64>
>} {
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !llvm.struct<()> = dense<[32]> : vector<1xi16>
>} {
}

// -----

module {
  func.func @arrays() {
    "test.data_layout_query"() : () -> !llvm.array<3 x i16>
    "test.data_layout_query"() : () -> !llvm.array<0 x i64>
    "test.data_layout_query"() : () -> !llvm.array<2 x struct<(i8, i32)>>
    return
  }
}
