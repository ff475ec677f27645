/* Data layout strings of common targets, keyed by triple.
 *
 * Each string is what LLVM 22's Triple::computeDataLayout() returns for the
 * triple (llvm/lib/TargetParser/TargetDataLayout.cpp, which holds the
 * per-target logic that used to live in each backend's TargetMachine); they
 * were taken from `opt-22 -S` on a module holding only the triple, which
 * fills the layout from that function.  tests/dlti/interop_llvm_dl.sh re-derives
 * every row from opt-22 when it is installed, so the table cannot drift. */
#include "dlti_private.h"

#include <string.h>

#define SRC "llvm/lib/TargetParser/TargetDataLayout.cpp"

static const dlti_target_dl table[] = {
    {"x86_64-unknown-linux-gnu",
     "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
     SRC},
    {"x86_64-pc-windows-msvc",
     "e-m:w-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
     SRC},
    {"x86_64-apple-macosx",
     "e-m:o-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
     SRC},
    {"i686-unknown-linux-gnu",
     "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128",
     SRC},
    {"i686-pc-windows-msvc",
     "e-m:x-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32-a:0:32-S32",
     SRC},
    {"aarch64-unknown-linux-gnu",
     "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32",
     SRC},
    {"aarch64-apple-darwin",
     "e-m:o-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-n32:64-S128-Fn32",
     SRC},
    {"aarch64_be-unknown-linux-gnu",
     "E-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32",
     SRC},
    {"arm-unknown-linux-gnueabihf",
     "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64",
     SRC},
    {"armv7-unknown-linux-gnueabihf",
     "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64",
     SRC},
    {"thumbv7em-none-eabi",
     "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64",
     SRC},
    {"armeb-unknown-linux-gnueabi",
     "E-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64",
     SRC},
    {"riscv32-unknown-elf",
     "e-m:e-p:32:32-i64:64-n32-S128",
     SRC},
    {"riscv64-unknown-linux-gnu",
     "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128",
     SRC},
    {"ppc64le-unknown-linux-gnu",
     "e-m:e-Fn32-i64:64-i128:128-n32:64-S128-v256:256:256-v512:512:512",
     SRC},
    {"powerpc64-unknown-linux-gnu",
     "E-m:e-Fi64-i64:64-i128:128-n32:64-S128-v256:256:256-v512:512:512",
     SRC},
    {"powerpc-unknown-linux-gnu",
     "E-m:e-p:32:32-Fn32-i64:64-n32",
     SRC},
    {"s390x-unknown-linux-gnu",
     "E-m:e-i1:8:16-i8:8:16-i64:64-f128:64-v128:64-a:8:16-n32:64",
     SRC},
    {"wasm32-unknown-unknown",
     "e-m:e-p:32:32-p10:8:8-p20:8:8-i64:64-i128:128-n32:64-S128-ni:1:10:20",
     SRC},
    {"wasm64-unknown-unknown",
     "e-m:e-p:64:64-p10:8:8-p20:8:8-i64:64-i128:128-n32:64-S128-ni:1:10:20",
     SRC},
    {"nvptx64-nvidia-cuda",
     "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64",
     SRC},
    {"nvptx-nvidia-cuda",
     "e-p:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64",
     SRC},
    {"amdgcn-amd-amdhsa",
     "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9",
     SRC},
    {"r600-unknown-unknown",
     "e-m:e-p:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1",
     SRC},
    {"spirv64-unknown-unknown",
     "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1",
     SRC},
    {"spirv32-unknown-unknown",
     "e-p:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1",
     SRC},
    {"spirv-unknown-vulkan1.3",
     "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G10",
     SRC},
    {"mips-unknown-linux-gnu",
     "E-m:m-p:32:32-i8:8:32-i16:16:32-i64:64-n32-S64",
     SRC},
    {"mipsel-unknown-linux-gnu",
     "e-m:m-p:32:32-i8:8:32-i16:16:32-i64:64-n32-S64",
     SRC},
    {"mips64el-unknown-linux-gnuabi64",
     "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128",
     SRC},
    {"sparcv9-unknown-linux-gnu",
     "E-m:e-i64:64-i128:128-n32:64-S128",
     SRC},
    {"sparc-unknown-linux-gnu",
     "E-m:e-p:32:32-i64:64-i128:128-f128:64-n32-S64",
     SRC},
    {"loongarch64-unknown-linux-gnu",
     "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128",
     SRC},
    {"hexagon-unknown-linux-musl",
     "e-m:e-p:32:32:32-a:0-n16:32-i64:64:64-i32:32:32-i16:16:16-i1:8:8-f32:32:32-f64:64:64-v32:32:32-v64:64:64-v512:512:512-v1024:1024:1024-v2048:2048:2048",
     SRC},
    {"bpfel",
     "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128",
     SRC},
    {"bpfeb",
     "E-m:e-p:64:64-i64:64-i128:128-n32:64-S128",
     SRC},
    {"avr-unknown-unknown",
     "e-P1-p:16:8-i8:8-i16:8-i32:8-i64:8-f32:8-f64:8-n8:16-a:8",
     SRC},
    {"msp430-unknown-unknown",
     "e-m:e-p:16:16-i32:16-i64:16-f32:16-f64:16-a:8-n8:16-S16",
     SRC},
    {"m68k-unknown-linux-gnu",
     "E-m:e-p:32:16:32-i8:8:8-i16:16:16-i32:16:32-n8:16:32-a:0:16-S16",
     SRC},
    {"lanai-unknown-unknown",
     "E-m:e-p:32:32-i64:64-a:0:32-n32-S64",
     SRC},
    {"ve-unknown-linux-gnu",
     "e-m:e-i64:64-n32:64-S128-v64:64:64-v128:64:64-v256:64:64-v512:64:64-v1024:64:64-v2048:64:64-v4096:64:64-v8192:64:64-v16384:64:64",
     SRC},
    {"xcore-unknown-unknown",
     "e-m:e-p:32:32-i1:8:32-i8:8:32-i16:16:32-i64:32-f64:32-a:0:32-n32",
     SRC},
};

size_t dlti_target_dl_count(void)
{
    return sizeof(table) / sizeof(table[0]);
}

const dlti_target_dl *dlti_target_dl_get(size_t i)
{
    return i < dlti_target_dl_count() ? &table[i] : NULL;
}

const dlti_target_dl *dlti_target_dl_find(const char *triple, dlti_error_t *err)
{
    if (!triple) {
        dlti_error_set(err, DLTI_ERROR_ARGUMENT, "no triple given");
        return NULL;
    }
    for (size_t i = 0; i < dlti_target_dl_count(); i++)
        if (strcmp(table[i].triple, triple) == 0)
            return &table[i];
    /* The architecture decides most of the layout; the first row of an
     * architecture is its most common OS/ABI. */
    size_t arch = strcspn(triple, "-");
    for (size_t i = 0; i < dlti_target_dl_count(); i++)
        if (strncmp(table[i].triple, triple, arch) == 0 &&
            (table[i].triple[arch] == '-' || table[i].triple[arch] == '\0'))
            return &table[i];
    dlti_error_set(err, DLTI_ERROR_NOT_FOUND,
                   "no data layout known for target triple '%s' (see sysdesc dl-import --help)",
                   triple);
    return NULL;
}
