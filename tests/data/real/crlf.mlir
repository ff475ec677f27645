// CRLF line ends, a module with attributes, comments.
module @crlf attributes {test.flag, test.text = "a, b}"} { // trailing comment {
  func.func private @f() -> i32
  // }
}
