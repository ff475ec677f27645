#!/bin/sh
# One reader for every command (issues 33 and 34, docs/yaml.md "Formats"):
# every command that reads a description (query, convert, check, summary,
# compose, attach, layout, dl-export) tells MLIR, YAML and typed JSON apart
# by one rule (the content first, the extension where the content could be
# either), answers alike whatever the format of the same description, refuses
# plain JSON with the hint, and applies one size limit per format (YAML and
# JSON 64 MiB, MLIR 1 GiB) before reading a file over it.
#  - device ids that once made a YAML file look like MLIR (`rack1.node-a`,
#    `v1.0 GPU`, dotted ids with other characters), as written by hand and
#    by `compose --format yaml ID=...`, under every file name and on
#    standard input;
#  - the same description as MLIR, YAML and typed JSON: each command's
#    output identical (the MLIR one is the peer, made at run time);
#  - content first: MLIR in a file named .yaml, YAML in one named .mlir;
#  - files just over 64 MiB (sparse: only their first line is written), as
#    YAML and typed JSON: refused at once by every command; as MLIR, read.
# Environment: SYSDESC (the tool), SRCDIR (the source tree).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
export SYSDESC_PATH="$SRCDIR/systems"
T=$(mktemp -d "${TMPDIR:-/tmp}/sysdesc-formats.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

printf 'module {\n}\n' >"$T/in.mlir"

# run_cmd NAME FILE ID: one command on FILE (device ID), output in $T/out,
# errors in $T/err, exit status in rc.
run_cmd() {
    file=$2
    case $1 in
    query) set -- query "$2" "$3" num_cores ;;
    convert) set -- convert --to attr "$2" ;;
    check) set -- check "$2" ;;
    summary) set -- summary "$2" ;;
    compose) set -- compose --format attr "$2" ;;
    attach) set -- attach "$2" "$T/in.mlir" ;;
    layout) set -- layout "$2" i64 f80 ;;
    dl-export) set -- dl-export "$2" ;;
    esac
    if [ "$file" = - ]; then
        "$SYSDESC" "$@" <"$STDIN" >"$T/out" 2>"$T/err"
    else
        "$SYSDESC" "$@" >"$T/out" 2>"$T/err" </dev/null
    fi
    rc=$?
}
COMMANDS="query convert check summary compose attach layout dl-export"

# same_answers WHAT FILE ID PEER: every command on FILE exits 0 and prints
# what it prints for PEER (check names the file: its exit only).
same_answers() {
    for c in $COMMANDS; do
        run_cmd "$c" "$4" "$3"
        cp "$T/out" "$T/peer"
        peer_rc=$rc
        run_cmd "$c" "$2" "$3"
        if [ "$rc" -ne 0 ] || [ "$peer_rc" -ne 0 ]; then
            bad "$1: $c: exit $rc (the MLIR peer: $peer_rc): $(head -c 300 "$T/err")"
        elif [ "$c" != check ] && ! cmp -s "$T/out" "$T/peer"; then
            bad "$1: $c answers otherwise than for the MLIR peer: $(head -c 200 "$T/out")"
        else
            ok
        fi
    done
}

# ---- device ids that looked like MLIR, every format, every command ----
for id in 'rack1.node-a' 'v1.0 GPU' 'cn017.GPU3' 'a.b (x)' 'gpu.x @rack1' 'func.func' 'module'; do
    printf 'data_layout: x86_64-unknown-linux-gnu\n"%s":\n  device_type: CPU\n  num_cores: 8\n' "$id" >"$T/q.yaml"
    "$SYSDESC" convert --to mlir "$T/q.yaml" >"$T/peer.mlir" 2>"$T/err" || bad "'$id': no MLIR peer: $(cat "$T/err")"
    "$SYSDESC" convert --to yaml "$T/peer.mlir" >"$T/d.yaml" 2>"$T/err" || bad "'$id': convert --to yaml: $(cat "$T/err")"
    "$SYSDESC" convert --to json --typed "$T/peer.mlir" >"$T/d.json" 2>"$T/err" || bad "'$id': convert --to json --typed: $(cat "$T/err")"
    # the YAML emitter writes the id plain where its content says YAML, else quoted
    head -n 2 "$T/d.yaml" | tail -n 1 >"$T/line"
    # YAML and typed JSON, under their own names, none, another's, and on standard input
    for f in d.yaml d.json; do
        cp "$T/$f" "$T/noext"
        same_answers "'$id' as $f" "$T/$f" "$id" "$T/peer.mlir"
        same_answers "'$id' as $f, no extension" "$T/noext" "$id" "$T/peer.mlir"
        STDIN=$T/$f same_answers "'$id' as $f on standard input" - "$id" "$T/peer.mlir"
    done
    cp "$T/d.yaml" "$T/yaml_named.mlir"
    same_answers "'$id' as YAML named .mlir" "$T/yaml_named.mlir" "$id" "$T/peer.mlir"
    cp "$T/d.yaml" "$T/yaml_named.json"
    same_answers "'$id' as YAML named .json" "$T/yaml_named.json" "$id" "$T/peer.mlir"
done

