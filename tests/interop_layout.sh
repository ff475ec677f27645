#!/bin/sh
# Compares `sysdesc layout` with mlir-opt-22 --test-data-layout-query (see interop_layout.py).
exec python3 "$SRCDIR/tests/interop_layout.py" "$@"
