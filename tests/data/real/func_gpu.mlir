// Functions, a GPU module with a kernel, LLVM functions: the top module has
// other attributes already.
module attributes {gpu.container_module, llvm.data_layout = "e-m:e-i64:64"} {
  func.func @main(%arg0: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg0 : memref<4xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      %0 = gpu.thread_id x
      gpu.return
    }
  }
  llvm.func @puts(!llvm.ptr) -> i32
  llvm.mlir.global internal constant @msg("} not the end { \22module\22 \0A")
  // a comment with module @fake attributes {dlti.map = 1} {
}
