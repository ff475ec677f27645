module attributes {dlti.map = #dlti.map<"a" = #dlti.dl_entry<"b", 1>, #dlti.dl_entry<"c", 2>, "d" = 3>} {}
