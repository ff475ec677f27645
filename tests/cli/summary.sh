#!/bin/sh
# sysdesc summary: the lines it prints for a catalog GPU, a whole system
# (nodes/dgx-h100), a probed hwloc XML topology and this host; every line
# at most 80 columns (each catalog entry, long names, long lists); colour
# only when asked for or on a terminal; text from a spec cannot reach the
# terminal as control characters; the exit status of bad input and usage.
# Environment: SYSDESC (the tool), SRCDIR (the source tree).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
export SYSDESC_PATH="$SRCDIR/systems"
T=$(mktemp -d "${TMPDIR:-/tmp}/sysdesc-summary.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    sed 's/^/  stderr: /' "$T/err" 2>/dev/null | head -3
}

TIMES=$(printf '\303\227')    # ×
ELLIPSIS=$(printf '\342\200\246') # …
ESC=$(printf '\033')

# run WANT DESC ARGS...: `sysdesc summary ARGS` (with the environment
# settings of $RUN_ENV), stdout in $T/out (spaces squeezed in $T/sq), stderr
# in $T/err; the exit status must be WANT.
RUN_ENV=
run() {
    want=$1 desc=$2
    shift 2
    # shellcheck disable=SC2086 # RUN_ENV is zero or one NAME=VALUE word
    env ${RUN_ENV:-} "$SYSDESC" summary "$@" >"$T/out" 2>"$T/err" </dev/null
    rc=$?
    tr -s ' ' <"$T/out" >"$T/sq"
    if [ "$rc" -eq "$want" ]; then ok; else bad "$desc: exit $rc, expected $want"; fi
}

# has DESC LINE...: each LINE (spaces squeezed, "x" standing for ×) is a
# whole line of the output.
has() {
    desc=$1
    shift
    for l in "$@"; do
        l=$(printf '%s' "$l" | sed "s/ x / $TIMES /g")
        if grep -qxF -- "$l" "$T/sq"; then ok; else bad "$desc: no line '$l'"; sed 's/^/  out: /' "$T/out" | head -40; fi
    done
}

# lacks DESC TEXT...: no line contains TEXT.
lacks() {
    desc=$1
    shift
    for s in "$@"; do
        if grep -qF -- "$s" "$T/out"; then bad "$desc: '$s' is shown"; else ok; fi
    done
}

# width DESC: every line of $T/out fits 80 terminal columns (x and the
# ellipsis are one); other characters than ASCII as Python's unicodedata
# counts them (East Asian wide and fullwidth: 2, combining: 0).
width() {
    long=$(sed "s/$TIMES/x/g; s/$ELLIPSIS/./g" "$T/out" | LC_ALL=C awk 'length > 80 { print NR ": " $0 }')
    # other characters than ASCII, x and the ellipsis: count as a terminal does
    if sed "s/$TIMES/x/g; s/$ELLIPSIS/./g" "$T/out" | LC_ALL=C grep -q "$(printf '[\200-\377]')"; then
        long=$(python3 -c '
import sys, unicodedata
def cols(s):
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
for n, line in enumerate(open(sys.argv[1], encoding="utf-8").read().splitlines(), 1):
    if cols(line) > 80:
        print("%d: %d columns: %s" % (n, cols(line), line))' "$T/out")
    fi
    if [ -z "$long" ]; then ok; else bad "$1: lines over 80 columns:"; printf '%s\n' "$long" | head -5; fi
}

# aligned DESC: in each block, the values of the labelled lines start in
# one column.
aligned() {
    cols=$(awk '/^[^ ]/ { block++ } /^  [^ ]/ { s = substr($0, 3); if (match(s, /  +[^ ]/)) print block, 2 + RSTART + RLENGTH - 1 }' "$T/out" | sort -u | awk '{ print $1 }' | uniq -d)
    if [ -z "$cols" ]; then ok; else bad "$1: values not in one column in block(s) $cols"; fi
}


# ---- this host ----
# Its own part (`summary.sh host`, in the suites that read this host and
# load its PCI devices, which run again under a full unwind); the rest
# (`summary.sh files`) reads files only.
host_part() {
    run 0 "--host" --host --quiet
    grep -q '^CPU' "$T/out" && ok || bad "--host: no CPU block"
    grep -q '^  cores  .*[0-9] core' "$T/out" && ok || bad "--host: no cores line"
    width "--host"
    run 0 "--host --no-io --no-catalog" --host --no-io --no-catalog -q
    grep -q '^CPU' "$T/out" && ok || bad "--host --no-io: no CPU block"
}

finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}

