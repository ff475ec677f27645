#!/bin/sh
# Files that are not descriptions, and walks that could not end
# (docs/reliability.md, "Special files", "What base: may name", "Walks"):
#
# 1. every reader of every command, given a FIFO nobody writes, a character
#    device (/dev/zero) or a file that would block (/proc/kmsg), ends at once
#    with exit 3 and says what the file is; '-' (standard input) still reads;
#    HWLOC_XMLFILE naming a FIFO or /dev/zero likewise, and a regular one is
#    still this host's topology;
# 2. `base:` names a catalog entry or a .yaml/.yml file: /etc/shadow,
#    ../../../../etc/shadow, a FIFO, /proc/kmsg and a .yaml link to a file
#    that is not one are refused before they are opened, and no byte of the
#    file appears in the error;
# 3. catalog directories with symbolic link loops list at once, and
#    SYSDESC_PATH=/proc ends with an error that names it;
# 4. a catalog name is opened by base:'s rule: an entry linked to a file that
#    is not a description (a secret, /proc/kmsg) is no entry for list and
#    refused by name by every command, no byte of it shown; list shows an
#    entry's vendor and model escaped (no terminal sequence, no forged row).
# Environment: SYSDESC (the tool), SRCDIR (the source tree).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
export SYSDESC_PATH="$SRCDIR/systems"
. "$SRCDIR/tests/timebound.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/sysdesc-special.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
# A command that hangs is a failure, not a stuck test: each runs under a
# bound far above what a refusal costs (milliseconds).
BOUND=$(timebound_limit 10)

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    sed 's/^/  stderr: /' "$T/err" 2>/dev/null | head -3
}

# check WANT_RC STDERR_SUBSTRING DESC CMD...: exit status (124: it hung) and
# a stderr substring ("" for none); stdout in $T/out.
check() {
    want=$1 msg=$2 desc=$3
    shift 3
    timeout "$BOUND" "$@" >"$T/out" 2>"$T/err" </dev/null
    rc=$?
    if [ "$rc" -eq 124 ]; then
        bad "$desc: still running after ${BOUND}s (it hangs)"
    elif [ "$rc" -ne "$want" ]; then
        bad "$desc: exit $rc, expected $want"
    elif [ -n "$msg" ] && ! grep -qF -- "$msg" "$T/err"; then
        bad "$desc: stderr lacks '$msg'"
    else
        ok
    fi
}
# no_secret DESC: the error shows nothing of the planted file's content
no_secret() {
    if grep -q 'SECRET' "$T/err"; then bad "$1: the error shows the file's content"; else ok; fi
}

mkfifo "$T/fifo" "$T/fifo.yaml" "$T/fifo.mlir" || { echo "no mkfifo: skipped"; exit 77; }
cat >"$T/spec.mlir" <<'EOF'
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"device_type" = "CPU">>} {
}
EOF
echo 'module {}' >"$T/in.mlir"

# ---- 1. special files given to every reader ----
FIFO="a FIFO, not a regular file"
CHR="a character device, not a regular file"
for f in fifo fifo.yaml fifo.mlir; do
    F="$T/$f"
    check 3 "$FIFO" "fmt $f" "$SYSDESC" fmt "$F"
    check 3 "$FIFO" "fmt --skeleton $f" "$SYSDESC" fmt --skeleton "$F"
    check 3 "$FIFO" "query $f" "$SYSDESC" query "$F" CPU device_type
    check 3 "$FIFO" "layout $f" "$SYSDESC" layout "$F" i32
    check 3 "$FIFO" "dl-export $f" "$SYSDESC" dl-export "$F"
    check 3 "$FIFO" "convert $f" "$SYSDESC" convert --to yaml "$F"
    check 3 "$FIFO" "compose $f" "$SYSDESC" compose "$F"
    check 3 "$FIFO" "attach SPEC=$f" "$SYSDESC" attach "$F" "$T/in.mlir"
    check 3 "$FIFO" "attach IN=$f" "$SYSDESC" attach "$T/spec.mlir" "$F"
    check 3 "$FIFO" "summary $f" "$SYSDESC" summary "$F"
    check 3 "$FIFO" "export $f" "$SYSDESC" export --to triton "$F" CPU
    check 3 "$FIFO" "roofline $f" "$SYSDESC" roofline "$F" --device CPU
    check 3 "$FIFO" "check $f" "$SYSDESC" check "$F"
    check 3 "$FIFO" "probe --xml $f" "$SYSDESC" probe --xml "$F"
    check 3 "$FIFO" "probe --override $f" "$SYSDESC" probe -q --runtimes=none --override "$F"
