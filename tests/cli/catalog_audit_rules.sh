#!/bin/sh
# The catalog audit's rules can fail: a copy of the catalog with one fault per
# rule (an AMD product off its architecture base, a machine outside nodes/,
# a second spelling of a memory type, a vector peak off units x clock, an
# Intel-only key on an NVIDIA GPU, siblings sharing a PCI id that the probe
# could not tell apart, an accelerator's units unnamed and its links not adding
# up) must make catalog_audit.py report each one.
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
cp -r "$SRCDIR/systems" "$T/systems"
S=$T/systems
# an AMD product typing its architecture's values instead of building on its base
sed -i 's|^  base: amd/arch/gfx942$|  device_type: GPU\n  schema_version: 1\n  vendor: AMD\n  arch: gfx942\n  pci_vendor_id: 0x1002\n  subgroup_sizes: [64]|' \
    "$S/amd/mi325x.yaml"
# a machine outside nodes/
mv "$S/nodes/dgx-a100.yaml" "$S/nvidia/dgx-a100.yaml"
# HBM3E beside HBM3e
sed -i 's|memory_type: HBM3e|memory_type: HBM3E|' "$S/nvidia/h200.yaml"
# a peak that units x clock x ops do not give
sed -i 's|^    fp32_vector: 30.3e12|    fp32_vector: 33.0e12|' "$S/nvidia/l4.yaml"
# an Intel-only key on an NVIDIA GPU
printf '  register_file_per_execution_unit_thread_in_bytes: 8192\n' >>"$S/nvidia/t4.yaml"
# a sibling the probe cannot tell apart from the XT: same CUs and memory
sed -i 's|^  num_compute_units: 96$|  num_compute_units: 84|; s|^  memory_size_in_bytes: [0-9]* .*$|  memory_size_in_bytes: 21458059264|' \
    "$S/amd/rx-7900-xtx.yaml"
# an accelerator's count of units without their name, and link totals that do not add up
sed -i '/^  compute_unit_name: TPC$/d' "$S/intel/gaudi2.yaml"
sed -i 's|^    total_bandwidth_in_bytes_per_second: 1200000000000$|    total_bandwidth_in_bytes_per_second: 600000000000|' \
    "$S/intel/gaudi3.yaml"
out=$(SRCDIR=$T python3 "$SRCDIR/tests/cli/catalog_audit.py" 2>&1)
rc=$?
fail=0
for want in "amd/mi325x: GPU (arch gfx942) does not build on amd/arch/gfx942" \
    "nvidia/dgx-a100: a machine built on catalog products lies under nodes/" \
    "memory_type is spelt 'HBM3E' (nvidia/h200) and 'HBM3e'" \
    "nvidia/l4: GPU: fp32_vector 3.3e+13, but 58 compute units x 256 per clock x 2040 MHz" \
    "nvidia/t4: GPU: register_file_per_execution_unit_thread_in_bytes is a key of Intel devices, not NVIDIA" \
    "PCI id 1002:744c: amd/rx-7900-xt and amd/rx-7900-xtx claim it and the probe cannot tell them apart" \
    "intel/gaudi2: ACCEL: an accelerator's num_compute_units without compute_unit_name" \
    "intel/gaudi3: ACCEL: interconnect total 6e+11 B/s, but 24 links x 2.5e+10 B/s x 2 = 1.2e+12"; do
    case $out in
    *"$want"*) echo "ok: $want" ;;
    *) echo "FAIL: the audit does not say: $want"; fail=1 ;;
    esac
done
[ "$rc" -ne 0 ] && echo "ok: exit status $rc" || { echo "FAIL: exit status 0 with faults"; fail=1; }
[ "$fail" -eq 0 ] || printf '%s\n' "$out" | grep FAIL
exit $fail
