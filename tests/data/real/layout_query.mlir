// Data layout queries in a function (mlir-opt-22 --test-data-layout-query
// answers them from the module's dlti.dl_spec once attach has put it there).
module attributes {gpu.container_module} {
  func.func @q() {
    %0 = "test.data_layout_query"() : () -> i32
    %1 = "test.data_layout_query"() : () -> !llvm.ptr
    %2 = "test.data_layout_query"() : () -> index
    %3 = "test.data_layout_query"() : () -> f128
    %4 = "test.data_layout_query"() : () -> vector<3xf32>
    return
  }
}
