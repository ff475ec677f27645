#!/bin/sh
# A moved installation finds its own catalog (sysdesc_catalog_path): the
# build is installed into a staging directory (meson install --destdir), the
# prefix is moved to another directory, and the moved `sysdesc` (libsysdesc
# linked in: the bindir rule) and a program linked with the moved
# libsysdesc.so (the libdir rule) run with SYSDESC_PATH unset, from outside
# the source and build trees: `list`, `show` and a catalog query (the
# pkg-config and CMake consumers of a moved prefix: tests/lib/consumers.sh;
# a pip-installed wheel: tests/python/test_installed.py).  Also the
# installed layout, the search order
# (SYSDESC_PATH first) and what `sysdesc list` says when no directory holds
# an entry.  Skipped (77) when meson cannot install into a temporary
# directory here.
set -u
fail=0
skip() { echo "SKIP: $*"; exit 77; }
bad() { echo "FAIL: $*"; fail=1; }
for v in MESON BUILDDIR SRCDIR PREFIX BINDIR LIBDIR DATADIR CATALOG_DIR CATALOG_PATH_EXE; do
    eval "[ -n \"\${$v:-}\" ]" || skip "$v is not set (meson not found?)"
done
for d in "$BINDIR" "$LIBDIR" "$DATADIR"; do
    case $d in /*) skip "$d lies outside the prefix: the installation is not relocatable" ;; esac
done

T=$(mktemp -d) || skip "no temporary directory"
trap 'rm -rf "$T"' EXIT
T=$(cd -P "$T" && pwd)
if ! "$MESON" install -C "$BUILDDIR" --no-rebuild --destdir "$T/stage" >"$T/install.log" 2>&1 </dev/null; then
    tail -5 "$T/install.log"
    skip "meson install --destdir failed"
fi
[ -d "$T/stage$PREFIX" ] || skip "nothing installed under $T/stage$PREFIX"
mkdir "$T/elsewhere"
mv "$T/stage$PREFIX" "$T/elsewhere/moved" || skip "cannot move the installed prefix"
rm -rf "$T/stage"
P=$T/elsewhere/moved
TOOL=$P/$BINDIR/sysdesc
CAT=$(cd -P "$P/$DATADIR" && pwd)/sysdesc/systems
echo "installed, then moved to $P"

# The installed layout: the whole catalog, nothing else.
want=$(cd "$SRCDIR/systems" && find . -name '*.yaml' | sort)
got=$(cd "$CAT" 2>/dev/null && find . -type f | sort)
[ "$got" = "$want" ] || bad "installed catalog $CAT differs from systems/: $got"
[ -x "$TOOL" ] || bad "no $TOOL"
ls "$P/$LIBDIR"/libsysdesc.so.* >/dev/null 2>&1 || bad "no libsysdesc.so in $P/$LIBDIR"

# Run from outside both trees with nothing but the moved prefix to go by.
cd "$T" || exit 1
run() { env -u SYSDESC_PATH "$@"; }

# The moved tool lists and shows the moved catalog.
n=$(echo "$want" | wc -l)
out=$(run "$TOOL" list) || bad "moved sysdesc list failed"
[ "$(echo "$out" | wc -l)" -eq $((n + 1)) ] || bad "moved sysdesc list: want $n entries: $out"
echo "$out" | grep -q '^nvidia/h100-sxm  *NVIDIA  *H100 SXM5 80GB$' || bad "list has no nvidia/h100-sxm: $out"
run "$TOOL" show nvidia/h100-sxm >"$T/moved.yaml" || bad "moved sysdesc show nvidia/h100-sxm failed"
SYSDESC_PATH="$SRCDIR/systems" "$SYSDESC" show nvidia/h100-sxm >"$T/built.yaml"
cmp -s "$T/moved.yaml" "$T/built.yaml" || bad "moved show differs from the build tree's"
grep -q '^  schema_version: 1$' "$T/moved.yaml" || bad "show: no schema_version: 1"
echo "moved sysdesc list: $n entries; show nvidia/h100-sxm: $(wc -l <"$T/moved.yaml") lines, as built"
# A catalog query answers as the built tool's does.
got=$(run "$TOOL" query nvidia/h100-sxm GPU num_compute_units) || bad "moved sysdesc query of a catalog name failed"
built=$(SYSDESC_PATH="$SRCDIR/systems" "$SYSDESC" query nvidia/h100-sxm GPU num_compute_units)
[ -n "$got" ] && [ "$got" = "$built" ] && echo "moved sysdesc query nvidia/h100-sxm GPU num_compute_units: $got" ||
    bad "moved query: '$got', built: '$built'"

# It is the moved catalog that is read: an entry only it holds is listed.
mkdir "$CAT/test"
cp "$CAT/nvidia/l4.yaml" "$CAT/test/reloc-marker.yaml"
run "$TOOL" list | grep -q '^test/reloc-marker ' || bad "an entry of the moved catalog is not listed"
run "$TOOL" show test/reloc-marker >/dev/null || bad "show of an entry of the moved catalog failed"
rm -r "$CAT/test"

# SYSDESC_PATH comes first: its nvidia/h100-sxm shadows the moved one.
mkdir -p "$T/extra/nvidia"
sed 's/^  model: .*/  model: Shadow/' "$CAT/nvidia/h100-sxm.yaml" >"$T/extra/nvidia/h100-sxm.yaml"
SYSDESC_PATH=$T/extra "$TOOL" list | grep -q '^nvidia/h100-sxm  *NVIDIA  *Shadow$' ||
    bad "SYSDESC_PATH does not come before the moved catalog"

