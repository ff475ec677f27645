#!/bin/sh
# Whether a query's cost stays flat as the system spec grows: the same
# 4-key query (the last device's cache L1 size_in_bytes) on specs of N
# devices x 51 keys (gen_spec.py devices N), by string keys and by resolved
# keys, next to the two-device small spec.  Every map of more than 8
# entries is indexed, so from N = 9 on each step is one hash probe: the
# string-key column should not grow with N.
#   bench/query_scaling.sh [BUILD_DIR] [ITERS]
set -eu
build=${1:-build}
iters=${2:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
bench="$build/bench/sysdesc-bench"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
num() { sed -n "s/^$1: \([0-9.]*\) ns\/op.*/\1/p" | head -n 1; }
printf '%-28s %14s %14s\n' "spec (ns/op, median of 5)" "string keys" "resolved keys"
python3 "$here/gen_spec.py" small "$work/small.txt"
out=$("$bench" query "$work/small.txt" "$iters" CPU cache L1 size_in_bytes)
printf '%-28s %14s %14s\n' "small (2 devices)" "$(echo "$out" | num 'sysdesc query (string keys)')" \
    "$(echo "$out" | num 'sysdesc query (resolved keys)')"
for n in 9 100 1000 10000 50000; do
    python3 "$here/gen_spec.py" devices $n "$work/n.txt"
    out=$("$bench" query "$work/n.txt" "$iters" "dev$((n - 1))" cache L1 size_in_bytes)
    printf '%-28s %14s %14s\n' "$n devices x 51 keys" "$(echo "$out" | num 'sysdesc query (string keys)')" \
        "$(echo "$out" | num 'sysdesc query (resolved keys)')"
done
