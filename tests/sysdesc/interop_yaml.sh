#!/bin/sh
# Every catalog entry and a YAML round trip, printed as MLIR, must be accepted by
# mlir-opt-22 and printed back unchanged (mlir-opt is the oracle of the syntax);
# so must compositions, whose device ids are checked too.
# Exits 77 (skipped) when mlir-opt-22 is absent.
command -v mlir-opt-22 >/dev/null 2>&1 || { echo "mlir-opt-22 not found: skipped"; exit 77; }
set -eu
: "${SYSDESC:?}" "${SRCDIR:?}"
export SYSDESC_PATH="$SRCDIR/systems"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
for f in $(cd "$SRCDIR/systems" && find . -name '*.yaml' | sed 's|^\./||; s|\.yaml$||' | sort); do
    "$SYSDESC" convert --to mlir "$f" > "$tmp/a.mlir"
    mlir-opt-22 "$tmp/a.mlir" > "$tmp/b.mlir" || { echo "mlir-opt-22 rejects $f"; exit 1; }
    cmp -s "$tmp/a.mlir" "$tmp/b.mlir" || { echo "mlir-opt-22 prints $f differently"; diff "$tmp/a.mlir" "$tmp/b.mlir"; exit 1; }
    # YAML -> MLIR -> YAML -> MLIR is exact
    "$SYSDESC" convert --to yaml "$tmp/a.mlir" > "$tmp/a.yaml"
    "$SYSDESC" convert --to mlir "$tmp/a.yaml" | cmp -s - "$tmp/a.mlir" || { echo "round trip of $f differs"; exit 1; }
    n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no catalog entries found under $SRCDIR/systems"; exit 1; }
# Probed topologies carry dense arrays (memory.numa_node_size_in_bytes =
# array<i64: ...>): mlir-opt-22 prints them back unchanged, and so does
# probe --format yaml read back (YAML keeps them as !mlir 'array<i64: ...>').
for x in two_socket_numa hybrid gpu_server; do
    "$SYSDESC" probe --quiet --xml "$SRCDIR/tests/data/xml/$x.xml" --format mlir > "$tmp/p.mlir"
    grep -q 'array<i64: ' "$tmp/p.mlir" || { echo "probe of $x.xml wrote no dense array"; exit 1; }
    mlir-opt-22 "$tmp/p.mlir" | cmp -s - "$tmp/p.mlir" || { echo "mlir-opt-22 prints the probe of $x.xml differently"; exit 1; }
    "$SYSDESC" probe --quiet --xml "$SRCDIR/tests/data/xml/$x.xml" --format yaml > "$tmp/p.yaml"
    "$SYSDESC" convert --to mlir "$tmp/p.yaml" | cmp -s - "$tmp/p.mlir" || { echo "YAML round trip of the probe of $x.xml differs"; exit 1; }
done
# ID=ITEM on a system of several devices prefixes each id with "ID."
# (sysdesc_compose_add, docs/yaml.md): the DGX's GPU0..GPU7 become CPU.GPU0..
# CPU.GPU7 beside the eight GPU0..GPU7 of GPU=...:8, in command-line order.
"$SYSDESC" compose --format mlir GPU=nvidia/h100-sxm:8 CPU=nodes/dgx-h100 >"$tmp/p.mlir" 2>"$tmp/p.err" ||
    { echo "compose GPU=nvidia/h100-sxm:8 CPU=nodes/dgx-h100 failed: $(cat "$tmp/p.err")"; exit 1; }
[ -s "$tmp/p.err" ] && { echo "compose with an id prefix warned: $(cat "$tmp/p.err")"; exit 1; }
ids=$(grep -o '"[^"]*" = #dlti.target_device_spec<' "$tmp/p.mlir" | sed 's/^"//; s/" = .*//' | tr '\n' ' ')
want="GPU0 GPU1 GPU2 GPU3 GPU4 GPU5 GPU6 GPU7 CPU.CPU CPU.GPU0 CPU.GPU1 CPU.GPU2 CPU.GPU3 CPU.GPU4 CPU.GPU5 CPU.GPU6 CPU.GPU7 "
[ "$ids" = "$want" ] || { echo "compose with an id prefix: device ids '$ids', expected '$want'"; exit 1; }
mlir-opt-22 "$tmp/p.mlir" | cmp -s - "$tmp/p.mlir" || { echo "prefixed compose output differs through mlir-opt-22"; exit 1; }
# ... and without the prefix the DGX's GPU0 collides with the first GPU: exit 2.
rc=0
"$SYSDESC" compose GPU=nvidia/h100-sxm:8 nodes/dgx-h100 >"$tmp/d.out" 2>"$tmp/d.err" || rc=$?
[ "$rc" -eq 2 ] || { echo "compose without an id prefix: exit $rc, expected 2 (duplicate id)"; exit 1; }
[ ! -s "$tmp/d.out" ] || { echo "compose without an id prefix printed a spec"; exit 1; }
err="sysdesc: error: compose: nodes/dgx-h100: device id 'GPU0' is used twice: rename one (ID=ITEM)"
[ "$(cat "$tmp/d.err")" = "$err" ] || { echo "compose without an id prefix: stderr '$(cat "$tmp/d.err")', expected '$err'"; exit 1; }
"$SYSDESC" compose --format mlir GPU=nvidia/h100-sxm:8 node=nodes/dgx-h100 > "$tmp/c.mlir"
mlir-opt-22 "$tmp/c.mlir" | cmp -s - "$tmp/c.mlir" || { echo "compose output differs through mlir-opt-22"; exit 1; }
echo "$n catalog entries accepted by mlir-opt-22"
