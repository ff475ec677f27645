#!/bin/sh
# Runs the Python module's pytest suite against the build tree
# (PYTHONPATH=BUILD/python).  Exit 77 (skipped) when the module was not built
# (no python3-dev) or pytest is missing.
set -u
: "${BUILDDIR:?}" "${SRCDIR:?}" "${PYTHON:=/usr/bin/python3}"
if ! ls "$BUILDDIR"/python/sysdesc/_sysdesc*.so >/dev/null 2>&1; then
    echo "skip: the Python module was not built (-Dpython, python3-dev)"; exit 77
fi
if ! "$PYTHON" -c 'import pytest' 2>/dev/null; then
    echo "skip: $PYTHON has no pytest (python3-pytest)"; exit 77
fi
export PYTHONPATH="$BUILDDIR/python" PYTHONDONTWRITEBYTECODE=1
cd "$SRCDIR/tests/python" || exit 1
exec "$PYTHON" -m pytest -q -p no:cacheprovider "$@" .
