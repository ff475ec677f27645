module {
  "test.tiling_hints"() { dlti.map = [16, 16] } : () -> ()
}
