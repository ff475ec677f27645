#!/bin/sh
# Hostile input text through the CLI (docs/reliability.md): CRLF line endings,
# byte-order marks, embedded NUL bytes, invalid UTF-8, NaN where keys are
# compared, integer overflow in literals, dense sizes and layout arithmetic,
# hexadecimal literals too wide, and the limits (depth, string length, YAML
# nesting, alias expansion, input size) with errors that name the limit.
# The library-level cases are in test_parse.c, test_types.c, test_layout.c,
# test_yaml.c and test_llvm_dl.c; this checks what the tool makes of them
# (exit status, FILE:LINE:COL, no truncation at a NUL when reading a file).
# The YAML here is about bytes, not keys: it is converted with --no-check
# (the device schema has its own tests, tests/sysdesc/check/).
# Environment: SYSDESC (the tool), SRCDIR (the source tree).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
export SYSDESC_PATH="$SRCDIR/systems"
. "$SRCDIR/tests/timebound.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/sysdesc-bad.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    sed 's/^/  stderr: /' "$T/err" 2>/dev/null | head -3
}

# check WANT_RC STDERR_SUBSTRING DESC CMD...: exit status and a stderr
# substring ("" for none); stdout in $T/out.
check() {
    want=$1 msg=$2 desc=$3
    shift 3
    "$@" >"$T/out" 2>"$T/err" </dev/null
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        bad "$desc: exit $rc, expected $want"
    elif [ -n "$msg" ] && ! grep -qF -- "$msg" "$T/err"; then
        bad "$desc: stderr lacks '$msg'"
    else
        ok
    fi
}
# out_is TEXT DESC: $T/out is exactly TEXT plus a newline
out_is() {
    if [ "$(cat "$T/out")" = "$1" ]; then ok; else
        bad "$2: printed '$(head -c 300 "$T/out")', expected '$1'"
    fi
}
# mlir NAME PRINTF-FORMAT: writes $T/NAME.mlir with printf (octal escapes)
mlir() { printf "$2" >"$T/$1.mlir"; }
yaml() { printf "$2" >"$T/$1.yaml"; }

# ---- CRLF line endings and byte-order marks ----
mlir lf 'module attributes {\n  // comment\n  x.a = 1,\n  x.s = "a b"\n} {\n}\n'
mlir crlf 'module attributes {\r\n  // comment\r\n  x.a = 1,\r\n  x.s = "a b"\r\n} {\r\n}\r\n'
mlir bom '\357\273\277module attributes {\n  x.a = 1,\n  x.s = "a b"\n} {\n}\n'
mlir bomcrlf '\357\273\277module attributes {\r\n  x.a = 1,\r\n  x.s = "a b"\r\n} {\r\n}\r\n'
"$SYSDESC" fmt "$T/lf.mlir" >"$T/lf.out" 2>/dev/null
for f in crlf bom bomcrlf; do
    check 0 "" "MLIR $f" "$SYSDESC" fmt "$T/$f.mlir"
    cmp -s "$T/out" "$T/lf.out" && ok || bad "MLIR $f: printed differently from LF"
done
mlir crlf_err 'module attributes {\r\n  x.a = 1,\r\n  x.b = [1, 2}\r\n} {}\r\n'
check 2 "crlf_err.mlir:3:14: error: expected ',' or ']'" "MLIR CRLF error position" "$SYSDESC" fmt "$T/crlf_err.mlir"
mlir bom_err '\357\273\277module attributes {x.a = [1, 2} {}'
# (MLIR columns are byte columns; after a BOM they count its three bytes)
check 2 "bom_err.mlir:1:34: error: expected ',' or ']'" "MLIR BOM error position" "$SYSDESC" fmt "$T/bom_err.mlir"
mlir bom_twice '\357\273\277\357\273\277module {}'
check 2 "bom_twice.mlir:1:4: error: expected attribute value" "MLIR second BOM" "$SYSDESC" fmt "$T/bom_twice.mlir"
mlir cr_in_string 'module attributes {x.a = "a\r\nb"} {}'
check 2 "expected '\"' in string literal" "MLIR raw CR LF in a string" "$SYSDESC" fmt "$T/cr_in_string.mlir"
printf 'CPU:\n  num_threads: 16\n  name: "a b"\n  cache: {L1: 32768}\n' >"$T/lf.yaml"
"$SYSDESC" convert --no-check --to attr "$T/lf.yaml" >"$T/lfy.out" 2>/dev/null
yaml crlf 'CPU:\r\n  num_threads: 16\r\n  name: "a b"\r\n  cache: {L1: 32768}\r\n'
yaml bom '\357\273\277CPU:\n  num_threads: 16\n  name: "a b"\n  cache: {L1: 32768}\n'
yaml bomcrlf '\357\273\277CPU:\r\n  num_threads: 16\r\n  name: "a b"\r\n  cache: {L1: 32768}\r\n'
for f in crlf bom bomcrlf; do
    check 0 "" "YAML $f" "$SYSDESC" convert --no-check --to attr "$T/$f.yaml"
    cmp -s "$T/out" "$T/lfy.out" && ok || bad "YAML $f: converted differently from LF"
