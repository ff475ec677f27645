// Target descriptions as MLIR's users write them, in this project's own
// words, each modelled on a project's shape: sysdesc convert, summary and
// attach take every one (tests/cli/lenient.py; docs/checks.md, "Lenient
// transforms").  Every chunk is valid MLIR: mlir-opt-22 reads it.
// A chunk's first line names its case; `scope:` is the op its DLTI is on.

// case: graph-compiler's host spec, sizes written as strings; scope: /
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = "49152",
    "L2_cache_size_in_bytes" = "2097152", "L3_cache_size_in_bytes" = "110100480",
    "num_threads" = "56", "max_vector_width" = "512">>} {
  func.func @matmul(%a: memref<128x128xf32>) {
    return
  }
}

// -----

// case: graph-compiler's Python tooling, integers of several types; scope: /
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 49152 : ui32,
    "L2_cache_size_in_bytes" = 2097152 : ui64, "L3_cache_size_in_bytes" = 110100480 : ui64,
    "num_threads" = 56 : i32, "max_vector_width" = 512 : i64>>} {
}

// -----

// case: graph-compiler's GPU passes, i32 values and a GPU of their keys; scope: /
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "CPU" = #dlti.target_device_spec<"max_vector_op_width" = 512 : i32>,
  "GPU" = #dlti.target_device_spec<"num_exec_units" = 448 : i32,
    "num_exec_units_per_slice" = 32 : i32, "num_threads_per_eu" = 8 : i32,
    "L1_cache_size_in_bytes" = 67108864 : i32, "max_vector_op_width" = 256 : i32,
    "max_work_group_size" = 1024 : i32>>} {
}

// -----

// case: values of another type than sysdesc's schema; scope: /
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "GPU" = #dlti.target_device_spec<"device_type" = "GPU", "max_clock_in_mhz" = 1.98,
    "is_partition" = "false", "subgroup_sizes" = 32, "compute_capability" = 9.0>>} {
}

// -----

// case: tpp-mlir, the system spec on the function it tunes; scope: entry
module {
  func.func @entry(%arg0: memref<8x32x32x32xbf16>) attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"tile_size" = 32 : i32, "L1_cache_size_in_bytes" = 32768 : i32>>} {
    return
  }
}

// -----

// case: a system spec on a kernel inside a nested module; scope: kernels/run
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  module @kernels {
    func.func @run() attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"num_threads" = 8 : i32>>} {
      return
    }
  }
}

// -----

// case: lighthouse's MPI facts, a #dlti.map of its own name; scope: /
module attributes {mpi.dlti = #dlti.map<"MPI:Implementation" = "MPICH", "MPI:comm_world_size" = 4 : i32, "MPI:comm_world_rank" = 1 : i32>} {
  func.func @step(%arg0: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {llvm.emit_c_interface} {
    return %arg0 : tensor<64x64xf32>
  }
}

// -----

// case: the MPI dialect's implementation choice; scope: /
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
}

// -----

// case: a front end's module, a data layout alone; scope: /
module @"kernel.c" attributes {dlti.dl_spec = #dlti.dl_spec<i64 = dense<64> : vector<2xi64>, f80 = dense<128> : vector<2xi64>, !llvm.ptr = dense<64> : vector<4xi64>, "dlti.endianness" = "little", "dlti.stack_alignment" = 128 : i64>, llvm.target_triple = "x86_64-unknown-linux-gnu"} {
}

// -----

// case: a GPU pipeline, the data layout on its gpu.module; scope: kernels
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {dlti.dl_spec = #dlti.dl_spec<!llvm.ptr<3> = dense<32> : vector<4xi64>, i64 = dense<64> : vector<2xi64>, "dlti.endianness" = "little">} {
  }
}

// -----

// case: arrays of device specs under a name of the user's; scope: /
module attributes {acme.devices = [#dlti.target_device_spec<"device_type" = "GPU", "arch" = "sm_90", "warp_size" = 32 : i64>, #dlti.target_device_spec<"device_type" = "GPU", "arch" = "gfx942", "warp_size" = 64 : i64, "lds_bytes" = 65536 : i64>]} {
}

// -----

// case: a system spec on the module and a map of tuning facts on a function; scope: /
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"max_vector_op_width" = 256 : i64>>} {
  func.func @gemm() attributes {acme.tuning = #dlti.map<"unroll" = 4 : i32>} {
    return
  }
}

// -----

// case: two functions, each with a system spec of its own; scope: (several) gemm conv
module {
  func.func @gemm() attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"tile" = 64 : i32>>} {
    return
  }
  func.func @conv() attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"tile" = 16 : i32>>} {
    return
  }
}

// -----

// case: a map on an op in the generic form, which has no symbol; scope: (unnamed)
"acme.region"() ({
  "acme.yield"() : () -> ()
}) {acme.facts = #dlti.map<"lanes" = 16 : i64, "cache" = #dlti.map<"L1" = 32768 : i64>>} : () -> ()
