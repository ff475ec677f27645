#!/bin/sh
# Runs every query of tests/data/query/*.queries through `sysdesc query` and
# through mlir-opt-22's transform.dlti.query, and compares the answers.
exec python3 "$SRCDIR/tests/dlti/interop_query.py" "$@"
