// No top-level module: MLIR wraps these ops in an implicit one.
#map = affine_map<(d0) -> (d0 + 1)>
func.func @f(%i: index) -> index {
  %0 = affine.apply #map(%i)
  return %0 : index
}
llvm.func @g() attributes {passthrough = ["nounwind"]} {
  llvm.return
}
