module attributes {x.a = #dlti.map<"a" = 1,
   // comment
   > } {}
