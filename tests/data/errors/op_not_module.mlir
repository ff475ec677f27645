// sysdesc-error: 3:3: operation 'func.func' is not supported: sysdesc reads 'module' ops and their attributes only
module attributes {x.a = 1} {
  func.func @f() {
    return
  }
}
