module attributes {x.a = "héllo ü €", x.b = "😀"} {}