# hand-written YAML whose first id is plain: read as YAML whatever it is named
for id in 'rack1.node-a' 'v1.0 GPU' 'cn017.GPU3'; do
    printf '%s:\n  device_type: CPU\n  num_cores: 8\n' "$id" >"$T/hand"
    for name in h.yaml h.yml h; do
        cp "$T/hand" "$T/$name"
        run_cmd query "$T/$name" "$id"
        [ "$rc" -eq 0 ] && [ "$(cat "$T/out")" = "8 : i64" ] && ok ||
            bad "hand-written YAML, first id '$id', as $name: exit $rc $(cat "$T/out" "$T/err")"
    done
done

# compose --format yaml ID=...: what it writes, every command reads
printf 'X:\n  device_type: CPU\n  num_cores: 8\n' >"$T/one.yaml"
for id in 'rack1.node-a' 'v1.0 GPU' 'a.b (x)' 'gpu.x @rack1'; do
    "$SYSDESC" compose --format yaml "$id=$T/one.yaml" >"$T/c.yaml" 2>"$T/err" ||
        bad "compose --format yaml '$id=...': $(cat "$T/err")"
    "$SYSDESC" compose --format mlir "$id=$T/one.yaml" >"$T/c.mlir"
    for c in query convert summary; do
        run_cmd "$c" "$T/c.mlir" "$id"
        cp "$T/out" "$T/peer"
        STDIN=$T/c.yaml run_cmd "$c" - "$id"
        [ "$rc" -eq 0 ] && cmp -s "$T/out" "$T/peer" && ok ||
            bad "compose --format yaml '$id=...' read by $c from standard input: exit $rc $(head -c 200 "$T/err")"
    done
done

# ---- content first: the extension only breaks ties ----
printf 'module attributes {dlti.target_system_spec = #dlti.target_system_spec<"C" = #dlti.target_device_spec<"num_cores" = 8 : i64>>} {\n}\n' >"$T/mlir_named.yaml"
run_cmd query "$T/mlir_named.yaml" C
[ "$rc" -eq 0 ] && [ "$(cat "$T/out")" = "8 : i64" ] && ok || bad "MLIR named .yaml: exit $rc $(cat "$T/err")"
printf 'func.func @f(%%a: i32) {\n  return\n}\n' >"$T/op.yaml"
run_cmd layout "$T/op.yaml" x
[ "$rc" -eq 0 ] && ok || bad "an MLIR file of ops named .yaml: layout exit $rc $(cat "$T/err")"

# ---- plain JSON: refused by every command, with the hint ----
"$SYSDESC" convert --to json "$T/peer.mlir" >"$T/plain.json"
for c in $COMMANDS; do
    run_cmd "$c" "$T/plain.json" module
    [ "$rc" -eq 2 ] && grep -q "plain JSON is not read" "$T/err" && grep -q -- "--typed" "$T/err" && ok ||
        bad "$c of plain JSON: exit $rc, not refused with the hint: $(head -c 300 "$T/err")"
done

# ---- one size limit per format, for every command ----
# sparse_file NAME FIRST-LINE: NAME of 64 MiB + 1 bytes, FIRST-LINE written
sparse_file() {
    printf '%s' "$2" >"$T/$1"
    truncate -s 67108865 "$T/$1"
}
sparse_file big.yaml 'X:
  num_cores: 8
#'
sparse_file big_noext 'X:
  num_cores: 8
#'
sparse_file big.json '{"$format": "sysdesc typed JSON 1", "X": {"num_cores": 8}}
'
for f in big.yaml big_noext big.json; do
    case $f in *.json) fmt=JSON ;; *) fmt=YAML ;; esac
    for c in $COMMANDS; do
        t0=$(date +%s)
        run_cmd "$c" "$T/$f" X
        t1=$(date +%s)
        if [ "$rc" -eq 2 ] && grep -q "larger than the limit of 67108864 bytes for $fmt" "$T/err" &&
            [ $((t1 - t0)) -le 5 ]; then ok; else
            bad "$c of a $fmt file over 64 MiB ($f): exit $rc in $((t1 - t0)) s: $(head -c 300 "$T/err")"
        fi
    done
done
# Reading 64 MiB is the same code under a sanitizer, at ten times the cost:
# the normal build reads them (standard input, then MLIR's 1 GiB limit).
if [ "${SYSDESC_TEST_SANITIZE:-none}" != none ]; then
    echo "note: the 64 MiB reads are left to the normal build under $SYSDESC_TEST_SANITIZE"
    rm -f "$T"/big*
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi
# ... on standard input too (read, then refused)
STDIN=$T/big.yaml run_cmd query - X
[ "$rc" -eq 2 ] && grep -q "larger than the limit of 67108864 bytes for YAML" "$T/err" && ok ||
    bad "query of YAML over 64 MiB on standard input: exit $rc $(head -c 300 "$T/err")"
# MLIR's limit is 1 GiB: a file of 64 MiB + 1 is read (its NUL bytes are the error)
sparse_file big.mlir 'module {}
'
run_cmd query "$T/big.mlir" X
[ "$rc" -eq 2 ] && grep -q "unexpected NUL byte" "$T/err" && ! grep -q "larger than the limit" "$T/err" && ok ||
    bad "MLIR of 64 MiB + 1 is read (1 GiB limit): exit $rc $(head -c 300 "$T/err")"
rm -f "$T"/big*

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
