module attributes { dlti.dl_spec = #dlti.dl_spec<"mycorp.vector_bits" = 64> } {
  "test.op_with_data_layout"() ({
    "test.op_with_data_layout"() { dlti.dl_spec = #dlti.dl_spec<"mycorp.vector_bits" = 32> } : () -> ()
    "test.maybe_terminator_op"() : () -> ()
  }) { dlti.dl_spec = #dlti.dl_spec<"mycorp.vector_bits" = 64> } : () -> ()
}
