module attributes {dlti.unknown = 1} {}
