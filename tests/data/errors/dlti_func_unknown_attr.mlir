module {
  func.func private @f() attributes {dlti.foo = #dlti.map<"a" = 1>}
}