done
yaml crlf_err 'CPU:\r\n  a: 1\r\n  a: 2\r\n'
check 2 "crlf_err.yaml:3:3: error: duplicate key 'a'" "YAML CRLF error position" "$SYSDESC" convert --no-check "$T/crlf_err.yaml"

# ---- embedded NUL bytes: an error at the byte, never a silent truncation ----
mlir nul_after 'module {}\000garbage'
check 2 "nul_after.mlir:1:10: error: unexpected NUL byte in input" "MLIR NUL after the module" "$SYSDESC" fmt "$T/nul_after.mlir"
mlir nul_after_attr '#dlti.map<>\000'
check 2 "unexpected NUL byte in input" "MLIR NUL after an attribute" "$SYSDESC" fmt "$T/nul_after_attr.mlir"
mlir nul_value 'module attributes {x.a = 1\000} {}'
check 2 "nul_value.mlir:1:27: error: unexpected NUL byte in input" "MLIR NUL after a value" "$SYSDESC" fmt "$T/nul_value.mlir"
mlir nul_string 'module attributes {x.a = "a\000b"} {}'
check 2 "nul_string.mlir:1:28: error: NUL byte in string literal (write it as \\00)" "MLIR NUL in a string" "$SYSDESC" fmt "$T/nul_string.mlir"
check 2 "unexpected NUL byte" "layout: NUL after the module" "$SYSDESC" layout "$T/nul_after.mlir" i32
check 2 "unexpected NUL byte" "query: NUL after the module" "$SYSDESC" query "$T/nul_after.mlir" x
mlir nul_escaped '#dlti.map<"v" = "a\\00b">'
check 0 "" "MLIR escaped NUL in a string" "$SYSDESC" query "$T/nul_escaped.mlir" v
out_is '"a\00b"' "MLIR escaped NUL in a string"
# (a NUL inside a // comment is skipped with the comment, as MLIR's lexer does)
# (libyaml's reader errors carry a byte offset, not a mark: sysdesc counts
# the line and column)
yaml nul_value 'CPU:\n  a: "x\000y"\n'
check 2 "nul_value.yaml:2:8: error: control characters are not allowed" "YAML NUL in a value" "$SYSDESC" convert --no-check "$T/nul_value.yaml"
yaml nul_end 'CPU:\n  a: 1\n\000'
check 2 "nul_end.yaml:3:1: error: control characters are not allowed" "YAML NUL at the end" "$SYSDESC" convert --no-check "$T/nul_end.yaml"
yaml nul_crlf '\357\273\277CPU:\r\n  b: 1\r\n  \303\251\303\251: "\001"\r\n'
check 2 "nul_crlf.yaml:3:8: error: control characters are not allowed" "YAML control character after a BOM, CRLF and UTF-8" "$SYSDESC" convert --no-check "$T/nul_crlf.yaml"
yaml nul_escaped 'CPU:\n  a: "x\\0y"\n'
check 0 "" "YAML escaped NUL" "$SYSDESC" convert --no-check --to attr "$T/nul_escaped.yaml"
grep -qF '"x\00y"' "$T/out" && ok || bad "YAML escaped NUL: not kept as \\00"

# ---- invalid UTF-8 ----
# (libyaml's reader names the fault: leading octet, overlong, surrogate or
# above U+10FFFF, truncated; a truncated sequence is reported at the octet
# that should have continued it, the closing quote)
for s in '\377' '\300\200' '\355\240\200' '\364\220\200\200' '\303'; do
    mlir utf8 "module attributes {x.a = \"$s\"} {}"
    check 2 "utf8.mlir:1:27: error: invalid UTF-8 in string literal" "MLIR invalid UTF-8 $s" "$SYSDESC" fmt "$T/utf8.mlir"
    case $s in
    '\377') msg="2:7: error: invalid leading UTF-8 octet" ;;
    '\300\200') msg="2:7: error: invalid length of a UTF-8 sequence" ;;
    '\355\240\200' | '\364\220\200\200') msg="2:7: error: invalid Unicode character" ;;
    '\303') msg="2:8: error: invalid trailing UTF-8 octet" ;;
    esac
    yaml utf8 "CPU:\n  a: \"$s\"\n"
    check 2 "utf8.yaml:$msg" "YAML invalid UTF-8 $s" "$SYSDESC" convert --no-check "$T/utf8.yaml"
