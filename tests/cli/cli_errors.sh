#!/bin/sh
# The CLI under bad conditions: every command with an unreadable file, a
# directory given as FILE, a missing file, an unknown option, missing
# arguments, --help, a closed or full standard output, -o onto /dev/full, a
# read-only directory and a full disk (the old file must stay intact), and
# the documented exit status of each case (README.md, docs/reliability.md):
# 0 ok, 1 not found, 2 bad input or usage, 3 environment.
# Environment: SYSDESC (the tool), SRCDIR (the source tree).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
export SYSDESC_PATH="$SRCDIR/systems"
T=$(mktemp -d "${TMPDIR:-/tmp}/sysdesc-cli.XXXXXX") || exit 99
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; sed 's/^/  stderr: /' "$T/err" 2>/dev/null | head -5; }
skip() { echo "skip: $*"; }

# run MODE CMD...: MODE is normal (stdout to $T/out), closed (>&-) or full
# (>/dev/full); stderr goes to $T/err, stdin is /dev/null; sets $rc.
run() {
    mode=$1
    shift
    case $mode in
    normal) "$@" >"$T/out" 2>"$T/err" </dev/null ;;
    closed) "$@" >&- 2>"$T/err" </dev/null ;;
    full) "$@" >/dev/full 2>"$T/err" </dev/null ;;
    esac
    rc=$?
}

# expect WANT DESC MODE CMD...: exit status WANT; a message on stderr when
# WANT is not 0 (an "error:" line for 2 and 3); no crash.
expect() {
    want=$1 desc=$2
    shift 2
    run "$@"
    if [ "$rc" -ne "$want" ]; then
        bad "$desc: exit $rc, expected $want"
    elif [ "$want" -ne 0 ] && ! [ -s "$T/err" ]; then
        bad "$desc: exit $rc without a message on stderr"
    elif [ "$want" -ge 2 ] && ! grep -q 'error' "$T/err"; then
        bad "$desc: exit $rc, stderr has no 'error:' line"
    else
        ok
    fi
}

# ---- fixtures ----
EX="$SRCDIR/examples/two-devices.mlir"
GOOD="$T/good.mlir"
cp "$EX" "$GOOD"
DL="$T/dl.mlir"
printf 'module attributes {dlti.dl_spec = #dlti.dl_spec<"dlti.endianness" = "little", i64 = dense<64> : vector<2xi64>>} {}\n' >"$DL"
YAML="$T/good.yaml"
printf 'CPU:\n  device_type: CPU\n  num_threads: 16\n  cache: {L1: {size_in_bytes: 49152}}\n' >"$YAML"
BROKEN="$T/broken.mlir"
printf 'module attributes {x.a = [1, 2} {}\n' >"$BROKEN"
BROKEN_YAML="$T/broken.yaml"
printf 'CPU:\n  a: [1, 2\n' >"$BROKEN_YAML"
# hwloc XML fixtures (tests/data/xml): a missing one is a failure, not a skip.
XML="$SRCDIR/tests/data/xml/one_socket.xml"
MALFORMED_XML="$SRCDIR/tests/data/xml/malformed.xml"
for f in "$XML" "$MALFORMED_XML"; do
    [ -f "$f" ] && ok || bad "fixture $f is missing"
done
DIR="$T/adir"
mkdir "$DIR"
MISSING="$T/no-such-file.mlir"
UNREADABLE="$T/unreadable.mlir"
cp "$EX" "$UNREADABLE"
chmod 000 "$UNREADABLE"
can_deny=1
if cat "$UNREADABLE" >/dev/null 2>&1; then
    can_deny=0
    skip "running as root (or with CAP_DAC_OVERRIDE): chmod 000 does not stop reads, unreadable-file cases skipped"
fi

