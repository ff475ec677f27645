// sysdesc-error: 4:12: unbalanced ')' in operation 'func.func'
module {
  func.func @f() {
    return )
  }
}
