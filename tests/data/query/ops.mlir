// DLTI attributes on ops other than modules (issue 14): MLIR 22's query
// takes the first queryable attribute, in name order, of the nearest op
// that has one, whatever the op and the attribute's name.
module @top attributes {gpu.container_module, dlti.map = #dlti.map<"CPU" = 1 : i32, "GPU" = 2 : i32, "shared" = 100 : i32>} {
  func.func @f(%arg0: i32 {llvm.signext}) -> (i32 {llvm.zeroext}) attributes {test.dlti = #dlti.map<"CPU" = 10 : i32, "nested" = #dlti.map<"x" = 11 : i32>>} {
    %0 = arith.addi %arg0, %arg0 : i32
    %c = arith.cmpi eq, %0, %arg0 : i32
    "test.op"() {sym_name = "in_f", test.dlti = #dlti.map<"CPU" = 12 : i32>} : () -> ()
    %1 = scf.if %c -> (i32) { scf.yield %0 : i32 } else { scf.yield %arg0 : i32 }
    return %1 : i32
  }
  // MLIR head's inherent form: mlir-opt-22 keeps it as a discardable attribute.
  func.func @g() attributes {dlti = #dlti.map<"CPU" = 20 : i32>} {
    cf.br ^bb1
  ^bb1:
    "test.op"() {sym_name = "after_block", zz = #dlti.map<"CPU" = 21 : i32>} : () -> ()
    return
  }
  // Two queryable attributes: MLIR 22 reads the first in name order.
  func.func private @two() attributes {aa = #dlti.map<"CPU" = 30 : i32>, zz = #dlti.map<"only_zz" = 31 : i32>}
  func.func private @decl(i32) -> i32 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 4096 : i32>>}
  llvm.mlir.global internal constant @text("a } { \22 #dlti.map<> // {")
  gpu.module @kernels attributes {test.dlti = #dlti.map<"GPU" = 7 : i32>} {
    gpu.func @k(%a: memref<4xf32>) kernel attributes {dlti.map = #dlti.map<"K" = 3 : i32>} {
      gpu.return
    }
    gpu.func @plain(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  llvm.func @lf(%arg0: i32) -> i32 attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 5 : i32>>, passthrough = ["nounwind"]} {
    llvm.return %arg0 : i32
  }
  "test.gen"() <{sym_name = "gen", test.dlti = #dlti.map<"P" = 4 : i32>}> ({
  ^bb0:
    "test.inner"() {sym_name = "inner", zzz = #dlti.map<"I" = 9 : i32>} : () -> ()
  }, {
    %2 = "test.second"() {sym_name = "second", test.dlti = #dlti.map<"S" = 6 : i32>} : () -> i32
  }) {test.dlti2 = #dlti.map<"A" = 8 : i32>} : () -> ()
  "test.gen2"() {sym_name = "gen2", test.dlti = #dlti.map<"A" = 8 : i32>} : () -> () loc("here")
  // MLIR head's inherent `dlti` as a property: mlir-opt-22 does not see it.
  "x.prop"() <{dlti = #dlti.map<"D" = 1 : i32>, sym_name = "prop"}> : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "generic_f"}> ({
    "func.return"() : () -> ()
  }) {test.dlti = #dlti.map<"CPU" = 40 : i32>} : () -> ()
}
