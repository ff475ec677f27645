// Ops that hold DLTI attributes in a custom syntax sysdesc does not read
// (linalg, scf), or in an argument's attributes: sysdesc steps over them,
// names them in a warning, and answers every scope around them as MLIR does.
module @top attributes {test.dlti = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"tile" = 64 : i32, "L1_cache_size_in_bytes" = 32768 : ui32>, "GPU" = #dlti.target_device_spec<"tile" = 128 : i32>>} {
  func.func @kernel(%A: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {test.dlti = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"tile" = 16 : i32>>} {
    %0 = linalg.matmul {test.dlti = #dlti.map<"tile" = 8 : i32>} ins(%A, %A : tensor<64x64xf32>, tensor<64x64xf32>) outs(%A : tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = scf.execute_region -> tensor<64x64xf32> {
      "test.annotated"() {sym_name = "deep", test.dlti = #dlti.map<"deep" = 1 : i32>} : () -> ()
      scf.yield %0 : tensor<64x64xf32>
    }
    return %1 : tensor<64x64xf32>
  }
  func.func private @ext(i32 {test.hint = #dlti.map<"reg" = 4 : i32>}) -> i32
  func.func private @after() attributes {test.dlti = #dlti.map<"after" = 3 : i32>}
}
