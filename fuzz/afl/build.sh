#!/bin/sh
# Builds the fuzz targets for AFL++ (the second engine): the same harnesses
# as libFuzzer's (fuzz/fuzz_*.c, their invariants included), compiled with
# afl-clang-fast, whose -fsanitize=fuzzer links AFL++'s own driver in place
# of libFuzzer.  UBSan on (undefined behaviour is a crash); ASan off, so that
# AFL's fork server runs at full speed: the libFuzzer runs carry ASan.
#   sh fuzz/afl/build.sh [BUILD_DIR]          default build-afl
set -eu
build=${1:-build-afl}
cd "$(dirname "$0")/../.."
command -v afl-clang-fast >/dev/null 2>&1 || { echo "afl-clang-fast not found (apt-get install afl++)" >&2; exit 77; }
if [ ! -d "$build" ]; then
    CC=afl-clang-fast AFL_QUIET=1 meson setup "$build" -Dfuzzing=true -Db_sanitize=undefined \
        -Db_lundef=false -Dwerror=false -Dbuildtype=debugoptimized >/dev/null
fi
AFL_QUIET=1 ninja -C "$build" fuzz/fuzz_mlir fuzz/fuzz_yaml fuzz/fuzz_formats fuzz/fuzz_dl \
    fuzz/fuzz_layout fuzz/fuzz_query fuzz/fuzz_type >/dev/null
echo "$build/fuzz: built for AFL++"
