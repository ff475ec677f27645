module attributes {x.a = 1,
 x.b = 2} {
}
