/* Data layout strings of common targets, keyed by triple.
 *
 * Each string is what LLVM 22's Triple::computeDataLayout() returns for the
 * triple (llvm/lib/TargetParser/TargetDataLayout.cpp, which holds the
 * per-target logic that used to live in each backend's TargetMachine); they
 * were taken from `opt-22 -S` on a module holding only the triple, which
 * fills the layout from that function.  tests/dlti/interop_llvm_dl.py
 * re-derives every row from opt-22 when it is installed, and checks that
 * every triple the lookup answers (variants of the rows, other systems) gets
 * LLVM's layout, so the table cannot drift.
 *
 * LLVM's layout depends on the operating system and environment, not only
 * on the architecture (Darwin mangles m:o, Windows m:w or m:x, big-endian
 * ppc64 uses ELFv2 on musl and FreeBSD 13, i686 aligns f80 by 128 on Darwin
 * and MSVC), so a triple is answered only by a row of the same architecture,
 * system and environment; only what LLVM ignores there is ignored: the
 * vendor, and the version of an Apple system (darwin23.1.0 = macosx14.0). */
#include "dlti_private.h"

#include <stdbool.h>
#include <stdio.h>
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
    {"x86_64-pc-windows-gnu",
     "e-m:w-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
     SRC},
    {"x86_64-unknown-linux-musl",
     "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
     SRC},
    {"x86_64-unknown-linux-gnux32",
     "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
     SRC},
    {"x86_64-unknown-freebsd",
     "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
     SRC},
    {"i686-unknown-linux-gnu",
     "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128",
     SRC},
    {"i686-pc-windows-msvc",
     "e-m:x-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32-a:0:32-S32",
     SRC},
    {"i686-pc-windows-gnu",
     "e-m:x-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:32-n8:16:32-a:0:32-S32",
     SRC},
    {"aarch64-unknown-linux-gnu",
     "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32",
     SRC},
    {"aarch64-apple-darwin",
     "e-m:o-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-n32:64-S128-Fn32",
     SRC},
    {"aarch64-pc-windows-msvc",
     "e-m:w-p270:32:32-p271:32:32-p272:64:64-p:64:64-i32:32-i64:64-i128:128-n32:64-S128-Fn32",
     SRC},
    {"aarch64-unknown-linux-musl",
     "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32",
     SRC},
    {"aarch64-unknown-linux-android",
     "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32",
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

/* The parts of a triple that decide its layout, read by position as LLVM's
 * Triple reads them (arch-vendor-system-environment; LLVM normalizes
 * nothing here, so "x86_64-linux-gnu" is not a Linux triple to it): the
 * architecture, system and environment.  LLVM's spellings that mean one
 * thing are made one: arm64 is aarch64; darwin, macos and macosx are one
 * system, and an Apple system's version is dropped.  False for a triple of
 * more than four parts. */
typedef struct triple_parts {
    char arch[32], os[32], env[32];
} triple_parts;

static bool triple_split(const char *triple, triple_parts *p)
{
    char *field[4] = {p->arch, NULL, p->os, p->env};
    p->arch[0] = p->os[0] = p->env[0] = '\0';
    size_t n = 0;
    for (const char *s = triple;; n++) {
        size_t len = strcspn(s, "-");
        if (n >= 4 || len >= sizeof(p->arch))
            return false;
        if (field[n])
            snprintf(field[n], sizeof(p->arch), "%.*s", (int)len, s);
        if (s[len] == '\0')
            break;
        s += len + 1;
    }
    if (strcmp(p->arch, "arm64") == 0)
        snprintf(p->arch, sizeof(p->arch), "aarch64");
    if (strncmp(p->os, "darwin", 6) == 0 || strncmp(p->os, "macos", 5) == 0)
        snprintf(p->os, sizeof(p->os), "macos");
    return p->arch[0] != '\0';
}

const dlti_target_dl *dlti_target_dl_find(const char *triple, dlti_error_t *err)
{
    if (!triple) {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "no triple given");
        return NULL;
    }
    for (size_t i = 0; i < dlti_target_dl_count(); i++)
        if (strcmp(table[i].triple, triple) == 0)
            return &table[i];
    triple_parts want, row;
    if (triple_split(triple, &want))
        for (size_t i = 0; i < dlti_target_dl_count(); i++)
            if (want.os[0] && triple_split(table[i].triple, &row) &&
                strcmp(row.arch, want.arch) == 0 && strcmp(row.os, want.os) == 0 &&
                strcmp(row.env, want.env) == 0)
                return &table[i];
    /* Name the rows of the architecture: the user's system may be one of
     * them under another spelling. */
    char rows[512] = "";
    size_t used = 0;
    if (triple_split(triple, &want))
        for (size_t i = 0; i < dlti_target_dl_count() && used < sizeof(rows); i++)
            if (triple_split(table[i].triple, &row) && strcmp(row.arch, want.arch) == 0) {
                int k = snprintf(rows + used, sizeof(rows) - used, "%s%s", used ? ", " : "",
                                 table[i].triple);
                used += k > 0 ? (size_t)k : 0;
            }
    if (used)
        bs_error_set(err, DLTI_ERROR_NOT_FOUND,
                     "no data layout known for target triple '%s': LLVM's depends on the "
                     "system and environment; the table's rows for %s are %s (or give the "
                     "layout string itself; see sysdesc dl-import --help)",
                     triple, want.arch, rows);
    else
        bs_error_set(err, DLTI_ERROR_NOT_FOUND,
                     "no data layout known for target triple '%s' (see sysdesc dl-import --help)",
                     triple);
    return NULL;
}
