// sysdesc-error: 3:35: a DLTI attribute outside the attribute dictionary of operation 'func.func': sysdesc reads the DLTI attributes of an op's attribute dictionary only
module {
  func.func private @f(i32 {x.y = #dlti.map<"a" = 1>})
}