# Every command, written once: the loops below run each of them.  It must be
# the list `sysdesc --help` prints, so that a new command is not left out.
commands="fmt query probe layout dl-import dl-export convert compose attach list show check summary schema measure roofline export fingerprint occupancy uarch"
listed=$("$SYSDESC" --help 2>/dev/null | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' | tr '\n' ' ')
[ "$listed" = "$commands " ] && ok || bad "the command list '$commands' is not the one sysdesc --help prints: '$listed'"

# The commands that read a FILE, as NAME|ARGS before FILE|ARGS after FILE.
file_cmds='fmt|| query||CPU layout||i32 dl-export|| convert|| compose|| probe|--quiet,--xml| summary|| export|--to,tvm|CPU fingerprint|| occupancy|--threads,32,--registers,0,--shared,0|GPU'

# for_file_cmds FUNCTION: calls FUNCTION NAME PRE POST for each of file_cmds.
for_file_cmds() {
    for row in $file_cmds; do
        name=${row%%|*}
        rest=${row#*|}
        pre=$(printf '%s' "${rest%%|*}" | tr ',' ' ')
        post=${rest#*|}
        "$1" "$name" "$pre" "$post"
    done
}

# ---- 0: success for every command ----
expect 0 "fmt" normal "$SYSDESC" fmt "$GOOD"
expect 0 "fmt from stdin" normal sh -c '"$1" fmt - <"$2"' sh "$SYSDESC" "$GOOD"
expect 0 "query" normal "$SYSDESC" query "$GOOD" CPU cache L1 size_in_bytes
expect 0 "layout" normal "$SYSDESC" layout "$DL" i64
expect 0 "layout props" normal "$SYSDESC" layout "$DL"
expect 0 "dl-import" normal "$SYSDESC" dl-import "e-m:e-i64:64-n8:16:32:64-S128"
expect 0 "dl-import --triple" normal "$SYSDESC" dl-import --triple x86_64-unknown-linux-gnu
expect 0 "dl-import --list" normal "$SYSDESC" dl-import --list
expect 0 "dl-export" normal "$SYSDESC" dl-export "$DL"
expect 0 "convert" normal "$SYSDESC" convert --to yaml "$GOOD"
expect 0 "convert yaml" normal "$SYSDESC" convert --to json "$YAML"
expect 0 "compose" normal "$SYSDESC" compose "$YAML" "GPU=$GOOD"
expect 0 "list" normal "$SYSDESC" list
expect 0 "attach" normal "$SYSDESC" attach "$GOOD" "$GOOD"
expect 0 "show" normal "$SYSDESC" show nvidia/h100-sxm
expect 0 "summary" normal "$SYSDESC" summary "$YAML"
expect 0 "--version" normal "$SYSDESC" --version
expect 0 "probe --xml" normal "$SYSDESC" probe --quiet --xml "$XML"

# ---- 1: not found ----
expect 1 "query: missing key" normal "$SYSDESC" query "$GOOD" CPU cache L3
expect 1 "query: missing scope" normal "$SYSDESC" query --scope nope "$GOOD" CPU
expect 1 "layout: missing scope" normal "$SYSDESC" layout --scope nope "$DL" i32
expect 1 "layout: size out of range" normal "$SYSDESC" layout "$DL" 'vector<2305843009213693952xi64>'
expect 1 "dl-import: unknown triple" normal "$SYSDESC" dl-import --triple nonsense-cpu-none
expect 1 "dl-export: no dl_spec" normal "$SYSDESC" dl-export "$GOOD"
expect 1 "show: unknown name" normal "$SYSDESC" show nvidia/no-such-gpu
# No such name: exit 1 on every command that takes one, with the entries the
# name begins (each listed in the catalog, which is read here, not assumed).
near=$(ls "$SRCDIR/systems/nvidia" | sed -n 's/^\(h100-.*\)\.yaml$/nvidia\/\1/p')
[ -n "$near" ] || bad "the catalog has no nvidia/h100-* entry to suggest"
for c in "show" "query" "summary" "convert" "compose" "check" "roofline" "export --to tvm" \
         "attach" "compose GPU=nvidia/h100:8" "fingerprint" "occupancy"; do
    # shellcheck disable=SC2086
    case $c in
    "compose GPU"*) expect 1 "$c: no such name" normal "$SYSDESC" $c ;;
    query) expect 1 "$c: no such name" normal "$SYSDESC" $c nvidia/h100 GPU num_compute_units ;;
    export*) expect 1 "$c: no such name" normal "$SYSDESC" $c nvidia/h100 GPU ;;
    occupancy) expect 1 "$c: no such name" normal "$SYSDESC" $c nvidia/h100 GPU --threads 32 \
                   --registers 0 --shared 0 ;;
    attach) expect 1 "$c: no such name" normal "$SYSDESC" $c nvidia/h100 "$GOOD" ;;
    *) expect 1 "$c: no such name" normal "$SYSDESC" $c nvidia/h100 ;;
    esac
    for n in $near; do
        grep -q "did you mean .*'$n'" "$T/err" && ok || bad "$c nvidia/h100: does not suggest $n"
    done
