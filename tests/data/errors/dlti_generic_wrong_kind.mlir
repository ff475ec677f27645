module {
  "func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "private"}> ({
  }) {dlti.map = #dlti.dl_spec<>} : () -> ()
}
