#!/bin/sh
# C and C++ programs build against an installed sysdesc two ways: CMake
# (find_package(sysdesc) and the imported target sysdesc::sysdesc) and
# pkg-config (sysdesc.pc).  The build is installed into a staging directory
# (meson install --destdir); each program runs and prints the library's
# version and a query answered from the installed catalog.  Skipped (77)
# without cmake, a C++ compiler or pkg-config.
set -u
: "${BUILDDIR:?}" "${SRCDIR:?}" "${PREFIX:?}" "${LIBDIR:?}" "${VERSION:?}"
skip() { echo "SKIP: $*"; exit 77; }
[ -n "${MESON:-}" ] || skip "meson was not found"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
command -v cmake >/dev/null || skip "no cmake"
command -v c++ >/dev/null || skip "no C++ compiler"
command -v pkg-config >/dev/null || skip "no pkg-config"
T=$(mktemp -d) || skip "no temporary directory"
trap 'rm -rf "$T"' EXIT
"$MESON" install -C "$BUILDDIR" --no-rebuild --destdir "$T/stage" >"$T/install.log" 2>&1 </dev/null ||
    { tail -5 "$T/install.log"; skip "meson install --destdir failed"; }
P=$T/stage$PREFIX
case $LIBDIR in /*) L=$T/stage$LIBDIR ;; *) L=$P/$LIBDIR ;; esac
want="$VERSION 132"
# A sanitized library (scripts/test-all's ASan pass) needs sanitized programs.
san=""
[ "${SANITIZE:-none}" = none ] || san="-fsanitize=$SANITIZE"
unset SYSDESC_PATH
for f in sysdescConfig.cmake sysdescConfigVersion.cmake; do
    [ -f "$L/cmake/sysdesc/$f" ] || bad "$f is not installed in $L/cmake/sysdesc"
done

# CMake, C and C++.
if cmake -S "$SRCDIR/tests/lib/consumer" -B "$T/cmake" -DCMAKE_PREFIX_PATH="$P" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
        >"$T/cmake.log" 2>&1 &&
   cmake --build "$T/cmake" >>"$T/cmake.log" 2>&1; then
    for prog in consumer_c consumer_cxx; do
        got=$(LD_LIBRARY_PATH="$L" "$T/cmake/$prog" 2>&1)
        [ "$got" = "$want" ] && echo "ok: cmake $prog: $got" || bad "cmake $prog printed '$got', not '$want'"
    done
else
    tail -20 "$T/cmake.log"
    bad "the CMake consumer did not configure and build"
fi
# A version the package does not provide is refused.
sed 's/find_package(sysdesc 0.1 REQUIRED)/find_package(sysdesc 9.9 REQUIRED)/' \
    "$SRCDIR/tests/lib/consumer/CMakeLists.txt" >"$T/CMakeLists.txt"
mkdir -p "$T/v" && cp "$T/CMakeLists.txt" "$SRCDIR/tests/lib/consumer/consumer.c" \
    "$SRCDIR/tests/lib/consumer/consumer.cpp" "$T/v/"
if cmake -S "$T/v" -B "$T/v/build" -DCMAKE_PREFIX_PATH="$P" >"$T/v.log" 2>&1; then
    bad "find_package(sysdesc 9.9) succeeded against $VERSION"
else
    echo "ok: find_package(sysdesc 9.9) is refused"
fi

# pkg-config, C and C++: the .pc file names the final prefix, the sysroot
# points it into the staging directory.
PCDIR=$L/pkgconfig
[ -f "$PCDIR/sysdesc.pc" ] || bad "sysdesc.pc is not installed in $PCDIR"
flags=$(PKG_CONFIG_PATH="$PCDIR" PKG_CONFIG_SYSROOT_DIR="$T/stage" pkg-config --cflags --libs sysdesc) ||
    bad "pkg-config --cflags --libs sysdesc failed"
cc $san -o "$T/pc_c" "$SRCDIR/tests/lib/consumer/consumer.c" $flags 2>"$T/pc_c.log" ||
    { cat "$T/pc_c.log"; bad "the pkg-config C consumer did not build"; }
c++ $san -o "$T/pc_cxx" "$SRCDIR/tests/lib/consumer/consumer.cpp" $flags 2>"$T/pc_cxx.log" ||
    { cat "$T/pc_cxx.log"; bad "the pkg-config C++ consumer did not build"; }
for prog in pc_c pc_cxx; do
    [ -x "$T/$prog" ] || continue
    got=$(LD_LIBRARY_PATH="$L" "$T/$prog" 2>&1)
    [ "$got" = "$want" ] && echo "ok: pkg-config $prog: $got" || bad "pkg-config $prog printed '$got', not '$want'"
done
exit $fail