done
expect 1 "query: a name, cases and vendor aside" normal "$SYSDESC" query H100-SXM GPU arch
grep -q "did you mean 'nvidia/h100-sxm'?" "$T/err" && ok || bad "H100-SXM: no nvidia/h100-sxm suggested"
expect 3 "convert: a missing .yaml file is a missing file" normal "$SYSDESC" convert "$T/none.yaml"
# A key that is not there: MLIR's message with the attribute whole, as
# mlir-opt-22 prints it (longer than an error's 1 KiB text), then the keys
# that are there.
expect 1 "query: missing key in a device" normal "$SYSDESC" query nvidia/h100-sxm GPU nope
head -1 "$T/err" | grep -q '^sysdesc: error: key "nope" has no DLTI-mapping per attr: #dlti.target_device_spec<"device_type" = .*>$' &&
    [ "$(head -1 "$T/err" | wc -c)" -gt 1100 ] &&
    ok || bad "query: the not-found error does not print the device whole: $(head -c 300 "$T/err")"
grep -q '^sysdesc: hint: keys here: "device_type", .*, \.\.\. ([0-9]* in all)$' "$T/err" && ok ||
    bad "query: the hint does not list the keys there"
[ "$(sed -n 2p "$T/err" | wc -c)" -lt 600 ] && ok || bad "query: a hint of $(sed -n 2p "$T/err" | wc -c) bytes"

# ---- 2: bad input ----
expect 2 "query: FILE without a KEY" normal "$SYSDESC" query "$GOOD"
grep -q "missing KEY" "$T/err" && ok || bad "query FILE: the error does not say a KEY is missing"
expect 2 "query: NAME without a KEY" normal "$SYSDESC" query nvidia/h100-sxm
expect 2 "fmt: malformed" normal "$SYSDESC" fmt "$BROKEN"
grep -q "broken.mlir:1:31: error: " "$T/err" && ok || bad "fmt: malformed: no FILE:LINE:COL: error: line"
expect 2 "query: malformed" normal "$SYSDESC" query "$BROKEN" CPU
expect 2 "query: bad type key" normal "$SYSDESC" query "$GOOD" 'type:vector<0xf32>'
expect 2 "layout: malformed" normal "$SYSDESC" layout "$BROKEN" i32
expect 2 "layout: bad type" normal "$SYSDESC" layout "$DL" 'vector<4x'
expect 2 "dl-import: malformed" normal "$SYSDESC" dl-import "e-i32:24"
expect 2 "dl-export: malformed" normal "$SYSDESC" dl-export "$BROKEN"
expect 2 "convert: malformed MLIR" normal "$SYSDESC" convert "$BROKEN"
expect 2 "convert: malformed YAML" normal "$SYSDESC" convert "$BROKEN_YAML"
grep -q "broken.yaml:[0-9]*:[0-9]*: error: " "$T/err" && ok || bad "convert: malformed YAML: no FILE:LINE:COL: error: line"
expect 2 "compose: malformed" normal "$SYSDESC" compose "$BROKEN_YAML"
expect 2 "summary: malformed" normal "$SYSDESC" summary "$BROKEN_YAML"
expect 2 "compose: duplicate id" normal "$SYSDESC" compose "$YAML" "$YAML"
expect 2 "probe: malformed XML" normal "$SYSDESC" probe --xml "$MALFORMED_XML"
expect 2 "attach: malformed IN" normal "$SYSDESC" attach "$GOOD" "$BROKEN"
grep -q "broken.mlir:1:31: error: " "$T/err" && ok || bad "attach: malformed IN: no FILE:LINE:COL: error: line"
expect 2 "attach: malformed SPEC" normal "$SYSDESC" attach "$BROKEN" "$GOOD"
expect 3 "attach: missing IN" normal "$SYSDESC" attach "$GOOD" "$MISSING"
grep -q "no-such-file" "$T/err" && ok || bad "attach: missing IN not named"

# ---- usage errors: unknown command and options, missing arguments ----
expect 2 "no command" normal "$SYSDESC"
grep -q '^usage: sysdesc' "$T/err" && ok || bad "no command: usage not on stderr"
expect 2 "unknown command" normal "$SYSDESC" frobnicate
for c in $commands; do
    expect 2 "$c: unknown option" normal "$SYSDESC" "$c" --no-such-option
    grep -q -- "--no-such-option" "$T/err" && ok || bad "$c: unknown option not named"
