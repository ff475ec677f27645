// sysdesc-error: 2:32: dense arrays of integers wider than 64 bits are not supported
module attributes {x.a = array<i128: 1>} {}
