// sysdesc-error: 2:28: invalid UTF-8 in string literal
module attributes {x.a = "aÿ"} {}