PART=${1:-all}
case $PART in
host) host_part; finish ;;
files|all) ;;
*) echo "usage: summary.sh [host|files|all]" >&2; exit 99 ;;
esac

# ---- a catalog GPU: values of systems/nvidia/h100-sxm.yaml ----
run 0 "h100-sxm" nvidia/h100-sxm
has "h100-sxm" \
    "GPU NVIDIA H100 SXM5 80GB (GPU, sm_90)" \
    " compute units 132" \
    " memory 79.2 GiB" \
    " memory bandwidth 3.35 TB/s" \
    " max clock 1.98 GHz" \
    " TDP 700 W" \
    " L2 50 MiB" \
    " subgroup sizes 32" \
    " threads/block 1024" \
    " shared memory/block 48 KiB" \
    " opt-in shared/block 227 KiB" \
    " peak fp64 vector 33.5 TFLOP/s" \
    " fp16 matrix 989.4 TFLOP/s" \
    " fp8 matrix 1978.9 TFLOP/s" \
    " int8 matrix 1978.9 TOPS"
# the header exactly, two spaces between its parts
[ "$(head -n 1 "$T/out")" = "GPU  NVIDIA H100 SXM5 80GB  (GPU, sm_90)" ] && ok ||
    bad "h100-sxm: header is '$(head -n 1 "$T/out")'"
# keys without a summary label are not shown: registers, bus width, sparse peaks
lacks "h100-sxm" registers 5120 65536 3957.8 HBM3 9008 4318
[ "$(grep -c 'TFLOP/s\|TOPS' "$T/out")" -eq 10 ] && ok || bad "h100-sxm: not the 10 dense peaks"
aligned "h100-sxm"
width "h100-sxm"

# ---- a system: nodes/dgx-h100, 9 devices: a CPU and 8 identical GPUs ----
run 0 "dgx-h100" nodes/dgx-h100
headers=$(grep -c '^[^ ]' "$T/out")
[ "$headers" -eq 2 ] && ok || bad "dgx-h100: $headers blocks, expected 2 (the CPU, the 8 GPUs)"
[ "$(grep '^[^ ]' "$T/out" | awk '{ print $1 }' | tr '\n' ' ')" = "CPU GPU0..GPU7 " ] &&
    ok || bad "dgx-h100: ids $(grep '^[^ ]' "$T/out" | awk '{ print $1 }' | tr '\n' ' ')"
[ "$(grep -c '^$' "$T/out")" -eq 1 ] && ok || bad "dgx-h100: blocks not separated by one blank line"
has "dgx-h100" \
    "CPU GenuineIntel Intel(R) Xeon(R) Platinum 8480C (CPU, x86_64)" \
    " cores 2 packages, 112 cores x 2 threads" \
    "GPU0..GPU7 8 x NVIDIA H100 SXM5 80GB (GPU, sm_90)"
aligned "dgx-h100"
width "dgx-h100"
# The group's lines are those of one such GPU: the catalog entry's own.
sed -n '/^GPU0..GPU7/,$p' "$T/out" | tail -n +2 >"$T/group"
"$SYSDESC" summary nvidia/h100-sxm | tail -n +2 >"$T/one"
cmp -s "$T/group" "$T/one" && ok || bad "dgx-h100: the 8 GPUs' lines differ from nvidia/h100-sxm's"
# Alike devices far apart are one block at the first one's place; others
# keep theirs.
"$SYSDESC" compose A=nvidia/h100-sxm B=nvidia/l4 C=nvidia/h100-sxm "G=nvidia/l4:5" -o "$T/mixed.mlir" ||
    bad "compose of a mixed system failed"
