// The generic form of everything (mlir-opt-22 --mlir-print-op-generic),
// modules included: a named nested module carries DLTI of its own.
"builtin.module"() <{sym_name = "top"}> ({
  "func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "private"}> ({
  }) : () -> ()
  "builtin.module"() ({
  ^bb0:
  }) : () -> ()
  "builtin.module"() <{sym_name = "inner"}> ({
    "func.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
    ^bb0(%arg0: i32):
      "func.return"(%arg0) : (i32) -> ()
    }) : () -> ()
  }) {dlti.map = #dlti.map<"CPU" = #dlti.map<"L1_cache_size_in_bytes" = 1024 : i32>>} : () -> ()
}) : () -> ()
