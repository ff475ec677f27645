#!/bin/sh
# The probe's compiler flags against the compilers installed here: for every
# gcc, gcc-N, clang and clang-N on PATH (one per file), `probe --gcc=PATH`
# (--clang=PATH) must give that compiler's version and flags it compiles an
# empty C file with.  Then, through a wrapper that logs its calls, what the
# cache spares: a second probe runs no compiler, a changed compiler file is
# asked again, --no-cache asks again; a compiler that refuses the first
# flags of the chain gets the next that it compiles.  Then the LLVM
# compiler.llvm.cpu is checked against: every llc on PATH, an llc that lacks
# the name, none.  Skipped (77) without any compiler.
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
# gcc, clang and llc first on PATH), and the compiler map has no version or
# path.
. "$SRCDIR/tests/topology.sh"
if foreign_topology; then
    mkdir -p "$T/bin"
    for c in gcc clang llc; do
        printf '#!/bin/sh\necho "$0 $*" >>"%s/calls"\nexit 1\n' "$T" >"$T/bin/$c"
        chmod +x "$T/bin/$c"
    done
    : >"$T/calls"
    for k in version path; do
        for c in gcc clang llvm; do
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
# wrap NAME REAL LOG: $T/bin/NAME runs REAL, each call's arguments a line
# of LOG; with REFUSE set, a call naming that argument fails silently.
wrap() {
    cat >"$T/bin/$1" <<EOF
#!/bin/sh
echo "\$*" >>"$3"
for a in "\$@"; do [ -n "\${REFUSE:-}" ] && [ "\$a" = "\$REFUSE" ] && exit 1; done
exec "$2" "\$@"
EOF
    chmod +x "$T/bin/$1"
}
wrap "$kind" "$real" "$log"
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

# clang: its version and the chain's newest flags in one run (-v, whose
# first line names the version); a clang that refuses those flags and says
# nothing is asked --version, and gives the next flags it compiles.
real_clang=$(command -v clang) || real_clang=
if [ -n "$real_clang" ]; then
    clog="$T/clang-calls"
    wrap clang "$real_clang" "$clog"
    want=$(version_of "$real_clang" clang)
    : >"$clog"
    got=$(PATH="$T/bin:$PATH" key clang version --no-cache --gcc= --llc=)
    cflags=$(PATH="$T/bin:$PATH" key clang flags --no-cache --gcc= --llc=)
    runs=$(grep -c . "$clog")
    [ "$got" = "$want" ] && ok "clang -v: version $got" || bad "clang -v: version '$got', it says '$want'"
    cmarch=$(echo "$cflags" | tr ' ' '\n' | grep -m1 -e '^-march=' -e '^-mcpu=')
    if [ "$runs" = 2 ] && [ "$(grep -c -e '^-v ' "$clog")" = 2 ]; then
        ok "clang answers its version and flags in one run"
    elif [ -n "$cmarch" ] && ! grep -q -e "^-v .*$cmarch" "$clog"; then
        ok "clang refused the chain's newest flags here: asked again ($runs runs)"
    else
        bad "clang's version and flags took $runs runs for two probes: $(cat "$clog")"
    fi
    src() {  # src OPTION...: CPU.source.compiler.clang of a probe with the wrapper
        PATH="$T/bin:$PATH" "$SYSDESC" query --host -q --runtimes=none --gcc= --llc= "$@" \
            CPU source compiler.clang | unq
    }
    fresh=$(src --refresh-cache)
    cached=$(src --runtime-timeout=12346)  # not the whole result's entry: the compiler's
    [ -n "$fresh" ] && [ "$fresh" = "$cached" ] && ok "clang's source the same from its cache entry" ||
        bad "clang's source fresh: '$fresh'; from its cache entry: '$cached'"
    if [ -n "$cmarch" ]; then
        : >"$clog"
        got=$(REFUSE="$cmarch" PATH="$T/bin:$PATH" key clang version --no-cache --gcc= --llc=)
        other=$(REFUSE="$cmarch" PATH="$T/bin:$PATH" key clang flags --no-cache --gcc= --llc=)
        [ "$got" = "$want" ] && grep -q -e '^--version' "$clog" &&
            ok "clang refusing $cmarch silently: version $got from --version" ||
            bad "clang refusing $cmarch: version '$got' (want '$want'): $(cat "$clog")"
        case " $other " in
        *" $cmarch "*) bad "clang with $cmarch refused still gives it: $other" ;;
        *) REFUSE="$cmarch" compiles "$T/bin/clang" "$other" && ok "clang with $cmarch refused: $other" ||
               bad "clang with $cmarch refused gives flags it does not compile: $other" ;;
        esac
    fi
    rm -f "$T/bin/clang"
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

