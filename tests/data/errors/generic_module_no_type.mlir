"builtin.module"() ({
}) {x.y}
