module {
  func.func private @f() attributes { dlti.target_system_spec = #dlti.map<"CPU" = 1> }
}
