#!/bin/sh
# Prints every file of tests/data/fmt with `sysdesc fmt` and with mlir-opt-22:
# the outputs must be byte-identical, and mlir-opt-22 must accept ours.
# Every file of tests/data/errors must fail in both with the same
# LINE:COL: error: MESSAGE, unless the file's first line says
#   // sysdesc-error: LINE:COL: MESSAGE
# (a documented place where sysdesc is stricter or points elsewhere).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
MLIR_OPT=${MLIR_OPT:-mlir-opt-22}
if ! command -v "$MLIR_OPT" >/dev/null 2>&1; then
    echo "SKIP: $MLIR_OPT not found (apt-get install mlir-22-tools)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
# An empty or missing fixture folder is a failure, not a pass.
for d in fmt errors; do
    set -- "$SRCDIR"/tests/data/$d/*.mlir
    [ -e "$1" ] || { echo "FAIL: no tests/data/$d/*.mlir under $SRCDIR"; fail=$((fail+1)); }
done
for f in "$SRCDIR"/tests/data/fmt/*.mlir; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    "$MLIR_OPT" --allow-unregistered-dialect "$f" >"$tmp/ref" 2>"$tmp/ref.err" || {
        echo "FAIL $name: mlir-opt rejects the input:"; cat "$tmp/ref.err"; fail=$((fail+1)); continue; }
    if ! "$SYSDESC" fmt "$f" >"$tmp/out" 2>"$tmp/out.err"; then
        echo "FAIL $name: sysdesc fmt failed:"; cat "$tmp/out.err"; fail=$((fail+1)); continue
    fi
    if ! cmp -s "$tmp/ref" "$tmp/out"; then
        echo "FAIL $name: output differs from mlir-opt-22:"; diff "$tmp/ref" "$tmp/out" | head -20
        fail=$((fail+1)); continue
    fi
    if ! "$MLIR_OPT" --allow-unregistered-dialect "$tmp/out" >/dev/null 2>"$tmp/re.err"; then
        echo "FAIL $name: mlir-opt rejects sysdesc's output:"; cat "$tmp/re.err"; fail=$((fail+1)); continue
    fi
    pass=$((pass+1))
done
for f in "$SRCDIR"/tests/data/errors/*.mlir; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    if "$SYSDESC" fmt "$f" >/dev/null 2>"$tmp/out.err"; then
        echo "FAIL $name: sysdesc accepted invalid input"; fail=$((fail+1)); continue
    fi
    rc=0; "$SYSDESC" fmt "$f" >/dev/null 2>&1 || rc=$?
    if [ "$rc" -ne 2 ]; then
        echo "FAIL $name: exit status $rc, expected 2"; fail=$((fail+1)); continue
    fi
    got=$(head -n 1 "$tmp/out.err" | sed "s|^$f:||")
    want=$(head -n 1 "$f" | sed -n 's|^// sysdesc-error: ||p')
    if [ -z "$want" ]; then
        "$MLIR_OPT" "$f" >/dev/null 2>"$tmp/ref.err"
        want=$(grep -m 1 ': error: ' "$tmp/ref.err" | sed "s|^$f:||")
        [ -n "$want" ] || { echo "FAIL $name: mlir-opt accepted it; add a sysdesc-error line"; fail=$((fail+1)); continue; }
    else
        want=$(printf '%s' "$want" | sed 's|^\([0-9]*:[0-9]*\): |\1: error: |')
    fi
    if [ "$got" != "$want" ]; then
        echo "FAIL $name:"; echo "  sysdesc: $got"; echo "  wanted:  $want"; fail=$((fail+1)); continue
    fi
    pass=$((pass+1))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
