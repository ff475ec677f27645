module attributes {dlti.map = #dlti.map<"" = 1>} {}
