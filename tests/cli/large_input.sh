#!/bin/sh
# Large inputs (docs/reliability.md): `sysdesc fmt` of a 100 MB spec (one
# #dlti.map with ~3.6 million entries and one entry nested 990 deep) takes
# linear time (the 100 MB run within 6x the 25 MB run) and bounded memory
# (max RSS below 12x the input, when /usr/bin/time is there); bulk deep
# nesting (990 levels, under the limit of 1000) is linear in the input size;
# `sysdesc check` and `convert` of descriptions with 40 problems a device
# are linear in the devices (hints and locations cost per problem, not per
# problem and device), and so are `summary` of distinct devices and `check`
# of a cluster of many classes.
#
# Time is the process's CPU time (user + system, from GNU time; wall time
# without it): wall time also counts waiting for a CPU, and on a 2-core
# machine that runs other tests and builds beside this one, that wait is
# most of the noise.  System time stays in: faulting in and zeroing pages is
# work that grows with the input (and a quadratic buffer growth would show
# there).  The small input is timed twice and its faster run kept, so
# that one quick run cannot make the bound tighter or looser by chance; a
# large run over the bound is timed once more and its faster run kept, so
# that a burst of load elsewhere (a big run takes seconds) does not fail the
# test, while a run that is really not linear fails both times.  The bound
# is 1.5x the ratio of the bytes.
# Environment: SYSDESC, SRCDIR; SYSDESC_LARGE_MB (default 100) scales the
# large inputs (the huge map is compared with a quarter of it, the deep
# inputs with a tenth).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
MB=${SYSDESC_LARGE_MB:-100}
T=$(mktemp -d "${TMPDIR:-/tmp}/sysdesc-large.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; head -c 600 "$T/err" 2>/dev/null; }
note() { echo "note: $*"; }

# Milliseconds since the epoch (GNU date), else seconds * 1000.
now_ms() {
    n=$(date +%s%N 2>/dev/null)
    case $n in
    *[!0-9]* | "") echo $(($(date +%s) * 1000)) ;;
    *) echo $((n / 1000000)) ;;
    esac
}

TIME=
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o "$T/probe" true 2>/dev/null; then
    TIME=/usr/bin/time
else
    note "no GNU /usr/bin/time: memory checks skipped"
fi
SANITIZED=0
if grep -aq __asan_init "$SYSDESC" 2>/dev/null; then
    SANITIZED=1
    note "AddressSanitizer build: shadow memory inflates RSS, memory checks skipped"
    # and the time ratios hold at any size: a quarter of the inputs
    MB=${SYSDESC_LARGE_MB:-25}
fi

# run_fmt FILE: sysdesc $RUN FILE >$T/out ($RUN: fmt unless set); sets rc,
# ms (CPU time, user + system, with GNU time; elapsed time without) and kb
# (max RSS or 0).
RUN=fmt WANT_RC=0
run_fmt() {
    t0=$(now_ms)
    if [ -n "$TIME" ]; then
        $TIME -f '%U %S %M' -o "$T/rss" "$SYSDESC" $RUN "$1" >"$T/out" 2>"$T/err"
        rc=$?
        set -- $(tail -n 1 "$T/rss")
        kb=$3
        ms=$(awk -v u="$1" -v s="$2" 'BEGIN { printf "%d", (u + s) * 1000 + 0.5 }')
    else
        "$SYSDESC" $RUN "$1" >"$T/out" 2>"$T/err"
        rc=$?
        kb=0
        ms=$(($(now_ms) - t0))
    fi
}

# gen_map BYTES FILE: a module whose dlti.map holds "keyN" = N : i64 entries up
# to BYTES, one entry nested 990 deep, and a last entry "last".
gen_map() {
    awk -v target="$1" 'BEGIN {
        printf "module attributes {dlti.map = #dlti.map<\"deep\" = "
        for (i = 0; i < 990; i++) printf "#dlti.map<\"a\" = "
        printf "1"
        for (i = 0; i < 990; i++) printf ">"
        n = 0
        for (i = 0; n < target; i++) {
            s = sprintf(", \"key%d\" = %d : i64", i, i)
            n += length(s)
            printf "%s", s
        }
        printf ", \"last\" = 0 : i64>} {\n}\n"
    }' >"$2"
}

# gen_deep BYTES OPEN CORE CLOSE FILE: a module whose x.a is an array of
# 990-deep OPEN...CORE...CLOSE nests, BYTES in all.
gen_deep() {
    awk -v target="$1" -v open="$2" -v core="$3" -v cl="$4" 'BEGIN {
        one = ""
        for (i = 0; i < 990; i++) one = one open
        one = one core
        for (i = 0; i < 990; i++) one = one cl
        printf "module attributes {x.a = [%s", one
        for (n = length(one); n < target; n += length(one) + 2) printf ", %s", one
        printf "]} {\n}\n"
    }' >"$5"
}

