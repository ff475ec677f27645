#!/bin/sh
# C and C++ programs build against an installed sysdesc two ways: CMake
# (find_package(sysdesc) and the imported target sysdesc::sysdesc) and
# pkg-config (sysdesc.pc); each program runs and prints the library's
# version and a query answered from the installed catalog, with
# SYSDESC_PATH unset.
#
# Without arguments: the build is installed into a staging directory (meson
# install --destdir), the prefix is MOVED elsewhere, and the programs build
# against the moved prefix: both files name their directories relative to
# themselves, so no PKG_CONFIG_SYSROOT_DIR or edited path is needed.
# With `--wheel PKGDIR` (tests/python/test_installed.py): the package
# directory of a pip-installed wheel, which is its own prefix (include/,
# lib/, lib/pkgconfig, lib/cmake, systems/); its programs find the library by
# rpath, so they run without LD_LIBRARY_PATH.
# Skipped (77) without cmake, a C++ compiler or pkg-config.
set -u
: "${SRCDIR:?}" "${VERSION:?}"
skip() { echo "SKIP: $*"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }
command -v cmake >/dev/null || skip "no cmake"
command -v c++ >/dev/null || skip "no C++ compiler"
command -v pkg-config >/dev/null || skip "no pkg-config"
T=$(mktemp -d) || skip "no temporary directory"
trap 'rm -rf "$T"' EXIT
T=$(cd -P "$T" && pwd)
if [ "${1:-}" = "--wheel" ]; then
    P=$2 L=$2/lib PCDIR=$2/lib/pkgconfig CMDIR=$2/lib/cmake/sysdesc
    run_env="env -u LD_LIBRARY_PATH"
    echo "a wheel's package: $P"
