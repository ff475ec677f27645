#!/bin/sh
# Runs one target under AFL++ for SECONDS and prints its figures.
#   sh fuzz/afl/run.sh TARGET SECONDS [BUILD_DIR]     TARGET: mlir | yaml | formats | dl ...
# Seeds: fuzz/corpus/TARGET (and the libFuzzer corpus build-fuzz/corpus-TARGET
# when there is one).  Output: BUILD_DIR/afl-TARGET/ (AFL's queue, crashes,
# hangs, fuzzer_stats); crashes are replayed with the libFuzzer build to
# triage them (ASan), then minimised under fuzz/regressions/TARGET/.
set -eu
target=$1 secs=$2 build=${3:-build-afl}
cd "$(dirname "$0")/../.."
sh fuzz/afl/build.sh "$build" >/dev/null
out="$build/afl-$target"
seeds="$build/seeds-$target"
rm -rf "$seeds"
mkdir -p "$seeds"
# AFL wants small seeds: skip the large ones (it trims, but slowly).
for f in fuzz/corpus/"$target"/* build-fuzz/corpus-"$target"/*; do
    [ -f "$f" ] || continue
    [ "$(wc -c <"$f")" -le 16384 ] && cp "$f" "$seeds/" 2>/dev/null || true
done
dict=""
case $target in
yaml) dict="-x fuzz/yaml.dict" ;;
dl) dict="-x fuzz/dl.dict" ;;
*) dict="-x fuzz/mlir.dict" ;;
esac
# -V: stop after SECONDS; -t: 1 s per input; -m none: the limits are ours.
# A previous run's output is resumed from (-i -) when it exists.
input="-i $seeds"
[ -f "$out/default/fuzzer_stats" ] && input="-i -"
# shellcheck disable=SC2086
AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 \
    AFL_SKIP_CRASHES=1 UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1 \
    afl-fuzz $input -o "$out" -V "$secs" -t 1000 -m none $dict -- "$build/fuzz/fuzz_$target" \
    >"$build/afl-$target.log" 2>&1 || true
stats="$out/default/fuzzer_stats"
[ -f "$stats" ] || { echo "afl-fuzz did not start; see $build/afl-$target.log" >&2; tail -20 "$build/afl-$target.log" >&2; exit 1; }
grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|bitmap_cvg|edges_found|total_edges|saved_crashes|saved_hangs|unique_crashes|unique_hangs) ' "$stats"
