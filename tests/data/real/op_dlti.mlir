// DLTI on ops other than modules (issue 14): functions, a GPU module and
// kernel, an LLVM function, generic ops with properties and regions.
module @app attributes {gpu.container_module} {
  func.func @matmul(%a: memref<4x4xf32>, %b: memref<4x4xf32>) attributes {test.dlti = #dlti.map<"tile" = 64 : i32>, llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    "test.hint"() {sym_name = "hint", test.dlti = #dlti.map<"tile" = 32 : i32>} : () -> ()
    return
  }
  func.func private @head_form() attributes {dlti = #dlti.map<"tile" = 16 : i32>}
  gpu.module @kernels attributes {dlti.map = #dlti.map<"warp" = 32 : i32>} {
    gpu.func @k(%m: memref<4xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>, test.dlti = #dlti.map<"unroll" = 4 : i32>} {
      gpu.return
    }
  }
  llvm.func @lf() attributes {test.dlti = #dlti.map<"vector" = 8 : i32>} {
    llvm.return
  }
  "test.region"() <{sym_name = "region"}> ({
  ^bb0(%x: i32):
    "test.inner"() {sym_name = "inner", test.dlti = #dlti.map<"depth" = 2 : i32>} : () -> ()
  }) {test.dlti = #dlti.map<"depth" = 1 : i32>} : () -> ()
}
