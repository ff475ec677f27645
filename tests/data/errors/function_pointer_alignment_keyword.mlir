module attributes {dlti.dl_spec = #dlti.dl_spec<"dlti.function_pointer_alignment" = #dlti.function_pointer_alignment<32, function_d-ependent = true>>} {}
