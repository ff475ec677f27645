#!/bin/sh
# scripts/gpu_check.py (what scripts/gpu-check --run runs on a GPU machine)
# here, against the CUDA test double (doubles/README: it proves nothing about
# the real driver): the comparison runs end to end and agrees where the probe
# and the driver read the same attribute, the exports' fields are listed, the
# table is also written to --out; without a CUDA driver it says so and exits
# 77.
set -u
: "${SYSDESC:?}" "${SRCDIR:?}" "${DOUBLES:?}"
. "$SRCDIR/tests/topology.sh"
if foreign_topology; then
    echo "skipped: this machine's CUDA runtime (a test double); HWLOC_XMLFILE is another machine's topology, for which the probe asks no runtime (tests/probe/probe_host.sh checks that)"
    exit 77
fi
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME="$T/cache"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
cat >"$T/conf" <<'CONF'
cuda.driver_version = 12040
cuda.count = 1
cuda.0.name = NVIDIA Test GPU
cuda.0.total_mem = 85017755648
cuda.0.pci_bus_id = 0000:1B:00.0
cuda.0.attr.16 = 132
cuda.0.attr.10 = 32
cuda.0.attr.1 = 1024
cuda.0.attr.13 = 1980000
cuda.0.attr.38 = 52428800
cuda.0.attr.75 = 9
cuda.0.attr.76 = 0
cuda.0.attr.97 = 232448
nvml.count = 0
CONF
# python3 loads the CUDA double with ctypes: a sanitized double cannot be
# loaded into it (the sanitizer's runtime must come first)
if [ "${SYSDESC_TEST_SANITIZE:-none}" != none ]; then
    echo "skipped: python3 cannot load the $SYSDESC_TEST_SANITIZE-sanitized CUDA double"
    exit 77
fi
LD_LIBRARY_PATH=$DOUBLES SYSDESC_DOUBLE_CONFIG=$T/conf \
    python3 "$SRCDIR/scripts/gpu_check.py" --sysdesc "$SYSDESC" --out "$T/out" >"$T/table" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && ok "exit 0 when all agree" || bad "exit $rc: $(cat "$T/err")"
for row in "| num_compute_units | 132 | cuda |  | 132 |" "| max_clock_in_mhz | 1980 | cuda |  | 1980 |" \
    "| max_shared_memory_per_block_in_bytes | 232448 | cuda |  | 232448 |" \
    "| multiprocessor_count | 132 |"; do
    grep -qF -- "$row" "$T/table" && ok "row: $row" || bad "no row: $row"
done
[ -s "$T/out/gpu-check.md" ] && cmp -s "$T/out/gpu-check.md" "$T/table" && ok "the table is in --out" ||
    bad "--out holds no copy of the table"
# A driver value the probe does not take (it reads the same double): none here.
grep -q "DIFFERS" "$T/table" && bad "a row differs: $(grep DIFFERS "$T/table")" || ok "no row differs"
# No CUDA driver: 77 and a clear line.
LD_LIBRARY_PATH=$T python3 "$SRCDIR/scripts/gpu_check.py" --sysdesc "$SYSDESC" >"$T/none" 2>&1
rc=$?
[ $rc -eq 77 ] && grep -q "no NVIDIA GPU here" "$T/none" && ok "no driver: 77, $(cat "$T/none")" ||
    bad "no driver: exit $rc, $(cat "$T/none")"
exit $fail
