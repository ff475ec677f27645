// Generic-form ops with regions and attributes, a named module without an
// attribute dictionary, nested modules with DLTI of their own.
module @top {
  "test.region_op"() ({
  ^bb0(%x: i32):
    "test.inner"(%x) {text = "{{ }} ) ] >", nested = {a = [1, 2], b = "}"}} : (i32) -> ()
    "test.terminator"() : () -> ()
  }, {
    "test.other"() : () -> ()
  }) {cmp = affine_map<(d0) -> (d0 - 1)>, ty = vector<4xi1>} : () -> ()
  %0:2 = "test.two_results"() : () -> (i32, f32)
  module @inner attributes {dlti.map = #dlti.map<"CPU" = #dlti.map<"L1_cache_size_in_bytes" = 1024 : i32>>} {
    func.func private @decl(tensor<?x?xf32>) -> tensor<?x?xf32>
    module @deepest {
    }
  }
}
