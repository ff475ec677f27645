#!/bin/sh
# The probe's compiler flags against the compilers installed here: for every
# gcc, gcc-N, clang and clang-N on PATH (one per file), `probe --gcc=PATH`
# (--clang=PATH) must give that compiler's version and flags it compiles an
# empty C file with.  Then, through a wrapper that logs its calls, what the
# cache spares: a second probe runs no compiler, a changed compiler file is
# asked again, --no-cache asks again; a compiler that refuses the first
# flags of the chain gets the next that it compiles.  Skipped (77) without
# any compiler.
set -u
: "${SYSDESC:?}"
fail=0
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME="$T/cache"
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
unq() { sed 's/^"//; s/"$//'; }
key() {  # key KIND OPTION... : CPU.compiler.KIND.KEY of a probe with the options
    kind=$1 k=$2; shift 2
    "$SYSDESC" query --host -q --runtimes=none "$@" CPU compiler "$kind" "$k" 2>/dev/null | unq
}
version_of() {  # the version the compiler reports, as the probe reads it
    case $2 in
    clang) "$1" --version 2>/dev/null | sed -n 's/.*clang version \([0-9.]*\).*/\1/p' | head -1 ;;
    *) "$1" -dumpfullversion 2>/dev/null ;;
    esac
}
compiles() { "$1" $2 -x c -c -o /dev/null /dev/null >/dev/null 2>&1; }

# ---- another machine's topology (HWLOC_XMLFILE; not HWLOC_THISSYSTEM=1) ----
# Its compilers are not the ones installed here: none is run (a logging
# gcc and clang first on PATH), and the compiler map has no version or path.
. "$SRCDIR/tests/topology.sh"
if foreign_topology; then
    mkdir -p "$T/bin"
    for c in gcc clang; do
        printf '#!/bin/sh\necho "$0 $*" >>"%s/calls"\nexit 1\n' "$T" >"$T/bin/$c"
        chmod +x "$T/bin/$c"
    done
    : >"$T/calls"
    for k in version path; do
        for c in gcc clang; do
            v=$(PATH="$T/bin:$PATH" key $c $k)
            [ -z "$v" ] && ok "another machine: no CPU.compiler.$c.$k" ||
                bad "another machine's CPU.compiler.$c.$k is this host's: $v"
        done
    done
    [ ! -s "$T/calls" ] && ok "another machine: no compiler of this host run" ||
        bad "compilers run for another machine: $(cat "$T/calls")"
    exit $fail
fi

# ---- every installed compiler ----
seen=""
n=0
old_ifs=$IFS
IFS=:
for dir in $PATH; do
    IFS=$old_ifs
    for f in "$dir"/gcc "$dir"/gcc-[0-9]* "$dir"/clang "$dir"/clang-[0-9]*; do
        [ -x "$f" ] && [ -f "$f" ] || continue
        case ${f##*/} in gcc|clang|gcc-[0-9]|gcc-[0-9][0-9]|clang-[0-9]|clang-[0-9][0-9]) ;; *) continue ;; esac
        real=$(readlink -f "$f")
        case " $seen " in *" $real "*) continue ;; esac
        seen="$seen $real"
        case ${f##*/} in clang*) kind=clang ;; *) kind=gcc ;; esac
        want=$(version_of "$f" $kind)
        [ -n "$want" ] || continue
        n=$((n + 1))
        got=$(key $kind version --no-cache "--$kind=$f")
        flags=$(key $kind flags "--$kind=$f")
        [ "$got" = "$want" ] && ok "$f: version $got" || bad "$f: version '$got', it says '$want'"
        compiles "$f" "$flags" && ok "$f compiles $flags" || bad "$f refuses the probe's flags: $flags"
    done
    IFS=:
done
IFS=$old_ifs
[ "$n" -gt 0 ] || { echo "no gcc or clang on PATH: skipped"; exit 77; }
echo "$n compilers checked"

# ---- the cache, through a wrapper around gcc (or clang) ----
real=$(command -v gcc || command -v clang) || exit $fail
case ${real##*/} in clang*) kind=clang ;; *) kind=gcc ;; esac
mkdir -p "$T/bin"
log="$T/calls"
: >"$log"
cat >"$T/bin/$kind" <<EOF
#!/bin/sh
echo "\$*" >>"$log"
for a in "\$@"; do [ -n "\${REFUSE:-}" ] && [ "\$a" = "\$REFUSE" ] && exit 1; done
exec "$real" "\$@"
EOF
chmod +x "$T/bin/$kind"
calls() { wc -l <"$log" | tr -d ' '; }
flags=$(PATH="$T/bin:$PATH" key $kind flags)
first=$(calls)
[ "$first" -ge 2 ] && ok "a first probe asks $kind its version and compiles ($first calls)" ||
    bad "a first probe made $first calls to $kind"
[ "$(PATH="$T/bin:$PATH" key $kind path)" = "$T/bin/$kind" ] && ok "the path is the one on PATH" ||
    bad "the path is not $T/bin/$kind"
again=$(PATH="$T/bin:$PATH" key $kind flags)
[ "$(calls)" = "$first" ] && [ "$again" = "$flags" ] && ok "a second probe runs no compiler" ||
    bad "a second probe made $(($(calls) - first)) calls"
PATH="$T/bin:$PATH" key $kind flags --runtime-timeout=12345 >/dev/null  # another whole-result key
[ "$(calls)" = "$first" ] && ok "a probe whose whole result is not cached takes the compiler's cached answer" ||
    bad "the compiler's cached answer was not taken"
touch -d '2001-01-01' "$T/bin/$kind"
PATH="$T/bin:$PATH" key $kind flags >/dev/null
[ "$(calls)" -gt "$first" ] && ok "a changed compiler file is asked again" ||
    bad "a changed compiler file was not asked"
before=$(calls)
PATH="$T/bin:$PATH" key $kind flags --no-cache >/dev/null
[ "$(calls)" -gt "$before" ] && ok "--no-cache asks again" || bad "--no-cache asked nothing"

# A compiler that refuses the first flags of the chain: the next it compiles.
march=$(echo "$flags" | tr ' ' '\n' | grep -m1 -e '^-march=' -e '^-mcpu=')
if [ -n "$march" ]; then
    other=$(REFUSE="$march" PATH="$T/bin:$PATH" key $kind flags --no-cache)
    case " $other " in
    *" $march "*) bad "with $march refused the probe still gives it: $other" ;;
    *) REFUSE="$march" compiles "$T/bin/$kind" "$other" && ok "with $march refused: $other" ||
           bad "with $march refused the probe gives flags it does not compile: $other" ;;
    esac
fi

# No compiler: the table's newest flags, with no version or path.
uarch=$("$SYSDESC" query --host -q --runtimes=none CPU uarch | unq)
"$SYSDESC" uarch --format mlir "$uarch" >"$T/uarch.mlir"
table=$("$SYSDESC" query "$T/uarch.mlir" CPU compiler $kind flags 2>/dev/null | unq)
none=$(key $kind flags "--$kind=")
[ "$none" = "$table" ] && ok "--$kind= (none): the table's newest flags" ||
    bad "--$kind=: '$none', the table says '$table'"
[ -z "$(key $kind version "--$kind=")" ] && ok "--$kind=: no version" || bad "--$kind=: a version"
[ -z "$(key $kind version "--$kind=$T/no-such-compiler")" ] && ok "a missing compiler: no version" ||
    bad "a missing compiler has a version"
exit $fail
