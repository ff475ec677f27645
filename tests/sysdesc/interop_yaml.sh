#!/bin/sh
# Every catalog entry and a YAML round trip, printed as MLIR, must be accepted by
# mlir-opt-22 and printed back unchanged (mlir-opt is the oracle of the syntax).
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
"$SYSDESC" compose GPU=nvidia/h100-sxm:8 CPU=nvidia/dgx-h100 2>/dev/null && { echo "compose of a system with an id prefix should name node ids"; } || true
"$SYSDESC" compose --format mlir GPU=nvidia/h100-sxm:8 node=nvidia/dgx-h100 > "$tmp/c.mlir"
mlir-opt-22 "$tmp/c.mlir" | cmp -s - "$tmp/c.mlir" || { echo "compose output differs through mlir-opt-22"; exit 1; }
echo "$n catalog entries accepted by mlir-opt-22"
