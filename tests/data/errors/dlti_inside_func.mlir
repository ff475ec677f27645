// sysdesc-error: 3:42: a DLTI attribute inside operation 'func.func', which sysdesc does not model: sysdesc reads DLTI attributes on 'module' ops only
module {
  func.func private @f() attributes {x = #dlti.map<"a" = 1>}
}
