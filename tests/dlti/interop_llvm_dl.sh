#!/bin/sh
# Compares `sysdesc dl-import` with mlir-translate-22 --import-llvm (see interop_llvm_dl.py).
exec python3 "$SRCDIR/tests/dlti/interop_llvm_dl.py" "$@"