run 0 "mixed" "$T/mixed.mlir"
[ "$(grep '^[^ ]' "$T/out" | awk '{ print $1 " " $2 }' | tr '\n' '|')" = "A, C|B, G0..G4|" ] &&
    ok || bad "mixed: blocks $(grep '^[^ ]' "$T/out" | tr '\n' '|')"
has "mixed" "A, C 2 x NVIDIA H100 SXM5 80GB (GPU, sm_90)"
grep -q "^B, G0..G4  6 $TIMES NVIDIA L4 " "$T/out" && ok || bad "mixed: B and G0..G4 are not one block of 6"

# ---- a probed topology (hwloc XML), through the probe's YAML ----
XML="$SRCDIR/tests/data/xml/two_socket_numa.xml"
if "$SYSDESC" probe --quiet --xml "$XML" --format yaml -o "$T/f.yaml" 2>"$T/err" &&
    "$SYSDESC" convert --to mlir -o "$T/f.mlir" "$T/f.yaml" 2>"$T/err"; then ok; else bad "probe --xml $XML"; fi
# The values the lines below show, as the spec holds them (KEY...=MLIR).
# shellcheck disable=SC2089,SC2090 # the quotes are MLIR's: "data" is a string
for q in "num_packages=2" "num_cores=8" "num_threads=16" "num_numa_nodes=2" \
    "cache L1 size_in_bytes=32768" "cache L1 num_instances=8" 'cache L1 type="data"' \
    "cache L2 size_in_bytes=4194304" "cache L2 num_instances=8" 'cache L2 type="unified"' \
    "cache L3 size_in_bytes=16777216" "cache L3 num_instances=2" \
    "memory total_in_bytes=2147483648" 'arch="aarch64"' 'hostname="node-b"'; do
    # shellcheck disable=SC2086
    got=$("$SYSDESC" query "$T/f.mlir" CPU ${q%%=*} 2>/dev/null | sed 's/ : i64$//')
    [ "$got" = "${q#*=}" ] && ok || bad "the probe's spec of $XML: CPU ${q%%=*} is '$got', this test expects ${q#*=}"
done
run 0 "two_socket_numa" "$T/f.yaml"
has "two_socket_numa" \
    "CPU (CPU, aarch64)" \
    " host node-b" \
    " cores 2 packages, 8 cores x 2 threads" \
    " NUMA nodes 2" \
    " cache L1d 32 KiB x 8" \
    " L2 4 MiB x 8" \
    " L3 16 MiB x 2" \
    " memory 2 GiB"
