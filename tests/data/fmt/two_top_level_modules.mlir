// Two top-level modules: MLIR wraps them in an implicit module.
module {
}
module {
}
