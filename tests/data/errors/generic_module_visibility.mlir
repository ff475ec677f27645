// sysdesc-error: 2:38: property 'sym_visibility' of a generic 'builtin.module' is not supported
"builtin.module"() <{sym_name = "x", sym_visibility = "private"}> ({
}) : () -> ()