# the flat L<k>_cache_size_in_bytes keys are the cache lines' values: not repeated
[ "$(grep -c 'MiB\|KiB' "$T/out")" -eq 3 ] && ok || bad "two_socket_numa: cache sizes shown twice"
aligned "two_socket_numa"
width "two_socket_numa"
# every XML fixture with devices: fits 80 columns
for x in "$SRCDIR"/tests/data/xml/*.xml; do
    case $x in *malformed*) continue ;; esac
    "$SYSDESC" probe --quiet --xml "$x" --format yaml -o "$T/x.yaml" 2>/dev/null || continue
    run 0 "$(basename "$x")" "$T/x.yaml"
    width "$(basename "$x")"
done

# ---- wide characters count two columns, combining marks none ----
# a name of CJK characters is cut at 80 columns, not at 80 characters (159
# columns before)
cat >"$T/wide.yaml" <<'EOF'
G漢字:
  device_type: GPU
  vendor: 株式会社テスト株式会社テスト株式会社テスト
  model: 漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字
  num_compute_units: 4
  arch: "e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301"
EOF
"$SYSDESC" summary --no-check "$T/wide.yaml" >"$T/out" 2>"$T/err"
width "wide characters"
grep -q "漢字…" "$T/out" && ok || bad "wide characters: the model is not cut: $(head -n 1 "$T/out")"

# ---- every catalog entry fits 80 columns ----
n=0
for name in $("$SYSDESC" list | awk 'NR > 1 { print $1 }'); do
    run 0 "$name" "$name"
    width "$name"
    grep -q '^[^ ]' "$T/out" && ok || bad "$name: no header"
    n=$((n + 1))
done
[ "$n" -ge 10 ] && ok || bad "catalog: only $n entries summarised"

# ---- long names and lists, unknown keys, hostile text ----
# Odd on purpose (an FPGA, an L2 below the L1): shown unchecked, --no-check.
cat >"$T/long.yaml" <<'EOF'
VeryLongDeviceIdentifierThatGoesOnAndOnAndOn:
  device_type: GPU
  vendor: Some Vendor With A Very Long Name Incorporated
  model: "Model \e[31mRED\e[0m \x9b with an extremely long product name that keeps going past eighty columns"
  arch: gfx1234
  subgroup_sizes: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
  pci_bus_id: "a very long bus id string which surely does not fit within the columns left to it"
  num_compute_units: 7
  extra: {my_own_key: 12345}
CPU:
  device_type: CPU
  hostname: "host\ttab\nnewline\e]0;title\a"
  num_cores: 6
  num_threads: 16
  cache:
    L1: {size_in_bytes: 1572864, num_instances: 3, type: data}
    L2: {size_in_bytes: 1048576, type: unified}
  L1_cache_size_in_bytes: 1572864
  memory: {total_in_bytes: 1099511627776, cgroup_limit_in_bytes: 1000}
  max_frequency_mhz: 3450
EMPTY: {device_type: FPGA}
EOF
run 2 "long.yaml checked" "$T/long.yaml"
grep -q "is below the L1's (1572864): a level holds at least the one below it\$" "$T/err" && ok || bad "long.yaml: the check does not say why"
# A device type the schema does not know is a warning, not one of the problems.
grep -q "long.yaml:.*: warning: device 'EMPTY': unknown device_type 'FPGA' (CPU, GPU or ACCEL)" "$T/err" && ok ||
    bad "long.yaml: no warning for the unknown device type: $(cat "$T/err")"
run 0 "long.yaml" --no-check "$T/long.yaml"
width "long.yaml"
grep -q "^VeryLongDeviceIdentifierThatGoesOnAndOnAndOn  Some Vendor.*$ELLIPSIS  (GPU, gfx1234)\$" "$T/out" && ok ||
    bad "long.yaml: a long header is not cut with ... before (GPU, arch)"
grep -q " a very long bus id.*$ELLIPSIS\$" "$T/out" && ok || bad "long.yaml: a long string is not cut with ..."
has "long.yaml" \
    " subgroup sizes 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 1, 2, 4, 8, 16," \
    " 32, 64, 128, 256, 512, 1024" \
    " compute units 7" \
    " cores 6 cores, 16 threads" \
    " cache L1d 1.5 MiB x 3" \
    " L2 1 MiB" \
    " memory 1 TiB" \
    " memory limit 1000 bytes" \
    " max clock 3.45 GHz" \
    "EMPTY (FPGA)"
# a device with nothing known is its header alone, the last line here
[ "$(tail -n 1 "$T/out")" = "EMPTY  (FPGA)" ] && ok || bad "long.yaml: EMPTY is not a header alone"
lacks "long.yaml" my_own_key 12345 "$ESC" "$(printf '\302\233')" "$(printf '\a')" "$(printf '\t')"
grep -q '^  host *host?tab?newline?\]0;title?$' "$T/out" && ok || bad "long.yaml: control characters not shown as '?'"
[ "$(grep -c '1.5 MiB' "$T/out")" -eq 1 ] && ok || bad "long.yaml: L1 shown twice"

# ---- colour: never into a pipe or file; --color=always; on a terminal ----
run 0 "piped" nodes/dgx-h100
lacks "piped" "$ESC"
RUN_ENV=TERM=xterm run 0 "--color=auto piped" --color=auto nvidia/h100-sxm
lacks "--color=auto piped" "$ESC"
run 0 "--color=never" --color=never nvidia/h100-sxm
lacks "--color=never" "$ESC"
run 0 "--color=always" --color=always nvidia/h100-sxm
grep -q "^${ESC}\[1mGPU  NVIDIA H100 SXM5 80GB  (GPU, sm_90)${ESC}\[0m\$" "$T/out" && ok ||
    bad "--color=always: the header is not bold"
grep -q "^  ${ESC}\[2mcompute units${ESC}\[0m *132\$" "$T/out" && ok ||
    bad "--color=always: the label is not dim"
RUN_ENV=NO_COLOR=1 run 0 "--color=always with NO_COLOR" --color nvidia/h100-sxm
RUN_ENV=
grep -q "$ESC" "$T/out" && ok || bad "--color: NO_COLOR overrides an explicit --color"
# on a terminal (script(1) gives one): colour unless NO_COLOR or TERM=dumb
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1 </dev/null; then
    TERM=xterm script -qec "\"$SYSDESC\" summary nvidia/h100-sxm" /dev/null >"$T/tty" 2>&1 </dev/null
    grep -q "$ESC\[1m" "$T/tty" && ok || bad "on a terminal: no colour"
    NO_COLOR=1 TERM=xterm script -qec "\"$SYSDESC\" summary nvidia/h100-sxm" /dev/null >"$T/tty" 2>&1 </dev/null
    grep -q "$ESC\[[12]m" "$T/tty" && bad "on a terminal with NO_COLOR: colour" || ok
    TERM=dumb script -qec "\"$SYSDESC\" summary nvidia/h100-sxm" /dev/null >"$T/tty" 2>&1 </dev/null
    grep -q "$ESC\[[12]m" "$T/tty" && bad "on a terminal with TERM=dumb: colour" || ok
else
    echo "skip: script(1) cannot make a terminal here: the terminal cases are skipped"
fi

# ---- bad input and usage ----
run 3 "missing file" "$T/no-such-file.yaml"
grep -q "no-such-file" "$T/err" && ok || bad "missing file: not named"
printf 'CPU:\n  a: [1, 2\n' >"$T/broken.yaml"
run 2 "malformed YAML" "$T/broken.yaml"
grep -q "broken.yaml:[0-9]*:[0-9]*: error: " "$T/err" && ok || bad "malformed YAML: no FILE:LINE:COL: error: line"
[ -s "$T/out" ] && bad "malformed YAML: output on stdout" || ok
run 2 "no SPEC"
grep -q -- "--host" "$T/err" && ok || bad "no SPEC: the message does not mention --host"
run 2 "SPEC and --host" --host nvidia/h100-sxm
run 2 "two SPECs" nvidia/h100-sxm nvidia/h100-pcie
run 2 "--io without --host" --io nvidia/h100-sxm
run 2 "bad --color" --color=sometimes nvidia/h100-sxm
grep -q "sometimes" "$T/err" && ok || bad "bad --color: value not named"
run 2 "unknown option" --frobnicate nvidia/h100-sxm
run 0 "--help" --help
grep -q '^usage: sysdesc summary' "$T/out" && ok || bad "--help: no usage"
[ -z "$(LC_ALL=C awk 'length > 80' "$T/out")" ] && ok || bad "--help: lines over 80 columns"
"$SYSDESC" summary - <"$T/f.yaml" >"$T/out" 2>"$T/err" && grep -q "^CPU  (CPU, aarch64)$" "$T/out" && ok ||
    bad "summary - (standard input)"

[ "$PART" = files ] || host_part
finish