# linear NAME SMALL LARGE FACTOR: fmt both files (LARGE is FACTOR times the
# bytes of SMALL); the large one must take at most 1.5 x FACTOR the time of
# the small one (half again for caches that the larger input outgrows, and
# noise); sets big_kb.  Fastest of two small runs; a large run over the
# bound gets a second try (see the top).
linear() {
    name=$1 factor=$4
    small_ms=
    for try in 1 2 3; do
        run_fmt "$2"
        small_rc=$rc
        [ "$small_rc" -eq "$WANT_RC" ] || break
        if [ -z "$small_ms" ] || [ "$ms" -lt "$small_ms" ]; then small_ms=$ms; fi
    done
    run_fmt "$3"
    big_rc=$rc big_ms=$ms big_kb=$kb
    if [ "$small_rc" -ne "$WANT_RC" ] || [ "$big_rc" -ne "$WANT_RC" ]; then
        bad "$name: exit $small_rc / $big_rc"
        return
    fi
    ok
    # The best of three (a busy machine only ever adds time); a base of at
    # least 100 ms, as a smaller one is mostly the process's start.
    base=$small_ms
    [ "$base" -ge 100 ] || base=100
    limit=$((base * factor * 3 / 2))
    in_small=$(wc -c <"$2")
    in_big=$(wc -c <"$3")
    tries=1
    while [ "$big_ms" -gt "$limit" ] && [ "$tries" -lt 3 ]; do
        first_ms=$big_ms
        run_fmt "$3"
        tries=$((tries + 1))
        [ "$rc" -ne "$WANT_RC" ] || [ "$ms" -ge "$big_ms" ] || big_ms=$ms
        note "$name: $in_big bytes took ${first_ms} ms, over ${limit} ms; try $tries ${ms} ms"
    done
    ratio=$(awk -v a="$big_ms" -v b="$base" 'BEGIN { printf "%.1f", a / b }')
    echo "$name: $in_small bytes in ${small_ms} ms, $in_big bytes in ${big_ms} ms (ratio $ratio for ${factor}x the bytes, limit $((factor * 3 / 2))x; max RSS ${big_kb} KB)"
    if [ "$big_ms" -le "$limit" ]; then ok; else
        bad "$name: $in_big bytes took ${big_ms} ms ($tries tries), more than $((factor * 3 / 2))x the ${small_ms} ms of $in_small bytes"
    fi
}

# ---- one huge #dlti.map (~3.6 million entries at 100 MB) ----
# Against a quarter of it, not a tenth: the string-key table of a 10 MB map
# (8 MB) stays in a 32 MB cache and the 100 MB map's (64 MB) does not, so
# every key of the large one costs a memory access the small one does not
# pay; at 25 MB (16 MB of table) that step is mostly behind both.  CPU time
# per MB on a 2-core EPYC VM: 13 ms at 10 MB, 15 ms at 25 MB, 17 ms at
# 100 MB.  A quadratic cost is still 16x where 6x is allowed.
gen_map $((MB * 1048576 / 4)) "$T/small.mlir"
gen_map $((MB * 1048576)) "$T/big.mlir"
linear "huge #dlti.map" "$T/small.mlir" "$T/big.mlir" 4
insize=$(wc -c <"$T/big.mlir")
outsize=$(wc -c <"$T/out")
if [ "$outsize" -ge $((insize * 9 / 10)) ] && tail -c 40 "$T/out" | grep -q '"last" = 0 : i64>} {'; then ok; else
    bad "huge #dlti.map: printed $outsize bytes of a $insize-byte input, or the end is missing"
fi
if [ -n "$TIME" ] && [ "$SANITIZED" = 0 ]; then
    if [ "$big_kb" -le $((insize / 1024 * 12)) ]; then ok; else
        bad "huge #dlti.map: max RSS ${big_kb} KB, more than 12x the $insize-byte input"
    fi
fi
rm -f "$T/small.mlir" "$T/big.mlir" "$T/out"

