module @m attributes {x.a = 1} {}