else
    : "${BUILDDIR:?}" "${PREFIX:?}" "${LIBDIR:?}"
    [ -n "${MESON:-}" ] || skip "meson was not found"
    "$MESON" install -C "$BUILDDIR" --no-rebuild --destdir "$T/stage" >"$T/install.log" 2>&1 </dev/null ||
        { tail -5 "$T/install.log"; skip "meson install --destdir failed"; }
    case $LIBDIR in /*) skip "$LIBDIR lies outside the prefix: nothing to move" ;; esac
    mkdir "$T/elsewhere"
    mv "$T/stage$PREFIX" "$T/elsewhere/moved" || skip "cannot move the installed prefix"
    rm -rf "$T/stage"
    P=$T/elsewhere/moved L=$T/elsewhere/moved/$LIBDIR
    PCDIR=$L/pkgconfig CMDIR=$L/cmake/sysdesc
    run_env="env LD_LIBRARY_PATH=$L"
    echo "installed with meson, then moved to $P"
fi
want="$VERSION 132"
# A sanitized library (scripts/test-all's ASan pass) needs sanitized programs.
san=""
[ "${SANITIZE:-none}" = none ] || san="-fsanitize=$SANITIZE"
unset SYSDESC_PATH PKG_CONFIG_SYSROOT_DIR
for f in sysdescConfig.cmake sysdescConfigVersion.cmake; do
    [ -f "$CMDIR/$f" ] || bad "$f is not installed in $CMDIR"
done

# CMake, C and C++.
if cmake -S "$SRCDIR/examples/consumer" -B "$T/cmake" -DCMAKE_PREFIX_PATH="$P" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
        >"$T/cmake.log" 2>&1 &&
   cmake --build "$T/cmake" >>"$T/cmake.log" 2>&1; then
    grep -q "sysdesc_DIR:PATH=$CMDIR\$" "$T/cmake/CMakeCache.txt" ||
        bad "CMake found another sysdesc: $(grep sysdesc_DIR "$T/cmake/CMakeCache.txt")"
    for prog in consumer_c consumer_cxx; do
        got=$($run_env "$T/cmake/$prog" 2>&1)
        [ "$got" = "$want" ] && echo "ok: cmake $prog: $got" || bad "cmake $prog printed '$got', not '$want'"
    done
else
    tail -20 "$T/cmake.log"
    bad "the CMake consumer did not configure and build"
fi
# A version the package does not provide is refused.
sed 's/find_package(sysdesc 0.1 REQUIRED)/find_package(sysdesc 9.9 REQUIRED)/' \
    "$SRCDIR/examples/consumer/CMakeLists.txt" >"$T/CMakeLists.txt"
mkdir -p "$T/v" && cp "$T/CMakeLists.txt" "$SRCDIR/examples/consumer/consumer.c" \
    "$SRCDIR/examples/consumer/consumer.cpp" "$T/v/"
if cmake -S "$T/v" -B "$T/v/build" -DCMAKE_PREFIX_PATH="$P" >"$T/v.log" 2>&1; then
    bad "find_package(sysdesc 9.9) succeeded against $VERSION"
else
    echo "ok: find_package(sysdesc 9.9) is refused"
fi

# pkg-config, C and C++: the .pc file as it lies, nothing rewritten.
[ -f "$PCDIR/sysdesc.pc" ] || bad "sysdesc.pc is not installed in $PCDIR"
grep -q '^prefix=${pcfiledir}/' "$PCDIR/sysdesc.pc" || bad "sysdesc.pc: $(grep '^prefix=' "$PCDIR/sysdesc.pc")"
flags=$(PKG_CONFIG_PATH="$PCDIR" pkg-config --cflags --libs sysdesc) ||
    bad "pkg-config --cflags --libs sysdesc failed"
inc=$(PKG_CONFIG_PATH="$PCDIR" pkg-config --variable=includedir sysdesc)
[ -f "$inc/sysdesc/sysdesc.h" ] || bad "pkg-config's includedir $inc has no sysdesc/sysdesc.h"
cc $san -o "$T/pc_c" "$SRCDIR/examples/consumer/consumer.c" $flags 2>"$T/pc_c.log" ||
    { cat "$T/pc_c.log"; bad "the pkg-config C consumer did not build"; }
c++ $san -o "$T/pc_cxx" "$SRCDIR/examples/consumer/consumer.cpp" $flags 2>"$T/pc_cxx.log" ||
    { cat "$T/pc_cxx.log"; bad "the pkg-config C++ consumer did not build"; }
for prog in pc_c pc_cxx; do
    [ -x "$T/$prog" ] || continue
    got=$($run_env "$T/$prog" 2>&1)
    [ "$got" = "$want" ] && echo "ok: pkg-config $prog: $got" || bad "pkg-config $prog printed '$got', not '$want'"
done

# pkg-config --static: the static library and what it needs, hwloc's own
# Libs.private (-ludev: libudev-dev, scripts/install-deps) included.  A folder
# that holds libsysdesc.a alone comes first, so the program links that, not
# libsysdesc.so.  Its catalog is found from the executable's place (the
# bindir rule), which this program does not share: SYSDESC_PATH names it.
# (A wheel has no static library.)
if [ "${1:-}" != "--wheel" ] && [ -f "$L/libsysdesc.a" ]; then
    if sflags=$(PKG_CONFIG_PATH="$PCDIR" pkg-config --static --cflags --libs sysdesc); then
        mkdir "$T/static-only" && ln -s "$L/libsysdesc.a" "$T/static-only/libsysdesc.a"
        if cc $san -o "$T/pc_static" "$SRCDIR/examples/consumer/consumer.c" -L"$T/static-only" \
                $sflags 2>"$T/pc_static.log"; then
            cat=$(find "$P" -type d -path '*/sysdesc/systems' | head -n 1)
            if readelf -d "$T/pc_static" | grep -q 'NEEDED.*libsysdesc'; then
                bad "the pkg-config --static program needs libsysdesc.so"
            else
                got=$(env -u LD_LIBRARY_PATH SYSDESC_PATH="$cat" "$T/pc_static" 2>&1)
                [ "$got" = "$want" ] && echo "ok: pkg-config --static pc_static: $got" ||
                    bad "pkg-config --static pc_static printed '$got', not '$want'"
            fi
        else
            cat "$T/pc_static.log"
            bad "the pkg-config --static C consumer did not link ($sflags)"
        fi
    else
        bad "pkg-config --static --cflags --libs sysdesc failed"
    fi
fi
exit $fail
