#!/bin/sh
# Compares `sysdesc layout` with mlir-opt-22 --test-data-layout-query (see interop_layout.py).
exec python3 "$SRCDIR/tests/dlti/interop_layout.py" "$@"
