module @outer {
  module @inner attributes {x.a = 1} {
    module {
    }
  }
  module @"odd name" {}
  builtin.module @bm {}
}
