#!/bin/sh
# sysdesc fingerprint (docs/fingerprint.md) on real probes of this host: two
# probes in a row, the runtimes asked afresh or answered from the cache, give
# one fingerprint; a probe written to a file and converted to every format
# gives it too; --explain's lines hash to it (FNV-1a recomputed here, in
# python3); the exit status of bad input and usage.  The rule
# itself, key by key: tests/sysdesc/test_fingerprint.c.
# Environment: SYSDESC (the tool), SRCDIR (the source tree).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
export SYSDESC_PATH="$SRCDIR/systems"
T=$(mktemp -d "${TMPDIR:-/tmp}/sysdesc-fingerprint.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    sed 's/^/  stderr: /' "$T/err" 2>/dev/null | head -3
}

# run WANT DESC ARGS...: `sysdesc ARGS`, stdout in $T/out, stderr in $T/err.
run() {
    want=$1 desc=$2
    shift 2
    "$SYSDESC" "$@" >"$T/out" 2>"$T/err" </dev/null
    rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else bad "$desc: exit $rc, expected $want"; fi
}

is_fingerprint() { grep -Eqx 'sd1-[0-9a-f]{16}' "$1"; }

# ---- this host, probed twice: the runtimes asked afresh, then the cache's answer ----
run 0 "fingerprint of this host, runtimes asked" fingerprint --quiet --refresh-cache
is_fingerprint "$T/out" && ok || bad "not a fingerprint: $(cat "$T/out")"
cp "$T/out" "$T/host1"
run 0 "fingerprint of this host, from the cache" fingerprint --quiet
cmp -s "$T/out" "$T/host1" && ok ||
    bad "two probes in a row: $(cat "$T/host1") then $(cat "$T/out")"
# the probes did differ: in a source line that is left out (on this host;
# another machine's topology, HWLOC_XMLFILE, asks no runtimes)
"$SYSDESC" probe --quiet --no-cache >"$T/p1.mlir" 2>"$T/err"
"$SYSDESC" probe --quiet >"$T/p2.mlir" 2>"$T/err"
if [ -n "${HWLOC_XMLFILE:-}" ]; then
    : # nothing to compare
elif grep -q 'asked by this probe' "$T/p1.mlir" && grep -q 'cached by an earlier probe' "$T/p2.mlir"; then
    ok
else
    bad "the probes' sources do not say where the runtimes' answers came from"
fi
run 0 "fingerprint of a probe asking the runtimes" fingerprint "$T/p1.mlir"
cp "$T/out" "$T/f1"
run 0 "fingerprint of a probe from the cache" fingerprint "$T/p2.mlir"
cmp -s "$T/out" "$T/f1" && ok || bad "probe files: $(cat "$T/f1") and $(cat "$T/out")"
# `sysdesc probe` and `sysdesc fingerprint` probe alike
cmp -s "$T/f1" "$T/host1" && ok || bad "probe file $(cat "$T/f1"), host $(cat "$T/host1")"

# ---- the same spec in every format, and from standard input ----
# (plain JSON, which loses MLIR's types, is read by YAML's rules as .yaml:
# its dense arrays are arrays then, its i32 an i64, and still one text)
"$SYSDESC" convert --to json "$T/p1.mlir" >"$T/p1.json.out" 2>"$T/err" || bad "convert --to json"
# less the probe's data layout (docs/layout.md), an object YAML's rules read
# as a device (the layout is no fingerprint key in any format)
sed '/^  "data_layout": {$/,/^  },$/d' "$T/p1.json.out" >"$T/p1.plain-json.yaml"
"$SYSDESC" convert --to json --typed "$T/p1.mlir" >"$T/p1.json" 2>"$T/err" || bad "convert --to json --typed"
for f in yaml attr; do
    "$SYSDESC" convert --to "$f" "$T/p1.mlir" >"$T/p1.$f" 2>"$T/err" || bad "convert --to $f"
done
for f in yaml attr json plain-json.yaml; do
    run 0 "fingerprint of the $f" fingerprint "$T/p1.$f"
    cmp -s "$T/out" "$T/f1" && ok || bad "$f: $(cat "$T/out"), MLIR: $(cat "$T/f1")"
done
"$SYSDESC" fingerprint - <"$T/p1.yaml" >"$T/out" 2>"$T/err"
cmp -s "$T/out" "$T/f1" && ok || bad "standard input: $(cat "$T/out")"