done
yaml utf8_key 'CPU:\n  \377: 1\n'
check 2 "utf8_key.yaml:2:3: error: invalid leading UTF-8 octet" "YAML invalid UTF-8 key" "$SYSDESC" convert --no-check "$T/utf8_key.yaml"
mlir utf8_ok 'module attributes {x.a = "\303\251\360\237\230\200"} {}'
check 0 "" "MLIR valid UTF-8" "$SYSDESC" fmt "$T/utf8_ok.mlir"
yaml utf8_escape 'CPU:\n  a: "\\ud800"\n'
check 2 "invalid Unicode" "YAML lone surrogate escape" "$SYSDESC" convert --no-check "$T/utf8_escape.yaml"

# ---- NaN where keys are compared ----
# DLTI keys are strings or types, never floats: `.nan` as a YAML key is the
# string ".nan", compared by bytes; a float-tagged key is rejected; NaN values
# are kept bit for bit and compare equal to themselves (dlti_attr_equal).
yaml nan_keys 'CPU:\n  .nan: 1\n  .NaN: 2\n  nan: 3\n'
check 0 "" "YAML .nan keys are strings" "$SYSDESC" convert --no-check --to attr "$T/nan_keys.yaml"
out_is '#dlti.target_system_spec<"CPU" = #dlti.target_device_spec<".nan" = 1 : i64, ".NaN" = 2 : i64, "nan" = 3 : i64>>' "YAML .nan keys"
yaml nan_dup 'CPU:\n  .nan: 1\n  .nan: 2\n'
check 2 "nan_dup.yaml:3:3: error: duplicate key '.nan'" "YAML duplicate .nan key" "$SYSDESC" convert --no-check "$T/nan_dup.yaml"
yaml nan_tagged 'CPU:\n  a: {!f64 .nan: 1}\n'
check 2 "a key is a string or '!type TYPE'" "YAML float-tagged NaN key" "$SYSDESC" convert --no-check "$T/nan_tagged.yaml"
yaml nan_values 'CPU:\n  a: .nan\n  b: !f32 .nan\n  c: [.nan, .nan]\n'
check 0 "" "YAML NaN values" "$SYSDESC" convert --no-check --to attr "$T/nan_values.yaml"
out_is '#dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"a" = 0x7FF8000000000000 : f64, "b" = 0x7FC00000 : f32, "c" = [0x7FF8000000000000 : f64, 0x7FF8000000000000 : f64]>>' "YAML NaN values"
"$SYSDESC" convert --no-check --to yaml "$T/nan_values.yaml" >"$T/nan_rt.yaml" 2>/dev/null
check 0 "" "YAML NaN round trip" "$SYSDESC" convert --no-check --to attr "$T/nan_rt.yaml"
out_is '#dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"a" = 0x7FF8000000000000 : f64, "b" = 0x7FC00000 : f32, "c" = [0x7FF8000000000000 : f64, 0x7FF8000000000000 : f64]>>' "YAML NaN round trip"
mlir nan_map '#dlti.map<"a" = 0x7FF8000000000000 : f64, "b" = 0x7FF8000000000000 : f64, f64 = 0x7FF0000000000001 : f64>'
check 0 "" "MLIR NaN values under distinct keys" "$SYSDESC" query "$T/nan_map.mlir" type:f64
out_is '0x7FF0000000000001 : f64' "MLIR NaN payload kept"
check 2 "nan_values.yaml: device id 'CPU' is used twice: rename one (ID=ITEM)" "compose: the same NaN device twice is a duplicate id" "$SYSDESC" compose --no-check "$T/nan_values.yaml" "$T/nan_values.yaml"
check 0 "" "compose: NaN devices renamed" "$SYSDESC" compose --no-check "A=$T/nan_values.yaml" "B=$T/nan_values.yaml"

