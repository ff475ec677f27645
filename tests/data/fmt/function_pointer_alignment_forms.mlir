module attributes {dlti.dl_spec = #dlti.dl_spec<"dlti.function_pointer_alignment" = #dlti.function_pointer_alignment< 0x20 ,function_dependent=1 >>} {}