# ---- one device ----
run 0 "--device CPU of this host" fingerprint --quiet --device CPU
cp "$T/out" "$T/cpu"
run 0 "--device CPU of the probe file" fingerprint --device CPU "$T/p1.mlir"
cmp -s "$T/out" "$T/cpu" && ok || bad "--device CPU: $(cat "$T/out"), host $(cat "$T/cpu")"
cmp -s "$T/cpu" "$T/f1" && bad "one device has the system's fingerprint" || ok

# ---- --explain: the fingerprint, the lines it hashes, what is left out ----
run 0 "--explain" fingerprint --explain "$T/p1.mlir"
head -n 1 "$T/out" | grep -q "^# $(cat "$T/f1"): " && ok || bad "--explain: first line $(head -n 1 "$T/out")"
grep -q '^# CPU\.source: left out (' "$T/out" && ok || bad "--explain does not say source is left out"
grep -q '^CPU\.num_threads = [0-9]*$' "$T/out" && ok || bad "--explain has no CPU.num_threads line"
if command -v python3 >/dev/null 2>&1; then
    python3 - "$T/out" "$T/f1" <<'EOF' && ok || bad "FNV-1a of --explain's lines is not the fingerprint"
import sys
h = 0xcbf29ce484222325
for line in open(sys.argv[1], "rb").read().splitlines(keepends=True):
    if not line.startswith(b"#"):
        for c in line:
            h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
sys.exit(0 if "sd1-%016x" % h == open(sys.argv[2]).read().strip() else 1)
EOF
fi

# ---- docs/fingerprint.md's tables of exceptions are the code's ----
if command -v python3 >/dev/null 2>&1; then
    python3 - "$SRCDIR/docs/fingerprint.md" "$T/tables.yaml" "$T/tables.txt" <<'EOF'
import sys
doc, spec, expected = sys.argv[1:]
rows, kind = [], None
for line in open(doc, encoding="utf-8"):
    if line.startswith("| key | device | left out although"):
        kind = "left out"
    elif line.startswith("| key | device | counted although"):
        kind = "counted"
    elif not line.startswith("|"):
        kind = None
    elif kind and line.startswith("| `"):
        key, _, why = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append((kind, key.strip("`"), why))
assert len(rows) >= 8, rows
tree, lines = {}, []
for kind, key, why in rows:  # each key set in the CPU, a map where it is one
    *parents, last = key.split(".")
    node = tree
    for p in parents:
        node = node.setdefault(p, {})
    is_map = key in ("measured", "extra")
    node[last] = {"mode": "quick"} if is_map else 1
    if kind == "left out":
        lines.append("# CPU.%s: left out (%s)" % (key, why))
    else:
        lines.append("CPU.%s = %s" % (key + ".mode" if is_map else key, '"quick"' if is_map else 1))
def emit(node, indent):
    out = ""
    for k, v in node.items():
        out += " " * indent + k + ":"
        out += "\n" + emit(v, indent + 2) if isinstance(v, dict) else " %s\n" % v
    return out
open(spec, "w").write("CPU:\n  device_type: CPU\n" + emit(tree, 2))
open(expected, "w").write("\n".join(lines) + "\n")
EOF
    "$SYSDESC" fingerprint --no-check --explain "$T/tables.yaml" >"$T/out" 2>"$T/err" || bad "--explain of the tables' keys"
    while IFS= read -r want; do
        grep -qxF "$want" "$T/out" && ok || bad "docs/fingerprint.md says '$want'; --explain does not"
    done <"$T/tables.txt"
fi

# ---- a catalog entry ----
run 0 "a catalog name" fingerprint nvidia/h100-sxm
is_fingerprint "$T/out" && ok || bad "catalog: $(cat "$T/out")"
run 0 "a catalog device" fingerprint --device GPU nvidia/h100-sxm

# ---- failures ----
run 1 "--device that is not there" fingerprint --device GPU9 nvidia/h100-sxm
grep -q "no device 'GPU9'" "$T/err" && ok || bad "--device GPU9: $(cat "$T/err")"
run 1 "no such catalog name" fingerprint nvidia/h100
grep -q "did you mean" "$T/err" && ok || bad "nvidia/h100: no suggestion"
run 2 "two SPECs" fingerprint "$T/p1.mlir" "$T/p1.yaml"
run 2 "a probe option with a SPEC" fingerprint --no-cache "$T/p1.mlir"
run 2 "--device without a value" fingerprint --device
run 2 "malformed input" fingerprint "$SRCDIR/tests/data/errors/$(ls "$SRCDIR/tests/data/errors" | head -n 1)"
run 3 "a missing file" fingerprint "$T/none.yaml"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