# ---- integer overflow in literals (MLIR's rules, checked against mlir-opt-22) ----
lit() { # WANT_RC STDERR ATTR [EXPECTED-PRINT]
    printf '#dlti.map<"v" = %s>' "$3" >"$T/lit.mlir"
    check "$1" "$2" "literal $3" "$SYSDESC" query "$T/lit.mlir" v
    [ $# -lt 4 ] || out_is "$4" "literal $3"
}
lit 0 "" 'array<i64: 9223372036854775807, -9223372036854775808>' 'array<i64: 9223372036854775807, -9223372036854775808>'
lit 0 "" 'array<i64: 9223372036854775808>' 'array<i64: -9223372036854775808>' # signless: the bit pattern
lit 2 "integer constant out of range" 'array<i64: 18446744073709551616>'
lit 2 "integer constant out of range" 'array<i64: -9223372036854775809>'
lit 2 "integer constant out of range" 'array<i8: 256>'
lit 2 "out of range for attribute" '18446744073709551616 : i64'
lit 2 "out of range for attribute" '300 : i8'
lit 2 "out of range for attribute" '123456789012345678901234567890123456789012345678901234567890 : i128'
lit 0 "" '0xFFFFFFFFFFFFFFFF : i64' '-1 : i64'
lit 2 "out of range for attribute" '0x10000000000000000 : i64'
lit 2 "hexadecimal float constant out of range for type" '0x7FC000000 : f32'
lit 2 "hexadecimal float constant out of range for type" '0x1FFFF : f16'
lit 2 "integer bitwidth is limited to 16777215 bits" '1 : i16777216'
lit 2 "integer bitwidth is limited to 16777215 bits" '1 : i99999999999'
lit 0 "" '1.0e400 : f64' '0x7FF0000000000000 : f64' # overflows to infinity, as MLIR
# dense sizes
lit 0 "" 'dense<1> : vector<2305843009213693952xi64>' 'dense<1> : vector<2305843009213693952xi64>' # a splat is not expanded
lit 2 "does not match type" 'dense<[1, 2]> : vector<2305843009213693952xi64>'
lit 2 "invalid dimension" 'dense<1> : tensor<99999999999999999999xi64>'
# Dimensions up to INT64_MAX, and splats whose element
# count does not fit 64 bits print as themselves, not dense<> (each verdict
# mlir-opt-22's: it reads and prints all of these the same way)
lit 0 "" 'dense<1> : tensor<9223372036854775807x9223372036854775807xi64>' 'dense<1> : tensor<9223372036854775807x9223372036854775807xi64>'
lit 0 "" 'dense<1> : vector<9223372036854775807x3xi8>' 'dense<1> : vector<9223372036854775807x3xi8>'
lit 0 "" 'dense<1.5> : vector<4294967296x4294967296xf32>' 'dense<1.500000e+00> : vector<4294967296x4294967296xf32>'
lit 2 "invalid dimension" 'dense<1> : vector<9223372036854775808xi8>'
# dense<> where MLIR's int64 element count wraps to 0, and not where it does not
lit 0 "" 'dense<> : tensor<4294967296x4294967296xi8>' 'dense<> : tensor<4294967296x4294967296xi8>'
lit 2 "parsed zero elements, but type ('tensor<4294967296x4294967297xi8>') expected at least 1" 'dense<> : tensor<4294967296x4294967297xi8>'
lit 2 "parsed zero elements, but type ('tensor<9223372036854775807x2xi8>') expected at least 1" 'dense<> : tensor<9223372036854775807x2xi8>'
# (sysdesc reads no hex strings in dense<>, and says so: mlir-opt-22 reads
# them and says "elements hex data size is invalid for provided type" here)
lit 2 "lit.mlir:1:23: error: hex data in dense<\"0x...\"> is not supported" 'dense<"0xFFFFFFFFFFFFFFFFFF"> : vector<1xi64>'
# A YAML float of a narrow type arrives as itself or is
# refused at the value (never NaN/infinity/overflow turned into another number)
for c in 'f4E2M1FN .nan:the type has no NaN' 'f6E2M3FN .inf:the type has no infinities' \
    'f8E4M3FN .inf:the type has no infinities' 'f4E2M1FN 7.0:it saturates to the largest value' \
    'f6E3M2FN 1e30:it saturates to the largest value' 'f8E4M3FN 470.0:it becomes NaN in this type' \
    'f8E4M3FNUZ -0.0:the type has no negative zero' 'f8E8M0FNU 0.0:the type has no zero' \
    'f8E8M0FNU -1.0:it becomes NaN in this type' 'f8E5M2FNUZ -.inf:the type has no infinities' \
    'f16 65520.0:it overflows to infinity'; do
    v=${c%%:*} why=${c#*:}
    yaml narrow 'D:\n  a: !'"${v% *} ${v#* }"'\n'
    check 2 "narrow.yaml:2:6: error: value ${v#* } does not fit !${v% *} ($why)" "YAML !$v" "$SYSDESC" convert --no-check "$T/narrow.yaml"
done
for v in 'f8E5M2 .inf' 'f8E4M3FN .nan' 'f8E8M0FNU .nan' 'f4E2M1FN 6.5' 'f8E4M3FN 448.0'; do
    yaml narrow 'D:\n  a: !'"${v% *} ${v#* }"'\n'
    check 0 "" "YAML !$v (held, or rounded to the nearest value)" "$SYSDESC" convert --no-check "$T/narrow.yaml"
done
# Every reader has a size limit and a memory budget
check 3 "/dev/zero: error: cannot read: a character device, not a regular file" "probe --xml of an endless stream" timeout 60 "$SYSDESC" probe --xml /dev/zero
truncate -s 67108865 "$T/sparse.xml"
check 2 "sparse.xml: error: file is larger than the limit of 67108864 bytes" "probe --xml of a file over the limit" timeout 60 "$SYSDESC" probe --xml "$T/sparse.xml"
awk 'BEGIN { printf "#dlti.map<\"a\" = ["; for (i = 0; i < 3000; i++) printf "%s1 : i16777215", (i ? ", " : ""); printf "]>" }' >"$T/wide.mlir"
check 2 "wide.mlir:1:483: error: memory budget of 67108864 bytes exceeded (dlti_limits.max_memory_bytes; SYSDESC_MAX_MEMORY for the sysdesc tool)" "45 KB of 2 MB integers (budget 64 MiB)" env SYSDESC_MAX_MEMORY=64M "$SYSDESC" fmt "$T/wide.mlir"
awk 'BEGIN { printf "#dlti.map<\"a\" = dense<["; for (i = 0; i < 3000; i++) printf "%s1", (i ? ", " : ""); printf "]> : tensor<3000xi16777215>>" }' >"$T/wided.mlir"
check 2 "memory budget of 67108864 bytes exceeded" "dense of 3000 2 MB integers (budget 64 MiB)" env SYSDESC_MAX_MEMORY=64M "$SYSDESC" fmt "$T/wided.mlir"
printf 'D:\n  a: [' >"$T/wide.yaml"
awk 'BEGIN { for (i = 0; i < 100; i++) printf "%s!i16777215 1", (i ? ", " : ""); print "]" }' >>"$T/wide.yaml"
# the 32nd 2 MB integer is the one past 64 MiB (column 7 + 31 * 14)
check 2 "wide.yaml:2:441: error: memory budget of 67108864 bytes exceeded" "YAML of 2 MB integers (budget 64 MiB)" env SYSDESC_MAX_MEMORY=64M "$SYSDESC" convert --no-check "$T/wide.yaml"
check 0 "" "a small file within a small budget" env SYSDESC_MAX_MEMORY=1M "$SYSDESC" fmt "$SRCDIR/examples/two-devices.mlir"
# What one input may allocate is in proportion to its size (64 MiB, or 256
# bytes a byte), whatever the budget: a 6 KB file of 2,000 integers of
# 16777215 bits (2 MiB each) stops at its share, in a moment, without the
# 4 GB it would take (wall time from GNU time, when there; scaled).
awk 'BEGIN { printf "#dlti.map<\"a\" = dense<["; for (i = 0; i < 2000; i++) printf "%s1", (i ? ", " : ""); printf "]> : tensor<2000xi16777215>>" }' >"$T/wide6k.mlir"
check 2 "error: an input of 6049 bytes may use 67108864 bytes of memory (256 bytes a byte, at least 64 MiB), and this one needs more" \
    "6 KB of 2 MB integers: its share of memory" "$SYSDESC" fmt "$T/wide6k.mlir"
rm -f "$T/rss"
[ -x /usr/bin/time ] && /usr/bin/time -f '%e %M' -o "$T/rss" "$SYSDESC" fmt "$T/wide6k.mlir" >/dev/null 2>&1
if [ -s "$T/rss" ]; then
    set -- $(tail -n 1 "$T/rss")
    if awk -v s="$1" -v kb="$2" -v lim="$(timebound_limit 5)" -v asan="$(grep -ac __asan_init "$SYSDESC")" \
        'BEGIN { exit !(s < lim && (asan > 0 || kb < 256 * 1024)) }'; then ok; else
        bad "6 KB of 2 MB integers: $1 s, $2 KB (want under $(timebound_limit 5) s and 256 MB)"
    fi
fi
printf 'D:\n  a: [' >"$T/wide6k.yaml"
awk 'BEGIN { for (i = 0; i < 600; i++) printf "%s!i16777215 1", (i ? ", " : ""); print "]" }' >>"$T/wide6k.yaml"
check 2 "wide6k.yaml:2:" "YAML: 600 integers of 2 MiB in 8 KB, its share of memory" "$SYSDESC" convert --no-check "$T/wide6k.yaml"
if grep -q "an input of [0-9]* bytes may use 67108864 bytes of memory" "$T/err"; then ok; else bad "YAML wide integers: not the input's share"; fi
# Where sysdesc and mlir-opt-22 disagreed, mlir-opt-22's
# verdict (its message and column where it refuses), or "not supported" said
# plainly where sysdesc does not read what MLIR reads
mlirv() { # WANT_RC STDERR TEXT
    printf '%s\n' "$3" >"$T/v.mlir"
    check "$1" "$2" "mlir-opt-22's verdict on $3" "$SYSDESC" fmt "$T/v.mlir"
}
mlirv 2 "v.mlir:1:71: error: invalid kind of attribute specified" 'module attributes {dlti.target_system_spec = #dlti.target_system_spec<i32 = #dlti.target_device_spec<"a" = 1>>} {}'
mlirv 2 "v.mlir:1:23: error: redefinition of symbol named 'a'" 'module { module @a {} module @a {} }'
mlirv 2 "v.mlir:1:36: error: redefinition of symbol named 'b'" 'module { module @b {} module @a {} module @"b" {} module @a {} }'
mlirv 0 "" 'module @x { module @a {} module @b { module @a {} } }'
mlirv 0 "" 'module attributes {x.a = !llvm.ptr<1000000000>} {}'
mlirv 0 "" 'module attributes {x.a = !llvm.ptr<4294967295>} {}'
mlirv 2 "v.mlir:1:36: error: integer value too large" 'module attributes {x.a = !llvm.ptr<4294967296>} {}'
mlirv 0 "" 'module attributes {x.a = 1} { module {} loc(unknown) } loc(fused["a", "b)"])'
mlirv 2 "v.mlir:1:45: error: location aliases (loc(#name)) are not supported" 'module attributes {x.a = 1} { module {} loc(#loc) } loc("x")'
mlirv 2 "v.mlir:1:28: error: nested symbol references (@a::@b) are not supported" 'module attributes {x.a = @a::@b} {}'
mlirv 2 "v.mlir:1:32: error: hex data in dense<\"0x...\"> is not supported" 'module attributes {x.a = dense<"0x0100000002000000"> : tensor<2xi32>} {}'
# YAML integers
yaml int_big 'CPU:\n  a: 99999999999999999999\n'
check 2 "int_big.yaml:2:6: error: integer 99999999999999999999 does not fit i64" "YAML integer too big" "$SYSDESC" convert --no-check "$T/int_big.yaml"
yaml hex_big 'CPU:\n  a: 0xFFFFFFFFFFFFFFFFF\n'
check 2 "does not fit i64" "YAML hex too wide" "$SYSDESC" convert --no-check "$T/hex_big.yaml"
yaml hex_i64 'CPU:\n  a: 0xFFFFFFFFFFFFFFFF\n'
check 2 "does not fit i64" "YAML plain hex above INT64_MAX" "$SYSDESC" convert --no-check "$T/hex_i64.yaml"
yaml tag_big 'CPU:\n  a: !i64 18446744073709551616\n'
check 2 "does not fit !i64" "YAML !i64 too big" "$SYSDESC" convert --no-check "$T/tag_big.yaml"
yaml mlir_big 'CPU:\n  a: !mlir "array<i64: 18446744073709551616>"\n'
check 2 "integer constant out of range" "YAML !mlir overflow" "$SYSDESC" convert --no-check "$T/mlir_big.yaml"

# ---- layout arithmetic: sizes that do not fit 64 bits are errors (exit 1) ----
mlir dl 'module attributes {dlti.dl_spec = #dlti.dl_spec<i64 = dense<64> : vector<2xi64>>} {}'
check 1 "the size of vector<2305843009213693952xi64> does not fit in 64 bits" "layout 2^61 x i64" "$SYSDESC" layout "$T/dl.mlir" 'vector<2305843009213693952xi64>'
check 1 "does not fit in 64 bits" "layout 2^32^3 x i1" "$SYSDESC" layout "$T/dl.mlir" 'vector<4294967296x4294967296x4294967296xi1>'
check 1 "does not fit in 64 bits" "layout scalable 2^61" "$SYSDESC" layout "$T/dl.mlir" 'vector<[2305843009213693952]xi64>'
check 1 "does not fit in 64 bits" "layout wide element" "$SYSDESC" layout "$T/dl.mlir" 'vector<1152921504606846976xi16777215>'
check 2 "invalid dimension" "layout dimension above INT64_MAX" "$SYSDESC" layout "$T/dl.mlir" 'vector<9223372036854775808xi64>'
check 0 "" "layout 2^32 x i64" "$SYSDESC" layout "$T/dl.mlir" 'vector<4294967296xi64>'
out_is 'vector<4294967296xi64>: size = 34359738368, bitsize = 274877906944, alignment = 34359738368, preferred = 34359738368, index = 0' "layout 2^32 x i64"
check 0 "" "layout widest integer" "$SYSDESC" layout "$T/dl.mlir" 'i16777215'
# division-by-zero paths: zero alignments and widths are accepted as MLIR does, never a crash
mlir dl0 'module attributes {dlti.dl_spec = #dlti.dl_spec<i32 = dense<0> : vector<2xi64>, index = 0 : i64, !llvm.ptr = dense<0> : vector<3xi64>>} {}'
for ty in i32 i31 'vector<3xi32>' 'complex<i32>' index 'vector<4xindex>' '!llvm.ptr' 'vector<2x!llvm.ptr>'; do
    check 0 "" "layout with zero entries: $ty" "$SYSDESC" layout "$T/dl0.mlir" "$ty"
done
check 0 "" "layout props with zero entries" "$SYSDESC" layout "$T/dl0.mlir"
mlir dlbig 'module attributes {dlti.dl_spec = #dlti.dl_spec<i32 = dense<9223372036854775807> : vector<2xi64>, index = 9223372036854775807 : i64, "dlti.stack_alignment" = 9223372036854775807 : i64>} {}'
for ty in i32 'vector<3xi32>' index; do
    check 0 "" "layout with INT64_MAX entries: $ty" "$SYSDESC" layout "$T/dlbig.mlir" "$ty"
done
check 1 "the size of vector<4xindex> does not fit in 64 bits" "layout with INT64_MAX entries: vector<4xindex>" "$SYSDESC" layout "$T/dlbig.mlir" 'vector<4xindex>'
# LLVM data layout strings: numbers too wide for their field
check 2 "ABI alignment must be" "dl-import alignment above 16 bits" "$SYSDESC" dl-import "e-i32:4294967296"
check 2 "ABI alignment must be" "dl-import alignment 2^63" "$SYSDESC" dl-import "e-p0:64:9223372036854775808"
check 2 "stack natural alignment must be" "dl-import stack alignment above 16 bits" "$SYSDESC" dl-import "e-S65536"
check 2 "malformed specification" "dl-import size above 64 bits" "$SYSDESC" dl-import "e-i99999999999999999999:8"
check 2 "address space must be a 24-bit integer" "dl-import address space above 24 bits" "$SYSDESC" dl-import "e-p4294967296:64:64"
check 2 "must be a non-zero 24-bit integer" "dl-import zero pointer size" "$SYSDESC" dl-import "e-p:0:0:0"
check 0 "" "dl-import largest alignment" "$SYSDESC" dl-import "e-i32:32768"

# ---- limits: errors that name the limit ----
# nesting depth (1000; test_parse.c covers every bracket kind)
awk 'BEGIN { for (i = 0; i < 1001; i++) printf "["; printf "1"; for (i = 0; i < 1001; i++) printf "]" }' >"$T/deep.mlir"
check 2 "nesting deeper than the limit of 1000" "MLIR depth 1001" "$SYSDESC" fmt "$T/deep.mlir"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "#dlti.map<\"a\" = "; printf "1"; for (i = 0; i < 100000; i++) printf ">" }' >"$T/deeper.mlir"
check 2 "nesting deeper than the limit of 1000" "MLIR depth 100000" "$SYSDESC" fmt "$T/deeper.mlir"
# a bare attribute counts one level for the module that may hold it (docs/reliability.md)
awk 'BEGIN { for (i = 0; i < 998; i++) printf "["; printf "1"; for (i = 0; i < 998; i++) printf "]" }' >"$T/deep_ok.mlir"
check 0 "" "MLIR depth 998 and the value" "$SYSDESC" fmt "$T/deep_ok.mlir"
awk 'BEGIN { for (i = 0; i < 1001; i++) printf "tuple<"; printf "i32"; for (i = 0; i < 1001; i++) printf ">" }' >"$T/deep.type"
check 2 "nesting deeper than the limit of 1000" "layout type depth 1001" "$SYSDESC" layout "$T/dl.mlir" "$(cat "$T/deep.type")"
# string length (16 MiB)
{ printf 'module attributes {x.a = "'; head -c 16777217 /dev/zero | tr '\0' a; printf '"} {}'; } >"$T/longstr.mlir"
check 2 "longstr.mlir:1:26: error: string literal longer than the limit of 16777216 bytes" "MLIR string of 16 MiB + 1" "$SYSDESC" fmt "$T/longstr.mlir"
# ... and in YAML, the same limit: a longer string would print as MLIR that
# fmt rejects; one of exactly 16 MiB prints as MLIR that fmt reads back
# (test_yaml.c checks keys and escapes, counted as printed, with a small limit)
{ printf 'CPU:\n  a: "'; head -c 16777217 /dev/zero | tr '\0' a; printf '"\n'; } >"$T/longstr.yaml"
check 2 "longstr.yaml:2:6: error: string longer than the limit of 16777216 bytes" "YAML string of 16 MiB + 1" "$SYSDESC" convert --no-check "$T/longstr.yaml"
{ printf 'CPU:\n  a: "'; head -c 16777216 /dev/zero | tr '\0' a; printf '"\n'; } >"$T/longstr.yaml"
"$SYSDESC" convert --no-check -o "$T/longstr.mlir" "$T/longstr.yaml" 2>"$T/err"
check 0 "" "YAML string of 16 MiB: its MLIR reads back" "$SYSDESC" fmt "$T/longstr.mlir"
rm -f "$T/longstr.yaml" "$T/longstr.mlir"
# integer literal length (10000 digits)
awk 'BEGIN { printf "#dlti.map<\"a\" = "; for (i = 0; i < 10001; i++) printf "1"; printf " : i64>" }' >"$T/longint.mlir"
check 2 "longint.mlir:1:17: error: integer literal longer than the limit of 10000 digits" "MLIR integer of 10001 digits" "$SYSDESC" fmt "$T/longint.mlir"
# YAML base: chain (16 files)
mkdir "$T/chain"
printf 'D:\n  a: 1\n' >"$T/chain/f0.yaml"
i=1
while [ $i -le 17 ]; do
    printf 'D:\n  base: ./f%d.yaml\n  k%d: %d\n' $((i - 1)) $i $i >"$T/chain/f$i.yaml"
    i=$((i + 1))
done
check 0 "" "YAML base chain of 16" "$SYSDESC" convert --no-check "$T/chain/f16.yaml"
check 2 "$T/chain/f1.yaml:2:9: error: base chain longer than the limit of 16 files" "YAML base chain of 17 (the path as written, no ./././)" "$SYSDESC" convert --no-check "$T/chain/f17.yaml"
# YAML nesting (the core's limit, 1000)
awk 'BEGIN { printf "D:\n  a: "; for (i = 0; i < 1000; i++) printf "["; for (i = 0; i < 1000; i++) printf "]"; print "" }' >"$T/deep.yaml"
check 2 "nesting deeper than the limit of 1000 levels" "YAML depth" "$SYSDESC" convert --no-check "$T/deep.yaml"
# An alias makes a node as tall as what it names: a 995-deep anchored node
# aliased inside K sequences (or mappings) is read while it fits, else the
# depth limit at the container that passes it, with its line and column
# (inside a sequence: "out of memory", exit 3, no location before)
for shape in seq map; do
    for k in 1 2 3 5 8; do
        awk -v k=$k -v shape=$shape 'BEGIN { printf "D:\n  x: &A "
            for (i = 0; i < 995; i++) printf "["; for (i = 0; i < 995; i++) printf "]"
            printf "\n  y: "; for (i = 0; i < k; i++) printf (shape == "seq" ? "[" : "{a: ")
            printf "*A"; for (i = 0; i < k; i++) printf (shape == "seq" ? "]" : "}"); print "" }' >"$T/alias-$shape.yaml"
        if [ "$k" -le 2 ]; then
            check 0 "" "an alias to a 995-deep node inside $k ${shape}s" "$SYSDESC" convert --no-check "$T/alias-$shape.yaml"
        else
            check 2 "" "an alias to a 995-deep node inside $k ${shape}s" "$SYSDESC" convert --no-check "$T/alias-$shape.yaml"
            grep -Eq "^$T/alias-$shape.yaml:[0-9]+:[0-9]+: error: nesting deeper than the limit of 1000 " "$T/err" && ok ||
                bad "an alias to a 995-deep node inside $k ${shape}s: not the depth limit at a line and column: $(cat "$T/err")"
        fi
    done