done
expect 2 "fmt: two files" normal "$SYSDESC" fmt "$GOOD" "$GOOD"
expect 2 "query: no FILE" normal "$SYSDESC" query
expect 2 "query: --scope without value" normal "$SYSDESC" query --scope
expect 2 "layout: no FILE" normal "$SYSDESC" layout
expect 2 "layout: --scope without value" normal "$SYSDESC" layout --scope
expect 2 "dl-import: no STRING" normal "$SYSDESC" dl-import
expect 2 "dl-import: --triple without value" normal "$SYSDESC" dl-import --triple
expect 2 "dl-import: two STRINGs" normal "$SYSDESC" dl-import e E
expect 2 "dl-export: no FILE" normal "$SYSDESC" dl-export
expect 2 "dl-export: --scope without value" normal "$SYSDESC" dl-export --scope
expect 2 "convert: no FILE" normal "$SYSDESC" convert
expect 2 "convert: -o without value" normal "$SYSDESC" convert "$GOOD" -o
expect 2 "convert: bad format" normal "$SYSDESC" convert --to xml "$GOOD"
expect 2 "convert: two FILEs" normal "$SYSDESC" convert "$GOOD" "$GOOD"
expect 2 "compose: nothing" normal "$SYSDESC" compose
expect 2 "compose: bad count" normal "$SYSDESC" compose "$YAML:0"
# Every count that is not 1..100000 fails alike (exit 2,
# one message), none is looked up as a file named "F:-1"
for n in 0 -1 +1 '' ' 1' 100001 99999999999999999999; do
    expect 2 "compose: count '$n'" normal "$SYSDESC" compose "$YAML:$n"
    grep -qF "is not [ID=]ITEM[:N] (N from 1 to 100000)" "$T/err" || bad "compose: count '$n': $(cat "$T/err")"
done
expect 0 "compose: count 100000" normal "$SYSDESC" compose "$YAML:100000"
expect 2 "compose: --format without value" normal "$SYSDESC" compose --format
expect 2 "probe: --xml without value" normal "$SYSDESC" probe --xml
expect 2 "probe: bad format" normal "$SYSDESC" probe --format xml
expect 2 "list: argument" normal "$SYSDESC" list extra
expect 2 "show: no NAME" normal "$SYSDESC" show
expect 2 "show: bad format" normal "$SYSDESC" show --format xml nvidia/h100-sxm
expect 2 "summary: nothing" normal "$SYSDESC" summary
expect 2 "attach: nothing" normal "$SYSDESC" attach
expect 2 "attach: no IN" normal "$SYSDESC" attach "$GOOD"
expect 2 "attach: three operands" normal "$SYSDESC" attach "$GOOD" "$GOOD" "$GOOD"
expect 2 "attach: -o without value" normal "$SYSDESC" attach "$GOOD" "$GOOD" -o
expect 2 "summary: two SPECs" normal "$SYSDESC" summary "$YAML" "$YAML"
expect 2 "uarch: two NAMEs" normal "$SYSDESC" uarch zen4 zen5
expect 2 "uarch: bad format" normal "$SYSDESC" uarch --format xml zen4
expect 2 "uarch: --format without value" normal "$SYSDESC" uarch --format
expect 2 "uarch: --format without NAME" normal "$SYSDESC" uarch --format json
expect 1 "uarch: unknown NAME" normal "$SYSDESC" uarch zen6
grep -q "did you mean 'zen5'" "$T/err" && ok || bad "uarch: unknown NAME: no suggestion"

# ---- --help: exit 0, usage on stdout, nothing on stderr ----
for c in "" $commands; do
    # shellcheck disable=SC2086
    expect 0 "${c:-sysdesc} --help" normal "$SYSDESC" $c --help
    if grep -q '^usage: sysdesc' "$T/out" && ! [ -s "$T/err" ]; then ok; else bad "${c:-sysdesc} --help: usage not on stdout"; fi
    # shellcheck disable=SC2086
    expect 0 "${c:-sysdesc} -h" normal "$SYSDESC" $c -h
    # `sysdesc help [COMMAND]` prints the same, and every usage line fits
    # 80 columns
    # shellcheck disable=SC2086
    "$SYSDESC" $c --help >"$T/want" 2>/dev/null
    # shellcheck disable=SC2086
    expect 0 "sysdesc help $c" normal "$SYSDESC" help $c
    cmp -s "$T/out" "$T/want" && ok || bad "sysdesc help $c: not what ${c:-sysdesc} --help prints"
    long=$(awk 'length > 80 { print NR ": " $0 }' "$T/want")
    [ -z "$long" ] && ok || bad "${c:-sysdesc} --help: lines over 80 columns: $long"
done
expect 2 "sysdesc help NOT-A-COMMAND" normal "$SYSDESC" help no-such-command