# ---- bulk nesting 990 deep (the limit is 1000) ----
gen_deep $((MB * 1048576 / 100)) '{a = ' '1' '}' "$T/small.mlir"
gen_deep $((MB * 1048576 / 10)) '{a = ' '1' '}' "$T/big.mlir"
linear "990-deep dictionaries" "$T/small.mlir" "$T/big.mlir" 10
gen_deep $((MB * 1048576 / 100)) '[' '1' ']' "$T/small.mlir"
gen_deep $((MB * 1048576 / 10)) '[' '1' ']' "$T/big.mlir"
linear "990-deep arrays" "$T/small.mlir" "$T/big.mlir" 10
# #dlti.map bodies are pre-scanned for bracket balance at every level (as
# MLIR does), so deep maps cost O(bytes x depth): linear in the bytes at a
# fixed depth, ~1 s/MB at depth 990 (docs/reliability.md); kept small here.
gen_deep $((MB * 1048576 / 200)) '#dlti.map<"a" = ' '1' '>' "$T/small.mlir"
gen_deep $((MB * 1048576 / 20)) '#dlti.map<"a" = ' '1' '>' "$T/big.mlir"
linear "990-deep #dlti.maps" "$T/small.mlir" "$T/big.mlir" 10
rm -f "$T/small.mlir" "$T/big.mlir" "$T/out"

# ---- many problems: hints and locations cost per problem ----
# 40 misspelled keys a device (each gets a "did you mean" hint and its
# FILE:LINE:COL): 1,000 devices against 4,000.  `check` prints them all;
# `convert --strict` (unknown keys fail it) shows the first and counts the
# rest (no hint made for those).
gen_problems() {
    awk -v n="$1" 'BEGIN {
        for (i = 0; i < n; i++) {
            printf "D%d:\n  device_type: GPU\n", i
            for (k = 0; k < 40; k++) printf "  num_compute_unit%d: %d\n", k, k
        }
    }' >"$2"
}
gen_problems $((MB * 10)) "$T/small.yaml"
gen_problems $((MB * 40)) "$T/big.yaml"
RUN=check WANT_RC=2
linear "check, 40 problems a device" "$T/small.yaml" "$T/big.yaml" 4
if [ "$(grep -c 'did you mean' "$T/err")" = $((MB * 40 * 40)) ]; then ok; else
    bad "check: $(grep -c 'did you mean' "$T/err") hints for $((MB * 40 * 40)) problems"
fi
RUN="convert --strict --to mlir"
linear "convert, 40 problems a device" "$T/small.yaml" "$T/big.yaml" 4
if grep -q "big.yaml:3:3: error: unknown key 'num_compute_unit0' in 'D0'; did you mean 'num_compute_units'? (and $((MB * 40 * 40 - 1)) more problems" "$T/err"; then ok; else
    bad "convert: the first problem, whole, and the count: $(head -c 300 "$T/err")"
fi
RUN=fmt WANT_RC=0
rm -f "$T/small.yaml" "$T/big.yaml" "$T/out"

# ---- many distinct devices: summary groups them in one pass ----
# Each device its own block (nothing to group): 200 a MB of the scale
# against four times that (20,000 and 80,000 at the default scale; a
# comparison of each block with every one before it took 128 s at 100,000).
gen_devices() {
    awk -v n="$1" 'BEGIN {
        for (i = 0; i < n; i++)
            printf "D%d:\n  device_type: GPU\n  vendor: V\n  model: M%d\n  num_compute_units: %d\n", i, i, i + 1
    }' >"$2"
}
gen_devices $((MB * 200)) "$T/small.yaml"
gen_devices $((MB * 800)) "$T/big.yaml"
RUN=summary
linear "summary, distinct devices" "$T/small.yaml" "$T/big.yaml" 4
if [ "$(grep -c "^D[0-9]" "$T/out")" = $((MB * 800)) ]; then ok; else
    bad "summary: $(grep -c '^D[0-9]' "$T/out") blocks for $((MB * 800)) devices"
fi
RUN=fmt
rm -f "$T/small.yaml" "$T/big.yaml" "$T/out"

# ---- a cluster of many classes: check finds each class's devices at once ----
# One node a class: 100 classes a MB of the scale against four times that
# (a walk of every device for every class took 68 s at 50,000 classes).
gen_cluster() {
    awk -v n="$1" 'BEGIN {
        for (i = 0; i < n; i++) printf "c%d.CPU:\n  device_type: CPU\n  num_cores: 1\n", i
        printf "cluster:\n  device_type: cluster\n  num_nodes: %d\n  num_classes: %d\n  nodes:\n", n, n
        for (i = 0; i < n; i++) printf "    n%d: c%d\n", i, i
        printf "  classes:\n"
        for (i = 0; i < n; i++) printf "    c%d: [n%d]\n", i, i
    }' >"$2"
}
gen_cluster $((MB * 100)) "$T/small.yaml"
gen_cluster $((MB * 400)) "$T/big.yaml"
RUN=check
linear "check, a cluster of distinct classes" "$T/small.yaml" "$T/big.yaml" 4
RUN=fmt
rm -f "$T/small.yaml" "$T/big.yaml" "$T/out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
