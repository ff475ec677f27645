module attributes {x.a = #dlti.dl_entry<"a" 1>} {}
