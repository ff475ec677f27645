#!/bin/sh
# sysdesc query on every kind of input: MLIR (scoped), YAML files and
# standard input, catalog names, the probed host with the probe's options;
# and the hint line after MLIR's message when a key is missing.
# Environment: SYSDESC (the tool), SRCDIR (the source tree).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
export SYSDESC_PATH="$SRCDIR/systems"
T=$(mktemp -d "${TMPDIR:-/tmp}/sysdesc-query.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect WANT_RC WANT_STDOUT WANT_STDERR DESC ARGS...: exact stdout and stderr.
expect() {
    want_rc=$1 want_out=$2 want_err=$3 desc=$4
    shift 4
    "$SYSDESC" query "$@" >"$T/out" 2>"$T/err" </dev/null
    rc=$?
    [ "$rc" -eq "$want_rc" ] && ok || bad "$desc: exit $rc, expected $want_rc ($(cat "$T/err"))"
    [ "$(cat "$T/out")" = "$want_out" ] && ok || bad "$desc: stdout '$(cat "$T/out")', expected '$want_out'"
    if [ -n "$want_err" ]; then
        [ "$(cat "$T/err")" = "$want_err" ] && ok || bad "$desc: stderr '$(cat "$T/err")', expected '$want_err'"
    fi
}

expect 0 "132 : i64" "" "catalog name" nvidia/h100-sxm GPU num_compute_units
expect 0 "2040 : i64" "" "YAML file" "$SRCDIR/systems/nvidia/l4.yaml" GPU max_clock_in_mhz
printf 'X:\n  device_type: CPU\n  cache: {L1: {size_in_bytes: 32768}}\n' >"$T/x.yaml"
"$SYSDESC" query - X cache L1 size_in_bytes <"$T/x.yaml" >"$T/out" 2>"$T/err"
[ "$(cat "$T/out")" = "32768 : i64" ] && ok || bad "YAML on standard input: '$(cat "$T/out")' $(cat "$T/err")"
expect 0 "49152 : i64" "" "MLIR file" "$SRCDIR/examples/two-devices.mlir" CPU cache L1 size_in_bytes

# Ops holding DLTI attributes sysdesc cannot place: the scopes around them
# answer, and a warning names the first with its place and the count.
U=$SRCDIR/tests/data/query/unread.mlir
expect 0 "16 : i32" "sysdesc: warning: $U:6:5: operation 'linalg.matmul' holds DLTI attributes sysdesc cannot place (custom syntax sysdesc does not read): a query at or inside it is answered by the scopes around it (and 2 more such operations)" \
    "unread ops" --scope kernel "$U" CPU tile
"$SYSDESC" layout "$U" i32 >"$T/out" 2>"$T/err" && grep -q "^sysdesc: warning: $U:6:5: operation 'linalg.matmul'" "$T/err" &&
    ok || bad "layout does not name the unread ops: $(cat "$T/err")"

# MLIR's message first, then one hint line: the nearest key, or the keys there.
expect 1 "" "" "typo" nvidia/h100-sxm GPU num_compute_unit
[ "$(sed -n 2p "$T/err")" = 'sysdesc: hint: did you mean "num_compute_units"?' ] && ok ||
    bad "typo: hint line is '$(sed -n 2p "$T/err")'"
sed -n 1p "$T/err" | grep -q '^sysdesc: error: key "num_compute_unit" has no DLTI-mapping per attr: #dlti.target_device_spec<' &&
    ok || bad "typo: MLIR's message is not first: $(sed -n 1p "$T/err")"
# MLIR's message, its attribute whole as mlir-opt-22 prints it, then the keys.
expect 1 "" 'sysdesc: error: key "L3" has no DLTI-mapping per attr: #dlti.map<"L1" = #dlti.map<"size_in_bytes" = 49152 : i64, "line_size_in_bytes" = 64 : i64>, "L2" = #dlti.map<"size_in_bytes" = 2097152 : i64, "line_size_in_bytes" = 64 : i64>>
sysdesc: hint: keys here: "L1", "L2"' "missing level" "$SRCDIR/examples/two-devices.mlir" CPU cache L3

# Scopes belong to MLIR modules.
expect 2 "" "sysdesc: error: query: --scope needs an MLIR module; nvidia/h100-sxm is one system spec" \
    "--scope on a catalog entry" --scope a nvidia/h100-sxm GPU
expect 3 "" "$T/none.mlir: error: cannot open: No such file or directory" "missing MLIR file" "$T/none.mlir" x

# --host with the probe's options; the options need --host.
expect 0 "\"CPU\"" "" "--host --no-io -q" --host --no-io -q CPU device_type
expect 2 "" "sysdesc: error: query: --io, --no-io, --quiet and --no-catalog go with --host" \
    "-q without --host" -q nvidia/h100-sxm GPU

# The runtime options (docs/runtimes.md): on a host probe only, values checked.
expect 0 "\"CPU\"" "" "--host --runtimes=none" --host -q --runtimes=none CPU device_type
# (on another machine's topology, HWLOC_XMLFILE, no runtime of this host is asked)
why="not asked (runtimes option)"
. "$SRCDIR/tests/topology.sh"
foreign_topology &&
    why="not asked: hwloc's topology is another machine's (hwloc_topology_is_thissystem)"
expect 0 "\"$why\"" "" "--runtimes=none leaves a source line" \
    --host -q --runtimes=none --no-cache CPU source runtimes.opencl
expect 0 "\"CPU\"" "" "--host --runtimes=opencl,vulkan --no-cache --runtime-timeout=60000" \
    --host -q --runtimes=opencl,vulkan --no-cache --runtime-timeout=60000 CPU device_type
expect 2 "" "sysdesc: error: query: --runtimes: unknown runtime 'metal' (opencl, vulkan, cuda, rocm, level_zero; all; none)" \
    "an unknown runtime" --host --runtimes=opencl,metal CPU
expect 2 "" "sysdesc: error: query: --runtimes: unknown runtime '' (opencl, vulkan, cuda, rocm, level_zero; all; none)" \
    "an empty runtime list" --host --runtimes= CPU
expect 2 "" "sysdesc: error: query: --runtime-timeout: '0' is not a number of milliseconds from 1 to 3600000" \
    "a timeout of 0" --host --runtime-timeout=0 CPU
expect 2 "" "sysdesc: error: query: --runtime-timeout: '-5' is not a number of milliseconds from 1 to 3600000" \
    "a negative timeout" --host --runtime-timeout=-5 CPU
expect 2 "" "sysdesc: error: query: --runtimes needs a value: --runtimes=VALUE" \
    "--runtimes without its value" --host --runtimes opencl CPU
expect 2 "" "sysdesc: error: query: --runtimes, --no-cache, --refresh-cache, --runtime-timeout, --gcc, --clang and --llc ask this host's runtimes and compilers: they go with --host" \
    "--no-cache without --host" --no-cache nvidia/h100-sxm GPU
"$SYSDESC" probe --xml "$SRCDIR/tests/data/xml/gpu.xml" --refresh-cache >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ "$(cat "$T/err")" = "sysdesc: error: probe: --runtimes, --no-cache, --refresh-cache, --runtime-timeout, --gcc, --clang and --llc ask this host's runtimes and compilers: not with --xml" ] &&
    ok || bad "probe --xml --refresh-cache: $(cat "$T/err")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
