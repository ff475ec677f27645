#!/bin/sh
# Clusters (docs/benchmarks.md): N synthetic nodes of three kinds
# (tests/probe/gen_nodes.py) through `sysdesc probe --xml`:
#  - CPU time against hwloc loading the same files alone (cluster-bench);
#  - the process's max RSS for 100 and 1,000 nodes (GNU time), median of
#    REPEATS runs; with BEFORE=/path/to/older/sysdesc also the older tool's
#    (the copies model: node<i>.CPU, ... for every node).
#   sh bench/cluster_bench.sh [BUILDDIR] [REPEATS]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
repeats=${2:-5}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
rss() { # TOOL LIST -> median max RSS in KiB
    i=0
    while [ $i -lt "$repeats" ]; do
        # shellcheck disable=SC2046
        /usr/bin/time -f %M -o "$t/rss" "$1" probe -q --no-catalog $(sed 's/^/--xml /' "$2") -o "$t/out.mlir"
        cat "$t/rss"
        i=$((i + 1))
    done | median
}
for n in 100 1000; do
    python3 "$src/tests/probe/gen_nodes.py" "$src" "$t/n$n" "$n" | awk '{print $3}' >"$t/n$n.list"
done
for n in 100 1000; do
    echo "== $n nodes, 3 classes"
    "$build/bench/cluster-bench" "$t/n$n.list" "$repeats"
    echo "  max RSS of sysdesc probe --xml x$n: $(rss "$build/cli/sysdesc" "$t/n$n.list") KiB (median of $repeats)"
    if [ -n "${BEFORE:-}" ]; then
        echo "  max RSS of $BEFORE (copies): $(rss "$BEFORE" "$t/n$n.list") KiB"
    fi
    "$build/cli/sysdesc" probe -q --no-catalog $(sed 's/^/--xml /' "$t/n$n.list") -o "$t/out.mlir"
    echo "  spec: $(wc -c <"$t/out.mlir") bytes, $("$build/cli/sysdesc" query "$t/out.mlir" cluster num_classes) classes"
done
