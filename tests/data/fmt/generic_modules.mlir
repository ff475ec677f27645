// Modules in the generic form print in the custom form, as mlir-opt-22 prints them.
"builtin.module"() <{sym_name = "top"}> ({
  "builtin.module"() ({
  ^bb0:
  }) : () -> ()
  "builtin.module"() <{sym_name = "x"}> ({
  ^bb0:
  }) {dlti.map = #dlti.map<"b" = 2>, x.y} : () -> ()
}) {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"a" = 1 : i32>>} : () -> ()
