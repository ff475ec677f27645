#!/bin/sh
# sysdesc occupancy (docs/occupancy.md): the text and --json say the same,
# every line fits 80 columns, a missing fact is named, and each failure has
# its exit code.  The rules themselves: tests/python/test_occupancy.py
# (against an independent reference of the CUDA rules and LLVM's AMD cases).
# Environment: SYSDESC (the tool), SRCDIR (the source tree).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
export SYSDESC_PATH="$SRCDIR/systems"
T=$(mktemp -d "${TMPDIR:-/tmp}/sysdesc-occupancy.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; sed 's/^/  stderr: /' "$T/err" 2>/dev/null | head -3; }

# expect CODE DESC ARGS...: runs sysdesc occupancy ARGS, output in $T/out, $T/err
expect() {
    code=$1 desc=$2
    shift 2
    "$SYSDESC" occupancy "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" = "$code" ] && ok || bad "$desc: exit $rc, expected $code"
}
# field NAME: the integer field NAME of the JSON in $T/out
field() { sed -n "s/^  \"$1\": \\([0-9]*\\),*\$/\\1/p" "$T/out"; }

for entry in nvidia/h100-sxm nvidia/rtx-4090 nvidia/t4 amd/mi300x amd/mi100 amd/rx-7900-xtx; do
    for args in "--threads 256 --registers 64 --shared 0" "--threads 96 --registers 255 --shared 0" \
                "--threads 1024 --registers 32 --shared 0" "--threads 1 --registers 0 --shared 0"; do
        # shellcheck disable=SC2086
        expect 0 "$entry $args" "$entry" GPU $args
        awk 'length > 80 { exit 1 }' "$T/out" && ok || bad "$entry $args: a line over 80 columns"
        text_blocks=$(sed -n 's/^resident: \([0-9]*\) .*/\1/p' "$T/out")
        # shellcheck disable=SC2086
        expect 0 "$entry $args --json" "$entry" GPU $args --json
        [ -n "$text_blocks" ] && [ "$text_blocks" = "$(field blocks_per_compute_unit)" ] && ok ||
            bad "$entry $args: the text says '$text_blocks' blocks, the JSON '$(field blocks_per_compute_unit)'"
    done
done

# The carveout: 50% of the H100's 228 KiB per SM is 114 KiB, which CUDA
# raises to the next capacity the SM has (132 KiB); 0% to the least that
# holds one block.
expect 0 "carveout 50" nvidia/h100-sxm GPU --threads 128 --registers 32 --shared 0 --carveout 50 --json
[ "$(field shared_memory_per_compute_unit)" = 135168 ] && ok || bad "carveout 50: $(cat "$T/out")"
expect 0 "carveout 0" nvidia/h100-sxm GPU --threads 128 --registers 32 --shared 40000 --carveout 0 --json
[ "$(field shared_memory_per_compute_unit)" = 65536 ] && [ "$(field blocks_per_compute_unit)" = 1 ] &&
    ok || bad "carveout 0: $(cat "$T/out")"

# Failures: a fact the device lacks is named (1), a vendor without rules and
# bad requests (2), no such device (1).
cat >"$T/lacking.yaml" <<'EOF'
GPU:
  base: nvidia/h100-sxm
  extra: {note: "register_allocation_unit_size is taken out below"}
EOF
"$SYSDESC" convert --to yaml "$T/lacking.yaml" | grep -v 'register_allocation_unit_size' >"$T/l2.yaml"
expect 1 "a missing fact" "$T/l2.yaml" GPU --threads 128 --registers 32 --shared 0
grep -q "has no 'register_allocation_unit_size'" "$T/err" && ok || bad "the missing key is not named"
expect 2 "Intel" intel/max-1550 GPU --threads 128 --registers 32 --shared 0
grep -q "NVIDIA's and AMD's" "$T/err" && ok || bad "Intel: no reason"
expect 1 "no such device" nvidia/h100-sxm GPU5 --threads 128 --registers 32 --shared 0
expect 2 "no --shared" nvidia/h100-sxm GPU --threads 128 --registers 32
expect 2 "threads 0" nvidia/h100-sxm GPU --threads 0 --registers 32 --shared 0
expect 2 "carveout 101" nvidia/h100-sxm GPU --threads 32 --registers 32 --shared 0 --carveout 101
expect 2 "subgroup 64 on NVIDIA" nvidia/h100-sxm GPU --threads 64 --registers 32 --shared 0 --subgroup 64
expect 2 "carveout on AMD" amd/mi300x GPU --threads 64 --registers 32 --shared 0 --carveout 50
expect 0 "too many threads is no error" nvidia/h100-sxm GPU --threads 2048 --registers 32 --shared 0 --json
[ "$(field blocks_per_compute_unit)" = 0 ] && ok || bad "2048 threads: $(cat "$T/out")"

echo "occupancy.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
