#!/bin/sh
# Runs sysdesc-bench and MLIR's own code (../shared/tools/mlir-peer) on the
# same inputs in one run and prints the ratios.
#   bench/compare.sh BUILD_DIR [PEER_BINARY]
# The peer is built if missing (needs libmlir-22-dev llvm-22-dev).
set -eu
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
peer=${2:-${TMPDIR:-/tmp}/mlir_peer}
if [ ! -x "$peer" ]; then
    src="$here/../../shared/tools/mlir-peer"
    [ -d "$src" ] || { echo "no mlir-peer sources at $src"; exit 77; }
    sh "$src/build.sh" "$peer"
fi
bench="$build/bench/sysdesc-bench"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_spec.py" small "$work/small.txt"
python3 "$here/gen_spec.py" big "$work/big.txt"
num() { sed -n "s/^$1: \([0-9.]*\) ns\/op.*/\1/p" | head -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }'; }
row() { # LABEL MLIR_NS SYSDESC_NS
    printf '%-44s %12s %12s %8s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"
}
printf '%-44s %12s %12s %8s\n' "ns/op (median of 5 batches)" "MLIR 22" "sysdesc" "speedup"
for spec in small big; do
    f="$work/$spec.txt"
    size=$(wc -c <"$f")
    if [ $spec = small ]; then it=20000 qit=1000000 key=CPU; else it=5 qit=200000 key=dev999; fi
    m=$("$peer" parse "$f" "$it"); s=$("$bench" parse "$f" "$it")
    row "parse $spec ($size B, warm/reused context)" "$(echo "$m" | num 'mlir parse')" "$(echo "$s" | num 'sysdesc parse')"
    row "parse $spec (new context each)" "$(echo "$m" | num 'mlir parse cold (new context each)')" "$(echo "$s" | num 'sysdesc parse cold (new context each)')"
    m=$("$peer" print "$f" "$it"); s=$("$bench" print "$f" "$it")
    row "print $spec" "$(echo "$m" | num 'mlir print')" "$(echo "$s" | num 'sysdesc print')"
    mq=$(if [ $spec = small ]; then echo 1000000; else echo 20000; fi)
    m=$("$peer" query "$f" "$mq" $key cache L1 size_in_bytes)
    s=$("$bench" query "$f" "$qit" $key cache L1 size_in_bytes)
    mn=$(echo "$m" | num 'mlir query')
    row "query $key cache L1 size_in_bytes, $spec: string keys" "$mn" "$(echo "$s" | num 'sysdesc query (string keys)')"
    row "query ..., $spec: resolved keys" "$mn" "$(echo "$s" | num 'sysdesc query (resolved keys)')"
done