done
check 3 "$CHR" "fmt /dev/zero" "$SYSDESC" fmt /dev/zero
check 3 "$CHR" "query /dev/zero" "$SYSDESC" query /dev/zero CPU
check 3 "$CHR" "compose /dev/null" "$SYSDESC" compose /dev/null
check 3 "$CHR" "probe --xml /dev/zero" "$SYSDESC" probe --xml /dev/zero
if [ -r /proc/kmsg ] && timeout 1 sh -c 'exec 3</proc/kmsg' 2>/dev/null; then
    check 3 "it would wait for data" "fmt /proc/kmsg" "$SYSDESC" fmt /proc/kmsg
else
    echo "skipped: /proc/kmsg cannot be opened here (not root)"
fi
# standard input, named, is read whatever it is
printf 'module {}\n' | "$SYSDESC" fmt - >"$T/out" 2>"$T/err"
if [ $? -eq 0 ] && [ "$(cat "$T/out")" = "module {
}" ]; then ok; else bad "fmt - from a pipe"; fi

# HWLOC_XMLFILE: hwloc would read it itself; sysdesc reads it the one way
check 3 "HWLOC_XMLFILE: cannot read: $FIFO" "probe, HWLOC_XMLFILE a FIFO" \
    env HWLOC_XMLFILE="$T/fifo" "$SYSDESC" probe -q --runtimes=none
check 3 "HWLOC_XMLFILE: cannot read: $CHR" "query --host, HWLOC_XMLFILE=/dev/zero" \
    env HWLOC_XMLFILE=/dev/zero "$SYSDESC" query --host --runtimes=none CPU
truncate -s 67108865 "$T/big.xml"
check 3 "HWLOC_XMLFILE: file is larger than the limit of 67108864 bytes" \
    "summary --host, HWLOC_XMLFILE over the XML limit" \
    env HWLOC_XMLFILE="$T/big.xml" "$SYSDESC" summary --host --runtimes=none
ODD="$SRCDIR/tests/data/xml/odd_vm.xml"
pus=$(HWLOC_XMLFILE="$ODD" hwloc-calc -N pu all 2>/dev/null)
check 0 "" "query --host, HWLOC_XMLFILE a regular file" \
    env HWLOC_XMLFILE="$ODD" "$SYSDESC" query --host -q --runtimes=none CPU num_threads
if [ -n "$pus" ] && [ "$(cat "$T/out")" = "$pus : i64" ]; then ok; else
    bad "HWLOC_XMLFILE=odd_vm.xml: num_threads '$(cat "$T/out")', hwloc-calc says $pus"
fi

# ---- 2. what base: may name ----
printf 'SECRET line one\nSECRET: two\n' >"$T/secret.txt"
ln -s "$T/secret.txt" "$T/secret.yaml"
mkdir -p "$T/d/e/f"
NOT_DESC="not a YAML description (a base is a catalog name or a file whose name ends in .yaml or .yml"
for b in /etc/shadow ../../../../etc/shadow /etc/passwd "$T/secret.txt" ./fifo /proc/kmsg \
         /dev/zero ./secret.yaml; do
    printf 'CPU:\n  base: %s\n  device_type: CPU\n' "$b" >"$T/base.yaml"
    check 2 "base.yaml:2:9: error: base '$b': $NOT_DESC" "base: $b" \
        "$SYSDESC" convert --to mlir "$T/base.yaml"
    no_secret "base: $b"
