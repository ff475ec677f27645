module @a attributes {x.y = 1} {
  module @b {
  }
 module attributes {dlti.map = #dlti.map<"a" = 1>} {} module @"q r" {}
}
