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
# A sanitized build (scripts/test-all's ASan+UBSan pass): the extension needs
# the sanitizer runtimes loaded first; CPython's own allocations at exit are
# not leaks of ours.
case ${SANITIZE:-none} in
*address*)
    preload=$(${CC:-cc} -print-file-name=libasan.so)
    case $SANITIZE in *undefined*) preload="$preload $(${CC:-cc} -print-file-name=libubsan.so)" ;; esac
    # last: a later option wins over scripts/test-all's detect_leaks=1
    export LD_PRELOAD="$preload" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;;
none) ;;
*) echo "skip: the module is not tested under -Db_sanitize=$SANITIZE"; exit 77 ;;
esac
cd "$SRCDIR/tests/python" || exit 1
[ $# -gt 0 ] || set -- .  # the arguments: pytest's (files, --ignore=FILE), else all
exec "$PYTHON" -m pytest -q -p no:cacheprovider --durations=8 "$@"
