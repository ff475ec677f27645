module attributes {x.a = #dlti.map<
