#!/bin/sh
# Runs one fuzz target for a while and prints libFuzzer's final stats.
#   fuzz/run.sh TARGET SECONDS [BUILD_DIR]      TARGET: mlir | type | query | ...
# Builds BUILD_DIR (default build-fuzz) with clang if needed.  New inputs go
# to BUILD_DIR/corpus-TARGET; crashes to BUILD_DIR/crash-TARGET-*: minimise
# them and commit them under fuzz/regressions/TARGET/ with the fix.
set -eu
target=$1 secs=$2 build=${3:-build-fuzz}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."
if [ ! -d "$build" ]; then
    CC=clang meson setup "$build" -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false -Dwerror=false >/dev/null
fi
ninja -C "$build" "fuzz/fuzz_$target" >/dev/null
work="$build/corpus-$target"
mkdir -p "$work"
dict=""
[ -f "fuzz/$target.dict" ] && dict="-dict=fuzz/$target.dict"
[ "$target" = type ] && dict="-dict=fuzz/mlir.dict"
[ "$target" = query ] && dict="-dict=fuzz/mlir.dict"
[ "$target" = layout ] && dict="-dict=fuzz/mlir.dict"
# Undefined behaviour is a crash too, not a report to scroll past.
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$build/fuzz/fuzz_$target" $dict -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$build/crash-$target-" \
    "$work" "fuzz/corpus/$target" >"$build/fuzz-$target.log" 2>&1 || true
# The last status line (executions, edge coverage, features) and the stats.
grep -E '^#[0-9]+' "$build/fuzz-$target.log" | tail -n 1
grep -E '^stat::|^(==[0-9]+==)?ERROR|^SUMMARY|artifact' "$build/fuzz-$target.log" || true