done
printf 'CPU:\n  base: ./fifo.yaml\n' >"$T/base.yaml"
check 3 "$FIFO" "base: a FIFO named .yaml" "$SYSDESC" convert --to mlir "$T/base.yaml"
printf 'CPU:\n  base: %s\n' "$T/secret.txt" >"$T/d/e/f/deep.yaml"
check 2 "$NOT_DESC" "base: from a deeper file" "$SYSDESC" check "$T/d/e/f/deep.yaml"
# what base: may name still works: a catalog name, a relative and an absolute .yaml
printf 'CPU:\n  device_type: CPU\n  vendor: V\n' >"$T/d/parent.yaml"
printf 'CPU:\n  base: ../parent.yaml\n  model: M\n' >"$T/d/e/child.yaml"
check 0 "" "base: ../parent.yaml" "$SYSDESC" query "$T/d/e/child.yaml" CPU vendor
printf 'CPU:\n  base: %s\n' "$T/d/parent.yaml" >"$T/abs.yaml"
check 0 "" "base: an absolute .yaml" "$SYSDESC" query "$T/abs.yaml" CPU vendor
printf 'GPU:\n  base: nvidia/h100-sxm\n' >"$T/cat.yaml"
check 0 "" "base: a catalog name" "$SYSDESC" query "$T/cat.yaml" GPU num_compute_units

# ---- 3. walks that end ----
C="$T/catalog"
mkdir -p "$C/v/a/b"
printf 'X:\n  device_type: GPU\n  vendor: V\n  model: M\n' >"$C/v/one.yaml"
ln -s .. "$C/v/a/b/up"
ln -s ../.. "$C/v/a/b/up2"
ln -s "$C" "$C/v/a/root"
ln -s "$C/v" "$C/v/a/b/again"
mkfifo "$C/v/pipe.yaml"
check 0 "" "list: a catalog directory with four symbolic link loops" \
    env SYSDESC_PATH="$C" "$SYSDESC" list
if grep -q '^v/one ' "$T/out" && [ "$(grep -c '^v/one ' "$T/out")" = 1 ] &&
   ! grep -q 'pipe' "$T/out"; then ok; else
    bad "list with loops: v/one once and no FIFO entry: $(head -c 300 "$T/out")"
fi
check 0 "" "show through the looped directory" env SYSDESC_PATH="$C" "$SYSDESC" show v/one
check 2 "catalog directory /proc: more than 100000 names under it" "list, SYSDESC_PATH=/proc" \
    env SYSDESC_PATH=/proc "$SYSDESC" list

# ---- 4. catalog names opened as base: is ----
C="$T/catalog4"
mkdir -p "$C/v"
printf 'SECRET: line\n' >"$T/secret"
printf 'X:\n  device_type: GPU\n  vendor: V\n  model: M\n' >"$C/v/one.yaml"
ln -s "$T/secret" "$C/v/evil.yaml"
ln -s /proc/kmsg "$C/v/kmsg.yaml"
printf 'X:\n  device_type: GPU\n  vendor: "\\e[31mRed\\x9b2J"\n  model: "M\\nforged  row"\n' \
    >"$C/v/esc.yaml"
check 0 "" "list: a catalog with entries linked to a secret and /proc/kmsg" \
    env SYSDESC_PATH="$C" "$SYSDESC" list
if grep -q '^v/one ' "$T/out" && grep -q '^v/esc ' "$T/out" && ! grep -q 'evil\|kmsg\|SECRET' "$T/out"
then ok; else bad "list: v/one and v/esc, no linked entry: $(head -c 300 "$T/out")"; fi
if grep -q "$(printf '\033')" "$T/out" || grep -q '^forged' "$T/out" ||
   ! grep -qF 'M\x0Aforged  row' "$T/out" || ! grep -qF '\x1B[31mRed\xC2\x9B2J' "$T/out"
then bad "list: vendor and model escaped: $(cat -v "$T/out" | head -c 400)"; else ok; fi
for name in v/evil v/kmsg; do
    for cmd in "show $name" "query $name GPU" "summary $name" "check $name" "convert $name" \
        "compose $name" "export --to tvm $name GPU"; do
        # shellcheck disable=SC2086
        check 2 "catalog entry '$name': " "$cmd (a link to what is not a description)" \
            env SYSDESC_PATH="$C" "$SYSDESC" $cmd
        no_secret "$cmd"
    done
done
grep -qF "is not a YAML description" "$T/err" && ok || bad "the refusal says why: $(cat "$T/err")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