# The search path as the moved libsysdesc.so computes it (libdir rule), in a
# program outside the build tree with the moved library first on the
# loader's path.
cp "$CATALOG_PATH_EXE" "$T/elsewhere/catalog_path"
if [ "$CAT" = "$CATALOG_DIR" ]; then
    want_path=$CAT
else
    want_path=$CAT:$CATALOG_DIR
fi
got=$(run env LD_LIBRARY_PATH="$P/$LIBDIR" "$T/elsewhere/catalog_path") || bad "catalog_path failed"
echo "libsysdesc.so moved: $got"
[ "$got" = "$want_path" ] || bad "moved libsysdesc.so: path $got, want $want_path"
got=$(SYSDESC_PATH=/a:/b env LD_LIBRARY_PATH="$P/$LIBDIR" "$T/elsewhere/catalog_path")
[ "$got" = "/a:/b:$want_path" ] || bad "with SYSDESC_PATH=/a:/b: $got"

# No entry anywhere: `list` names the directories it searched (exit 1).
mv "$CAT" "$T/catalog.away"
if [ -d "$CATALOG_DIR" ]; then
    echo "note: $CATALOG_DIR exists on this machine; the empty-catalog checks are skipped"
else
    dirs=$(echo "$want_path" | sed 's/:/, /g')
    run "$TOOL" list >"$T/out" 2>"$T/err"
    rc=$?
    echo "empty catalog: exit $rc: $(cat "$T/err")"
    [ $rc -eq 1 ] || bad "list with no entry: exit $rc, want 1"
    [ -s "$T/out" ] && bad "list with no entry printed: $(cat "$T/out")"
    [ "$(cat "$T/err")" = "sysdesc: error: list: no catalog entries found in: $dirs (set SYSDESC_PATH to add directories)" ] ||
        bad "list with no entry says: $(cat "$T/err")"
    mkdir "$T/empty"
    SYSDESC_PATH=$T/empty: "$TOOL" list 2>"$T/err"
    [ $? -eq 1 ] && grep -q "found in: $T/empty, $dirs (set" "$T/err" ||
        bad "list with an empty SYSDESC_PATH directory says: $(cat "$T/err")"
    run "$TOOL" show nvidia/h100-sxm >/dev/null 2>"$T/err"
    [ $? -eq 1 ] && grep -q "no catalog entry 'nvidia/h100-sxm' in $want_path " "$T/err" ||
        bad "show with no catalog says: $(cat "$T/err")"
fi
mv "$T/catalog.away" "$CAT"

[ $fail -eq 0 ] && echo "relocate: ok"
exit $fail
