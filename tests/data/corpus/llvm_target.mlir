// RUN: mlir-opt -split-input-file %s | FileCheck %s
// #llvm.target and its relatives as MLIR prints them: a struct whose
// parameters print in their declared order with MLIR's spacing, whatever
// the order and spacing of the input.

module attributes {llvm.target = #llvm.target<triple="x86_64-unknown-linux-gnu",
                                              chip="znver4">} {}

// -----

module attributes {llvm.target = #llvm.target<chip = "sm_90", triple = "nvptx64-nvidia-cuda">} {}

// -----

module attributes {llvm.target = #llvm.target<triple = "aarch64-unknown-linux-gnu", chip = "neoverse-v2",
    features = #llvm.target_features<["+sve2", "+bf16"]>>} {}

// -----

module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "", features = <[ "+avx2" , "-avx512f" ]>>} {}

// -----

module attributes {llvm.target = #llvm.target<triple = "x86_64", chip = "a\"b">, test.space = #llvm.address_space< 4 >} {}

// -----

module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu">} {}

// -----

module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "x", model = "y">} {}

// -----

module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "x", features = <["avx2"]>>} {}

// -----

module attributes {llvm.target = #llvm.target<>} {}

// -----

module attributes {test.features = #llvm.target_features<["+neon","+fp16" ]>, test.space = #ptr.generic_space<>} {}

// -----

module attributes {test.spec = #ptr.spec<preferred = 64, size = 64, abi = 32>, test.idx = #ptr.spec<size = 64, abi = 64, preferred = 64, index = 4294967295>} {}
