module {
  "test.op_with_data_layout"() { dlti.dl_spec = #dlti.dl_spec<!test.test_type = 8> } : () -> ()
}
