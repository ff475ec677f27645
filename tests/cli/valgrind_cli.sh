#!/bin/sh
# Runs each sysdesc command once under valgrind memcheck on the bundled
# inputs: no invalid access, no uninitialised use, no definite or indirect
# leak, or this fails.  (The unit tests run under valgrind in scripts/test-all.)
set -u
: "${SYSDESC:?}" "${SRCDIR:?}" "${FAKE_OPENCL_DIR:?}"
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: valgrind not found (apt-get install valgrind)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # DESCRIPTION EXPECTED_STATUS ARGS...
    what=$1 want=$2
    shift 2
    valgrind -q --error-exitcode=99 --suppressions="$SRCDIR/tests/valgrind.supp" --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --show-leak-kinds=definite,indirect "$SYSDESC" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $what: exit $rc, expected $want"
        head -n 30 "$tmp/err"
    fi
}
ex="$SRCDIR/examples/two-devices.mlir"
check "fmt" 0 fmt "$ex"
check "query" 0 query "$ex" CPU cache L1 size_in_bytes
check "query not found" 1 query "$ex" CPU cache L9
check "query --json" 0 query --json "$ex" CPU cache
check "query --raw" 0 query --raw "$ex" CPU vendor
check "fmt bad input" 2 fmt "$SRCDIR/tests/data/errors/$(ls "$SRCDIR/tests/data/errors" | head -n 1)"
# Host probes ask the runtimes in children that valgrind follows: the real
# pocl and lavapipe under memcheck take longer than the bound and are not
# sysdesc's code.  The test double of the OpenCL loader stands in for them,
# so that the runtime source, its child, the answer's text, the merge and the
# cache run under memcheck; a child with an error exits 99, and its view is
# then missing from the output.
rt() { LD_LIBRARY_PATH="$FAKE_OPENCL_DIR" XDG_CACHE_HOME="$tmp/cache" "$@"; }
rt check "probe" 0 probe --quiet --runtimes=opencl --refresh-cache
grep -q '"device_name" = "Fake CPU"' "$tmp/out" || { fail=$((fail + 1)); echo "FAIL probe: no OpenCL view from the test double"; }
rt check "query --host from the cache" 0 query --host --quiet --runtimes=opencl GPU0 num_compute_units
grep -qx '14 : i64' "$tmp/out" || { fail=$((fail + 1)); echo "FAIL query --host: $(cat "$tmp/out")"; }
check "probe xml" 0 probe --xml "$SRCDIR/tests/data/xml/two_socket_numa.xml" --format yaml
# Malformed topologies leak nothing, with no suppression
# beyond hwloc_topology_load's: refused by hwloc_topology_set_xmlbuffer
# (malformed.xml, a truncated file) and by hwloc_topology_load (a bad object)
check "probe malformed xml" 2 probe --xml "$SRCDIR/tests/data/xml/malformed.xml"
head -c 2000 "$SRCDIR/tests/data/xml/gpu.xml" >"$tmp/cut.xml"
check "probe truncated xml" 2 probe --xml "$tmp/cut.xml"
sed 's/type="Machine"/type="Bogus"/' "$SRCDIR/tests/data/xml/gpu.xml" >"$tmp/bogus.xml"
check "probe xml hwloc_topology_load refuses" 2 probe --xml "$tmp/bogus.xml"
check "layout" 0 layout "$ex" i32 'vector<3xf32>' index
check "dl-import" 0 dl-import --triple x86_64-unknown-linux-gnu
check "show" 0 show --format json nvidia/h100-sxm
check "compose" 0 compose --format mlir nodes/dgx-h100 GPU=nvidia/h100-pcie
check "convert" 0 convert --to yaml "$ex"
check "summary" 0 summary --color=always nodes/dgx-h100
rt check "summary --host" 0 summary --host --quiet --runtimes=opencl
check "fingerprint --explain" 0 fingerprint --explain nodes/dgx-h100
rt check "fingerprint of this host" 0 fingerprint --quiet --runtimes=opencl --device CPU
check "fingerprint no such device" 1 fingerprint --device GPU9 nvidia/h100-sxm
check "occupancy" 0 occupancy nvidia/h100-sxm GPU --threads 256 --registers 64 --shared 20000
check "occupancy --json AMD" 0 occupancy --json amd/mi300x GPU --threads 256 --registers 96 --shared 1000
check "occupancy no such device" 1 occupancy nvidia/h100-sxm GPU9 --threads 1 --registers 0 --shared 0
# Measure (one thread: valgrind runs threads one at a time anyway;
# its CPUID hides AVX-512, so the AVX2 kernels run) and roofline
check "measure" 0 measure --quick --quiet --threads 1 --format yaml
check "roofline" 0 roofline --quiet nvidia/h100-sxm
check "roofline points" 0 roofline --quiet nvidia/h100-sxm --point "gemm:300:600T" --point "k,1,1G"
check "roofline no bandwidth" 1 roofline --quiet "$SRCDIR/tests/data/roofline/gpu-no-bandwidth.yaml"
real="$SRCDIR/tests/data/real"
check "attach" 0 attach --no-check --merge --pretty "$real/_spec.yaml" "$real/existing_spec.mlir"
check "attach implicit" 0 attach --no-check --inherent-dlti "$real/_spec.yaml" "$real/implicit.mlir"
check "fmt --skeleton" 0 fmt --skeleton --pretty "$real/generic_module.mlir"
check "query real file" 0 query --scope inner "$real/generic.mlir" CPU L1_cache_size_in_bytes
check "convert --pretty" 0 convert --pretty --inherent-dlti "$ex"
# The microarchitecture table by name
check "uarch list" 0 uarch
check "uarch" 0 uarch --format json zen4
check "uarch unknown" 1 uarch zen6
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
