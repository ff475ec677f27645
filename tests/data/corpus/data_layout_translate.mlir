// RUN: mlir-translate -mlir-to-llvmir %s -split-input-file -verify-diagnostics
// sysdesc's own cases for the data layout string mlir-translate writes
// (mlir/test/Target/LLVMIR/data-layout.mlir), written anew: `sysdesc
// dl-export` must write the same string.

module attributes {dlti.dl_spec = #dlti.dl_spec<
  "dlti.endianness" = "little",
  "dlti.alloca_memory_space" = 5 : ui32,
  "dlti.stack_alignment" = 64 : i32,
  "dlti.mangling_mode" = "e",
  "dlti.function_pointer_alignment" = #dlti.function_pointer_alignment<16, function_dependent = false>,
  index = 32,
  i64 = dense<[32, 64]> : vector<2xi64>,
  f80 = dense<128> : vector<2xi64>,
  !llvm.ptr = dense<[64, 64, 64]> : vector<3xi64>,
  !llvm.ptr<3> = dense<[32, 32, 32, 32]> : vector<4xi64>
>} {
  llvm.func @kernel() {
    llvm.return
  }
}

// -----

// Zero memory spaces, a zero stack alignment and a zero function pointer
// alignment are LLVM's defaults: no token.
module attributes {dlti.dl_spec = #dlti.dl_spec<
  "dlti.endianness" = "big",
  "dlti.program_memory_space" = 0 : ui32,
  "dlti.global_memory_space" = 0 : ui32,
  "dlti.alloca_memory_space" = 0 : ui32,
  "dlti.stack_alignment" = 0 : i32,
  "dlti.function_pointer_alignment" = #dlti.function_pointer_alignment<0, function_dependent = true>
>} {
  llvm.func @empty() {
    llvm.return
  }
}

// -----

module attributes {dlti.dl_spec = #dlti.dl_spec<si32 = dense<32> : vector<2xi64>>} {}

// -----

module attributes {dlti.dl_spec = #dlti.dl_spec<f8E4M3FN = dense<8> : vector<2xi64>>} {}

// -----

module attributes {dlti.dl_spec = #dlti.dl_spec<"vendor.flag" = 1 : i32>} {}

// -----

// Legal integer widths and the memory spaces LLVM names.
module attributes {dlti.dl_spec = #dlti.dl_spec<
  "dlti.legal_int_widths" = array<i32: 16, 32>,
  "dlti.program_memory_space" = 1 : ui32,
  "dlti.global_memory_space" = 2 : ui32,
  i1 = dense<8> : vector<2xi64>,
  f16 = dense<[16, 32]> : vector<2xi64>
>} {
  llvm.func @widths() {
    llvm.return
  }
}
