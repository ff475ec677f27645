module attributes {dlti.map = #dlti.map<i32 = 1, i32 = 2>} {}