# ---- files: missing, a directory, unreadable: exit 3 ----
file_case() { # NAME PRE POST
    name=$1 pre=$2 post=$3
    # shellcheck disable=SC2086
    expect 3 "$name: missing file" normal "$SYSDESC" "$name" $pre "$MISSING" $post
    grep -q "no-such-file" "$T/err" && ok || bad "$name: missing file not named"
    # shellcheck disable=SC2086
    expect 3 "$name: directory as FILE" normal "$SYSDESC" "$name" $pre "$DIR" $post
    grep -q "Is a directory" "$T/err" && ok || bad "$name: directory as FILE: message does not say why"
    if [ "$can_deny" = 1 ]; then
        # shellcheck disable=SC2086
        expect 3 "$name: unreadable file" normal "$SYSDESC" "$name" $pre "$UNREADABLE" $post
        grep -q "unreadable" "$T/err" && ok || bad "$name: unreadable file not named"
    fi
}
for_file_cmds file_case
expect 3 "convert: missing file (not a catalog name either)" normal "$SYSDESC" convert "$MISSING"
expect 3 "fmt: stdin closed" normal sh -c '"$1" fmt - <&-' sh "$SYSDESC"

# ---- standard output closed (>&-) or full (/dev/full): exit 3, a message ----
out_case() { # DESC CMD...
    d=$1
    shift
    expect 3 "$d >&-" closed "$@"
    grep -q "standard output" "$T/err" && ok || bad "$d >&-: message does not name standard output"
    expect 3 "$d >/dev/full" full "$@"
    grep -q "No space left" "$T/err" && ok || bad "$d >/dev/full: message does not say why"
}
out_case "sysdesc --help" "$SYSDESC" --help
out_case "sysdesc --version" "$SYSDESC" --version
for c in $commands; do
    out_case "$c --help" "$SYSDESC" "$c" --help
done
out_case "fmt" "$SYSDESC" fmt "$GOOD"
out_case "query" "$SYSDESC" query "$GOOD" CPU cache L1 size_in_bytes
out_case "layout TYPE" "$SYSDESC" layout "$DL" i64 i32 f32
out_case "layout props" "$SYSDESC" layout "$DL"
out_case "dl-import" "$SYSDESC" dl-import "e-m:e-i64:64"
out_case "dl-import --triple" "$SYSDESC" dl-import --triple x86_64-unknown-linux-gnu
out_case "dl-import --list" "$SYSDESC" dl-import --list
out_case "dl-export" "$SYSDESC" dl-export "$DL"
for f in mlir attr yaml json; do
    out_case "convert --to $f" "$SYSDESC" convert --to "$f" "$GOOD"
done
out_case "compose" "$SYSDESC" compose "$YAML" "GPU=$GOOD"
out_case "list" "$SYSDESC" list
out_case "show" "$SYSDESC" show nvidia/h100-sxm
out_case "summary" "$SYSDESC" summary nodes/dgx-h100
out_case "fingerprint" "$SYSDESC" fingerprint nodes/dgx-h100
out_case "occupancy" "$SYSDESC" occupancy nvidia/h100-sxm GPU --threads 256 --registers 64 --shared 0
out_case "uarch" "$SYSDESC" uarch
out_case "uarch NAME" "$SYSDESC" uarch zen4
out_case "probe --xml" "$SYSDESC" probe --quiet --xml "$XML"
out_case "probe --xml --format yaml" "$SYSDESC" probe --quiet --format yaml --xml "$XML"

# ---- -o FILE: atomic; the old file survives any failure ----
"$SYSDESC" convert "$GOOD" >"$T/expected.mlir" 2>/dev/null
old="$T/old-contents"
printf 'old contents: must survive a failed write\n' >"$old"
# same_bytes FILE DESC: FILE still holds the old contents
same_bytes() {
    if cmp -s "$1" "$old"; then ok; else bad "$2: the old file was changed"; fi
}
expect 0 "convert -o FILE" normal "$SYSDESC" convert -o "$T/new.mlir" "$GOOD"
cmp -s "$T/new.mlir" "$T/expected.mlir" && ok || bad "convert -o FILE: contents differ from stdout"
cp "$old" "$T/keep.mlir"
chmod 640 "$T/keep.mlir"
expect 0 "convert -o existing FILE" normal "$SYSDESC" convert -o "$T/keep.mlir" "$GOOD"
cmp -s "$T/keep.mlir" "$T/expected.mlir" && ok || bad "convert -o existing: not replaced"
[ "$(ls -l "$T/keep.mlir" | cut -c1-10)" = "-rw-r-----" ] && ok || bad "convert -o existing: mode not kept"
expect 0 "convert -o -" normal "$SYSDESC" convert -o - "$GOOD"
cmp -s "$T/out" "$T/expected.mlir" && ok || bad "convert -o -: not on standard output"
# a failed load writes nothing
cp "$old" "$T/keep2.mlir"
expect 2 "convert -o FILE of a bad input" normal "$SYSDESC" convert -o "$T/keep2.mlir" "$BROKEN"
same_bytes "$T/keep2.mlir" "convert -o of a bad input"
# devices and links are written through, never replaced
expect 3 "convert -o /dev/full" normal "$SYSDESC" convert -o /dev/full "$GOOD"
grep -q "No space left" "$T/err" && ok || bad "convert -o /dev/full: message does not say why"
[ -c /dev/full ] && ok || bad "convert -o /dev/full replaced the device"
expect 0 "convert -o /dev/null" normal "$SYSDESC" convert -o /dev/null "$GOOD"
[ -c /dev/null ] && ok || bad "convert -o /dev/null replaced the device"
ln -s /dev/full "$T/full-link"
expect 3 "convert -o LINK-TO-/dev/full" normal "$SYSDESC" convert -o "$T/full-link" "$GOOD"
[ -L "$T/full-link" ] && ok || bad "convert -o LINK: the link was replaced"
cp "$old" "$T/target.mlir"
ln -s target.mlir "$T/file-link"
expect 0 "convert -o LINK-TO-FILE" normal "$SYSDESC" convert -o "$T/file-link" "$GOOD"
[ -L "$T/file-link" ] && cmp -s "$T/target.mlir" "$T/expected.mlir" && ok ||
    bad "convert -o LINK-TO-FILE: the link was not kept or the target not written"
