// RUN: mlir-opt -split-input-file %s | FileCheck %s
// Target descriptions as MLIR users write them (system specs of CPUs and
// GPUs, data layouts of compiler front ends and GPU pipelines, LLVM targets,
// pointer-dialect memory models), written here anew: mlir-opt-22 and
// `sysdesc fmt` must print the same.

module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "CPU" = #dlti.target_device_spec<
    "vendor" = "AuthenticAMD", "arch" = "znver4", "num_cores" = 16 : i64,
    "cache" = #dlti.map<"L1d" = #dlti.map<"size_in_bytes" = 32768 : i64, "line_size" = 64 : i64>,
                        "L2" = #dlti.map<"size_in_bytes" = 1048576 : i64>>,
    "isa" = ["avx2", "avx512f", "avx512bf16"], "max_vector_op_width" = 512 : i64>,
  "GPU" = #dlti.target_device_spec<
    "vendor" = "NVIDIA", "arch" = "sm_90", "warp_size" = 32 : i64,
    "memory" = #dlti.map<"global_bytes" = 85899345920 : i64, "shared_per_block_bytes" = 232448 : i64>,
    "clock_ghz" = 1.98 : f64>
>} {}

// -----

module attributes {
  dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 65536 : ui32, "max_vector_op_width" = 256 : ui32>,
    "NPU" = #dlti.target_device_spec<"tile_shape" = array<i64: 32, 32>, "vector_lanes" = dense<[8, 16]> : vector<2xi32>>>,
  dlti.dl_spec = #dlti.dl_spec<"dlti.endianness" = "little", index = 64 : i64, i64 = dense<[32, 64]> : vector<2xi64>>,
  llvm.target = #llvm.target<triple = "riscv64-unknown-linux-gnu", chip = "sifive-x280", features = <["+v", "+zvfh"]>>
} {}

// -----

// A front end's module: its own attributes beside the data layout.
module @"hello.c" attributes {dlti.dl_spec = #dlti.dl_spec<i16 = dense<16> : vector<2xi64>, i32 = dense<32> : vector<2xi64>, i8 = dense<8> : vector<2xi64>, i1 = dense<8> : vector<2xi64>, !llvm.ptr = dense<64> : vector<4xi64>, f80 = dense<128> : vector<2xi64>, i128 = dense<128> : vector<2xi64>, !llvm.ptr<272> = dense<64> : vector<4xi64>, i64 = dense<64> : vector<2xi64>, !llvm.ptr<270> = dense<32> : vector<4xi64>, !llvm.ptr<271> = dense<32> : vector<4xi64>, f128 = dense<128> : vector<2xi64>, f16 = dense<16> : vector<2xi64>, f64 = dense<64> : vector<2xi64>, "dlti.stack_alignment" = 128 : i64, "dlti.endianness" = "little">, fe.lang = "c", llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu"} {}

// -----

// A GPU pipeline's kernel module carries the device's data layout.
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {dlti.dl_spec = #dlti.dl_spec<!llvm.ptr<6> = dense<32> : vector<4xi64>, i64 = dense<64> : vector<2xi64>, i128 = dense<128> : vector<2xi64>, !llvm.ptr = dense<64> : vector<4xi64>, "dlti.endianness" = "little", "dlti.legal_int_widths" = array<i32: 16, 32, 64>>} {
  }
}

// -----

// A memory model of the ptr dialect: a narrow address space beside the default one.
module attributes {dlti.dl_spec = #dlti.dl_spec<
  !ptr.ptr<#ptr.generic_space> = #ptr.spec<size = 64, abi = 64, preferred = 64>,
  !ptr.ptr<#llvm.address_space<3>> = #ptr.spec<size = 32, abi = 32, preferred = 32, index = 32>,
  "dlti.default_memory_space" = #ptr.generic_space>} {}

// -----

// Module attributes of a JIT: an LLVM target written by hand, features and all.
module attributes {llvm.target = #llvm.target<triple = "x86_64-pc-linux-gnu",
    chip = "sapphirerapids",
    features = #llvm.target_features<["+amx-bf16", "+amx-tile", "+avx512fp16"]>>,
  dlti.map = #dlti.map<"tile_sizes" = [16, 16, 64], "unroll" = 4 : i32>} {}

// -----

// An empty system spec device is an error.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<>>} {}

// -----

// A type as a device key is an error.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<i32 = 4>>} {}
