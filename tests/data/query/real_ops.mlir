// A module as compiler drivers hold it: functions, a GPU module, LLVM ops,
// strings with braces, regions; DLTI on the top module and on nested ones.
module @top attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 32768 : i32,
                                      "cache" = #dlti.map<"L2" = 1048576>>,
    "GPU" = #dlti.target_device_spec<"max_shared_memory_per_block" = 49152>>,
    gpu.container_module} {
  func.func @add(%arg0: i32, %arg1: i32, %true: i1) -> i32 attributes {llvm.emit_c_interface} {
    %0 = arith.addi %arg0, %arg1 : i32
    %1 = scf.if %true -> (i32) {
      scf.yield %0 : i32
    } else {
      scf.yield %arg1 : i32
    }
    return %1 : i32
  }
  llvm.mlir.global internal constant @text("a } { \22 module // {")
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  "func.func"() <{function_type = () -> (), sym_name = "generic", sym_visibility = "private"}> ({
  }) : () -> ()
  module @inner attributes {dlti.map = #dlti.map<"CPU" = #dlti.map<"L1_cache_size_in_bytes" = 1024 : i32>>} {
    llvm.func @g() -> i32 {
      %0 = llvm.mlir.constant(1 : i32) : i32
      llvm.return %0 : i32
    }
    module @deepest {
      func.func private @h(tensor<?x?xf32>) -> tensor<?x?xf32>
    }
  }
}