# a link to no file yet (through a second link): the file it names is made
ln -s made.mlir "$T/dangling-2" && ln -s dangling-2 "$T/dangling-link"
expect 0 "convert -o DANGLING-LINK" normal "$SYSDESC" convert -o "$T/dangling-link" "$GOOD"
[ -L "$T/dangling-link" ] && [ -L "$T/dangling-2" ] && cmp -s "$T/made.mlir" "$T/expected.mlir" && ok ||
    bad "convert -o DANGLING-LINK: the links were not kept or the file they name not made"
ln -s no-such-dir/x.mlir "$T/dangling-nodir"
expect 3 "convert -o DANGLING-LINK into a missing directory" normal "$SYSDESC" convert -o "$T/dangling-nodir" "$GOOD"
[ -L "$T/dangling-nodir" ] && ok || bad "convert -o DANGLING-LINK (missing directory): the link was replaced"
ln -s loop-b "$T/loop-a" && ln -s loop-a "$T/loop-b"
expect 3 "convert -o LINK-LOOP" normal "$SYSDESC" convert -o "$T/loop-a" "$GOOD"
grep -q "Too many levels of symbolic links" "$T/err" && [ -L "$T/loop-a" ] && ok ||
    bad "convert -o LINK-LOOP: no reason, or the link was replaced"
if mkfifo "$T/fifo" 2>/dev/null; then
    cat "$T/fifo" >"$T/fifo.out" &
    reader=$!
    expect 0 "convert -o FIFO" normal "$SYSDESC" convert -o "$T/fifo" "$GOOD"
    wait "$reader"
    [ -p "$T/fifo" ] && cmp -s "$T/fifo.out" "$T/expected.mlir" && ok ||
        bad "convert -o FIFO: the FIFO was replaced or the reader got other bytes"
else
    skip "mkfifo failed: -o FIFO case skipped"
fi
expect 3 "convert -o DIRECTORY" normal "$SYSDESC" convert -o "$DIR" "$GOOD"
[ -d "$DIR" ] && ok || bad "convert -o DIRECTORY: directory replaced"
expect 3 "convert -o MISSING-DIR/FILE" normal "$SYSDESC" convert -o "$T/no/such/dir/out.mlir" "$GOOD"
expect 3 "compose -o /dev/full" normal "$SYSDESC" compose -o /dev/full "$YAML"
expect 3 "probe -o /dev/full" normal "$SYSDESC" probe --quiet --xml "$XML" -o /dev/full
expect 3 "probe --format json -o /dev/full" normal "$SYSDESC" probe --quiet --format json --xml "$XML" -o /dev/full
# a read-only directory (not effective for root)
RO="$T/readonly"
mkdir "$RO"
cp "$old" "$RO/out.mlir"
chmod 555 "$RO"
if touch "$RO/probe-write" 2>/dev/null; then
    rm -f "$RO/probe-write"
    skip "running as root: a read-only directory is writable, read-only -o case skipped"
else
    for c in convert compose; do
        expect 3 "$c -o READ-ONLY-DIR/FILE" normal "$SYSDESC" "$c" -o "$RO/out.mlir" "$GOOD"
        same_bytes "$RO/out.mlir" "$c -o into a read-only directory"
    done
    [ "$(ls -A "$RO")" = out.mlir ] && ok || bad "-o into a read-only directory left files: $(ls -A "$RO")"
