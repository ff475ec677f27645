// sysdesc-error: 4:1: only one top-level 'module' is supported
module {
}
module {
}
