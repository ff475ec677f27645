module attributes {x.a = #dlti.map<1 = 2>} {}
