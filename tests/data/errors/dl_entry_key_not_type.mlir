module attributes { test.hints = #dlti.map<#dlti.dl_entry<1.5, "x">> } {}
