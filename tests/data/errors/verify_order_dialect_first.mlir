module attributes {b = 1, a = 1, dlti.unknown = 2} {}
