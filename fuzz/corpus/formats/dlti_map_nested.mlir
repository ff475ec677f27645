module attributes {dlti.map = #dlti.map<"a" = 1, i32 = 2, !llvm.ptr<1> = 3, "b" = #dlti.map<>, "c" = [#dlti.map<"x" = 1>], "d" = #dlti.map<"e" = #dlti.map<"f" = "g">>>} {}