# ---- the installed LLVM: compiler.llvm.cpu is a CPU its llc knows ----
# For every llc and llc-N on PATH (one per file): `--llc=PATH` gives its
# version and a CPU name its -mcpu=help lists for the triple; a name other
# than the table's is an ancestor's (compiler.llvm.uarch) and the table's is
# one that llc does not list.
llc_lists() {  # llc_lists LLC TRIPLE NAME: whether LLC's -mcpu=help lists NAME
    "$1" -mtriple="$2" -mcpu=help 2>&1 | sed -n '/Available CPUs/,/Available features/p' |
        awk 'NR > 1 { print $1 }' | grep -qx "$3"
}
triple=$("$SYSDESC" query --host -q --runtimes=none CPU triple | unq)
table_cpu=$(key llvm cpu --llc=)
ancestors=$("$SYSDESC" query --host -q --runtimes=none CPU uarch_ancestors 2>/dev/null)
nllc=0
seen=""
IFS=:
for dir in $PATH; do
    IFS=$old_ifs
    for f in "$dir"/llc "$dir"/llc-[0-9]*; do
        [ -x "$f" ] && [ -f "$f" ] || continue
        real=$(readlink -f "$f")
        case " $seen " in *" $real "*) continue ;; esac
        seen="$seen $real"
        want=$("$f" --version 2>/dev/null | sed -n 's/.*LLVM version \([0-9.]*\).*/\1/p' | head -1)
        [ -n "$want" ] || continue
        nllc=$((nllc + 1))
        got=$(key llvm version --no-cache "--llc=$f")
        cpu=$(key llvm cpu "--llc=$f")
        from=$(key llvm uarch "--llc=$f")
        [ "$got" = "$want" ] && ok "$f: LLVM $got" || bad "$f: version '$got', it says '$want'"
        # the version from the llvm-config of llc's own directory when there is one
        [ -x "$(dirname "$real")/llvm-config" ] && by="the llvm-config beside it" || by="--version"
        src=$(key llvm version --no-cache "--llc=$f" >/dev/null;
              "$SYSDESC" query --host -q --runtimes=none --no-cache "--llc=$f" CPU source compiler.llvm | unq)
        case "$src" in *"the version from $by"*) ok "$f: the version from $by" ;;
        *) bad "$f: the source does not say the version is from $by: $src" ;; esac
        llc_lists "$f" "$triple" "$cpu" && ok "$f lists $cpu for $triple" ||
            bad "$f does not list $cpu for $triple"
        if [ "$cpu" != "$table_cpu" ]; then
            if ! llc_lists "$f" "$triple" "$table_cpu" && [ -n "$from" ] &&
                case "$ancestors" in *"\"$from\""*) true ;; *) false ;; esac; then
                ok "$f lacks $table_cpu: $cpu, $from's"
            else
                bad "$f: $cpu (of '$from') instead of $table_cpu"
            fi
        fi
    done
    IFS=:
done
IFS=$old_ifs
echo "$nllc llc checked"
# An llc that lacks this CPU's name (a wrapper around the real one that
# drops it from its list, as an older LLVM lacks a newer CPU): the nearest
# ancestor's name it lists, said in the source and given to TVM as mcpu;
# the answer is cached.
real_llc=$(command -v llc || command -v llc-22 || command -v llc-14) || real_llc=
if [ -n "$real_llc" ] && [ -n "$table_cpu" ]; then
    cat >"$T/bin/llc" <<EOF
#!/bin/sh
echo "\$*" >>"$T/llc-calls"
[ "\$1" = --version ] && exec "$real_llc" "\$@"
"$real_llc" "\$@" 2>&1 | grep -v -w -e "$table_cpu" >&2
EOF
    chmod +x "$T/bin/llc"
    : >"$T/llc-calls"
    cpu=$(PATH="$T/bin:$PATH" key llvm cpu)
    from=$(PATH="$T/bin:$PATH" key llvm uarch)
    src=$(PATH="$T/bin:$PATH" "$SYSDESC" query --host -q --runtimes=none CPU source compiler.llvm | unq)
    # no llvm-config beside the wrapper: llc itself gives the version
    wv=$(PATH="$T/bin:$PATH" key llvm version --no-cache)
    rv=$("$real_llc" --version 2>/dev/null | sed -n 's/.*LLVM version \([0-9.]*\).*/\1/p' | head -1)
    [ "$wv" = "$rv" ] && grep -q -e '^--version' "$T/llc-calls" &&
        ok "an llc with no llvm-config beside it: LLVM $wv from --version" ||
        bad "an llc with no llvm-config beside it: version '$wv', it says '$rv'"
    if [ -n "$from" ]; then
        case "$ancestors" in *"\"$from\""*) ok "an llc without $table_cpu: $cpu, $from's" ;;
        *) bad "an llc without $table_cpu: $cpu, of '$from', not an ancestor ($ancestors)" ;; esac
        case "$src" in *"no $table_cpu; $cpu, $from's"*) ok "the source says so: $src" ;;
        *) bad "the source does not say so: $src" ;; esac
        PATH="$T/bin:$PATH" "$SYSDESC" probe -q --runtimes=none -o "$T/probe.mlir" 2>/dev/null &&
            "$SYSDESC" export --to tvm "$T/probe.mlir" CPU >"$T/tvm.json" 2>/dev/null &&
            grep -q "\"mcpu\": \"$cpu\"" "$T/tvm.json" && ok "TVM's mcpu is $cpu" ||
            bad "TVM's mcpu is not $cpu: $(grep mcpu "$T/tvm.json" 2>/dev/null)"
    else
        # the generic rows have no ancestor with a name of its own
        case "$src" in "not checked"*) ok "an llc without $table_cpu: not checked ($src)" ;;
        *) bad "an llc without $table_cpu: '$cpu', source '$src'" ;; esac
    fi
    before=$(wc -l <"$T/llc-calls")
    PATH="$T/bin:$PATH" key llvm cpu >/dev/null
    [ "$(wc -l <"$T/llc-calls")" = "$before" ] && ok "a second probe runs no llc" ||
        bad "a second probe ran llc again"
fi
# No LLVM: the table's name, "not checked".
for o in --llc= "--llc=$T/no-such-llc"; do
    if [ -z "$(key llvm version "$o")" ] && [ -n "$(key llvm cpu "$o")" ] &&
        "$SYSDESC" query --host -q --runtimes=none "$o" CPU source compiler.llvm | grep -q "not checked"; then
        ok "$o: the table's name, not checked"
    else
        bad "$o: a version, no cpu or no \"not checked\""
    fi
done
exit $fail

