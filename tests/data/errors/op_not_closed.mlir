// sysdesc-error: 3:3: operation 'func.func' is not closed: expected '}' before the end of the input
module {
  func.func @f() {
    return