fi
chmod 755 "$RO"

# A full disk: a 64 KiB tmpfs in a private mount namespace (as root, or as a
# user with user namespaces), filled up, then -o onto an existing file.
cat >"$T/fulldisk.sh" <<'EOF_FULL'
set -u
M=$1 SYSDESC=$2 IN=$3 OLD=$4 R=$5
mount -t tmpfs -o size=64k tmpfs "$M" 2>/dev/null || exit 77
cp "$OLD" "$M/out.mlir"
dd if=/dev/zero of="$M/filler" bs=1024 2>/dev/null
for c in convert compose; do
    "$SYSDESC" "$c" -o "$M/out.mlir" "$IN" 2>"$R.$c.err"
    echo $? >"$R.$c.rc"
    cmp -s "$M/out.mlir" "$OLD" && echo same >"$R.$c.cmp"
    ls -A "$M" | tr '\n' ' ' >"$R.$c.ls"
done
exit 0
EOF_FULL
mkdir "$T/small"
full_rc=77
for how in "-m" "-rm"; do
    if command -v unshare >/dev/null 2>&1; then
        unshare $how sh "$T/fulldisk.sh" "$T/small" "$SYSDESC" "$YAML" "$old" "$T/fd" 2>/dev/null
        full_rc=$?
        [ "$full_rc" = 0 ] && break
    fi
done
if [ "$full_rc" = 0 ]; then
    for c in convert compose; do
        [ "$(cat "$T/fd.$c.rc")" = 3 ] && ok || { bad "$c -o onto a full disk: exit $(cat "$T/fd.$c.rc"), expected 3"; cat "$T/fd.$c.err"; }
        grep -q "No space left" "$T/fd.$c.err" && ok || bad "$c -o onto a full disk: message does not say why"
        [ -f "$T/fd.$c.cmp" ] && ok || bad "$c -o onto a full disk: the old file was changed"
        [ "$(cat "$T/fd.$c.ls")" = "filler out.mlir " ] && ok || bad "$c -o onto a full disk: left $(cat "$T/fd.$c.ls")"
    done
else
    skip "cannot mount a tmpfs (unshare -m / -rm): full-disk case covered by -o /dev/full only"
fi

# "--" ends the options of every command; what follows
# is an operand even when it starts with '-'
expect 0 "fmt --" normal "$SYSDESC" fmt -- "$EX"
expect 0 "query --" normal "$SYSDESC" query -- "$EX" CPU
expect 0 "layout --" normal "$SYSDESC" layout -- "$EX" i32
expect 0 "dl-import --" normal "$SYSDESC" dl-import -- e
expect 0 "convert --" normal "$SYSDESC" convert -- "$EX"
expect 0 "compose --" normal "$SYSDESC" compose -- "$YAML"
expect 0 "list --" normal "$SYSDESC" list --
expect 0 "show --" normal "$SYSDESC" show -- nvidia/h100-sxm
expect 0 "check --" normal "$SYSDESC" check -- "$YAML"
expect 0 "summary --" normal "$SYSDESC" summary -- "$YAML"
expect 0 "schema --" normal "$SYSDESC" schema --
expect 0 "probe --" normal "$SYSDESC" probe --xml "$SRCDIR/tests/data/xml/gpu.xml" --
expect 3 "fmt -- --help (a file named --help)" normal "$SYSDESC" fmt -- --help
expect 2 "list -- x" normal "$SYSDESC" list -- x
# layout answers every TYPE; one it cannot answer does not hide the rest
printf 'module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {}\n' >"$T/dl.mlir"
expect 1 "layout: a type that does not fit, among others" normal "$SYSDESC" layout "$T/dl.mlir" i32 'vector<9223372036854775807x3xi8>' 'bogus<' i64
if ! grep -q '^i32: size = 4' "$T/out" || ! grep -q '^i64: size = 8' "$T/out" ||
    ! grep -qF "layout: 2 of 4 types not answered" "$T/err" || ! grep -qF "invalid type 'bogus<'" "$T/err"; then
    bad "layout: the answers or the errors of the others are missing: $(cat "$T/out" "$T/err")"
fi

# ---- few file descriptors: the whole catalog or the real cause ----
# With 4 to 9 descriptors `list` either lists every entry (exit 0) or says
# it ran out of them (exit 3): never a shorter catalog, never "not found".
"$SYSDESC" list >"$T/full-list" 2>/dev/null
for n in 4 5 6 7 8 9; do
    run normal sh -c 'ulimit -n '"$n"' && exec "$@"' sh "$SYSDESC" list
    if [ "$rc" -eq 0 ] && cmp -s "$T/out" "$T/full-list"; then ok
    elif [ "$rc" -eq 3 ] && grep -q "Too many open files" "$T/err"; then ok
    else bad "list with ulimit -n $n: exit $rc, $(wc -l <"$T/out") of $(wc -l <"$T/full-list") lines"; fi
