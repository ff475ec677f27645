"test.op_with_data_layout"() ({
  module attributes { dlti.dl_spec = #dlti.dl_spec<"mycorp.stack_bytes" = 4096 : i32> } {
  }
  "test.maybe_terminator_op"() : () -> ()
}) { dlti.dl_spec = #dlti.dl_spec<"mycorp.stack_bytes" = 8192 : i32> } : () -> ()
