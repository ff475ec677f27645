// verdict: mlir-opt-22 rejects, sysdesc accepts
//   /tmp/tmp7zdwacrx/case.mlir:1:8: error: @ identifier expected to start with letter or '_'
//   module@ m {
//          ^
module@ m {

}