done
# A host probe short of descriptors: the whole probe, or exit 3 with the
# cause; never less (with one free it printed one page size of three and
# flags its compilers were never asked about, exit 0).
"$SYSDESC" probe --runtimes=none --no-cache -q >"$T/full-probe" 2>/dev/null
for n in 4 5 8 16 34 40; do
    run normal sh -c 'ulimit -n '"$n"' && exec "$@"' sh "$SYSDESC" probe --runtimes=none --no-cache -q
    if [ "$rc" -eq 0 ] && cmp -s "$T/out" "$T/full-probe"; then ok
    elif [ "$rc" -eq 3 ] && grep -q "file descriptors free .*Too many open files" "$T/err"; then ok
    else bad "probe with ulimit -n $n: exit $rc, $(cmp "$T/out" "$T/full-probe" 2>&1 | head -1) $(head -c 200 "$T/err")"; fi
done

# ---- a write past `ulimit -f`, a signal mid-write, writers at once ----
# The old file stays whole in each case, and no temporary file is left.
cp "$old" "$T/limited.mlir"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "D%d:\n  device_type: GPU\n  num_compute_units: %d\n", i, i + 1 }' \
    >"$T/many.yaml"
run normal sh -c 'ulimit -f 64 && exec "$@"' sh "$SYSDESC" convert --to mlir -o "$T/limited.mlir" "$T/many.yaml"
[ "$rc" -eq 3 ] && grep -q "File too large" "$T/err" && ok ||
    bad "-o past ulimit -f: exit $rc (3 and 'File too large' wanted, not death by SIGXFSZ)"
same_bytes "$T/limited.mlir" "-o past ulimit -f"
ls -a "$T" | grep -q '^\.limited\.mlir\.' && bad "-o past ulimit -f left a temporary file" || ok
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null &&
    env --default-signal=INT --ignore-signal=HUP true 2>/dev/null; then
    for sig in TERM INT HUP; do
        cp "$old" "$T/signalled.mlir"
        # the signal arrives when the whole temporary file is written, at its
        # fsync; its default action, however this test was started (a
        # background job of a script has SIGINT ignored)
        run normal env --default-signal=$sig strace -o /dev/null -e trace=fsync \
            -e inject=fsync:signal=SIG$sig "$SYSDESC" convert --to mlir -o "$T/signalled.mlir" "$T/many.yaml"
        [ "$rc" -ne 0 ] && ok || bad "SIG$sig at the fsync of -o: exit 0"
        same_bytes "$T/signalled.mlir" "SIG$sig mid-write"
        ls -a "$T" | grep -q '^\.signalled\.mlir\.' &&
            bad "SIG$sig mid-write left a temporary file: $(ls -a "$T" | grep signalled)" || ok
    done
    # a signal the caller ignores (nohup's SIGHUP) does not end the write
    cp "$old" "$T/signalled.mlir"
    # (LeakSanitizer cannot run under ptrace: no leak check at this exit)
    run normal env --ignore-signal=HUP ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -o /dev/null -e trace=fsync \
        -e inject=fsync:signal=SIGHUP "$SYSDESC" convert --to mlir -o "$T/signalled.mlir" "$T/many.yaml"
    [ "$rc" -eq 0 ] && ! cmp -s "$T/signalled.mlir" "$old" && ok ||
        bad "an ignored SIGHUP at the fsync of -o: exit $rc, the file $(cmp -s "$T/signalled.mlir" "$old" && echo not) written"
else
    skip "no usable strace: the signal mid-write is not tested"
fi
printf 'module {\n}\n' >"$T/merged.mlir"
for i in 1 2 3 4 5 6 7 8 9; do
    printf 'G%d:\n  device_type: GPU\n  num_compute_units: %d\n' "$i" "$i" >"$T/g$i.yaml"
done
for i in 1 2 3 4 5 6 7 8 9; do
    "$SYSDESC" attach --merge "$T/g$i.yaml" "$T/merged.mlir" -o "$T/merged.mlir" 2>/dev/null &
done
wait
got=$(grep -o '"G[0-9]"' "$T/merged.mlir" | sort | tr -d '\n')
[ "$got" = '"G1""G2""G3""G4""G5""G6""G7""G8""G9"' ] && ok ||
    bad "nine attach --merge -o F ... F at once kept $got of the nine devices"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
