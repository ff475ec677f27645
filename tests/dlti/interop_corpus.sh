#!/bin/sh
# sysdesc against mlir-opt-22 / mlir-translate-22 on tests/data/corpus (see interop_corpus.py).
exec python3 "$SRCDIR/tests/dlti/interop_corpus.py" "$@"