done
# YAML alias expansion (billion laughs: 10^9 nodes from 1 KB)
awk 'BEGIN { print "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"
    for (i = 1; i < 9; i++) { printf "a%d: &a%d [", i, i
        for (j = 0; j < 10; j++) printf "%s*a%d", (j ? ", " : ""), i - 1; print "]" } }' >"$T/lol.yaml"
start=$(date +%s)
check 2 "lol.yaml:6:45: error: aliases expand to more than the limit of 1000000 nodes" "YAML billion laughs" "$SYSDESC" convert --no-check "$T/lol.yaml"
most=$(timebound_limit 5)
[ $(($(date +%s) - start)) -le "$most" ] && ok || bad "YAML billion laughs: took more than $most s"
# YAML input size (64 MiB)
{ printf 'CPU:\n  a: 1\n# '; head -c 67108864 /dev/zero | tr '\0' x; printf '\n'; } >"$T/huge.yaml"
check 2 "larger than the limit of 67108864 bytes" "YAML over 64 MiB" "$SYSDESC" convert --no-check "$T/huge.yaml"
rm -f "$T/huge.yaml" "$T/longstr.mlir"

# A #dlti.dl_spec under another name than dlti.dl_spec is not the module's
# data layout (MLIR verifies entries only under that name): convert must not
# move it there, where "dlti.nnnness" no longer reads (found by AFL++).
mlir dl_other_name 'module attributes {x.dl = #dlti.dl_spec<"dlti.nnnness" = "little">, dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"a" = 1>>} {}\n'
check 0 "" "dl_spec under another name: convert" "$SYSDESC" convert --no-check --to mlir "$T/dl_other_name.mlir"
cp "$T/out" "$T/dl_other_name.out.mlir"
check 0 "" "dl_spec under another name: the converted text reads" "$SYSDESC" fmt "$T/dl_other_name.out.mlir"

# ---- diagnostics reach a terminal: an input's control bytes do not ----
# (a key, a command line argument: each echoed as \xHH, never raw)
raw_free() {
    if grep -q "$(printf '\033')" "$T/err"; then bad "$1: a raw escape byte reached stderr"; else ok; fi
}
printf 'CPU:\n  device_type: CPU\n  "\\e[2J\\e]0;t\\ax": 1\n' >"$T/esc.yaml"
check 2 "esc.yaml:3:3: error: unknown key '\\x1B[2J\\x1B]0;t\\x07x'" "check: a key with escape sequences" \
    "$SYSDESC" check "$T/esc.yaml"
raw_free "check"
check 2 "unknown command 'x\\x1B[2J\\xC2\\x9B'" "an unknown command with control bytes" \
    "$SYSDESC" "$(printf 'x\033[2J\302\233')"
raw_free "unknown command"
check 3 "\\x1B[2J.mlir: error: cannot open" "a file name with an escape sequence" \
    "$SYSDESC" fmt "$T/$(printf '\033[2J').mlir"
raw_free "file name"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
