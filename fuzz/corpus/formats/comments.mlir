// leading comment
module // after op
  attributes // more
  { // in dict
    x.a = 1, // value
    x.b = "// not a comment"
  } { // body
  // inside
}
// trailing
