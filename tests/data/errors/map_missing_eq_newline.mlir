module attributes {x.a = #dlti.map<"a"
  // c
  1>} {}
