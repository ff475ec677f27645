module attributes {} {
  func.func private @f()
}
