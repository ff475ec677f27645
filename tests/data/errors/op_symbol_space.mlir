func.func @ f() attributes {test.d = #dlti.map<"a" = 1>} {
  return
}
