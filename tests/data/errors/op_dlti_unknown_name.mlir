"test.kernel"() ({
  "test.body"() { dlti.target_spec } : () -> ()
}) : () -> ()
