// Alias definitions before the module are skipped (MLIR drops unused ones).
#map = affine_map<(d0) -> (d0 + 1)>
!t = vector<4xf32>
module attributes {x.a = 1} {
}
