module attributes {x.a = unknownword} {}
