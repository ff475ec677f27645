/*
 * sysdesc/uarch.h - the CPU identity keys a microarchitecture implies
 * (docs/keys.md, "Microarchitecture and compiler targets").
 *
 * The host probe recognises a CPU's microarchitecture with a table (rows
 * from archspec's microarchitectures.json, LLVM's Host.cpp and GCC's release
 * notes) and writes the CPU keys `uarch`, `uarch_ancestors`, `triple` and
 * `compiler`.  These functions give the same keys for a microarchitecture
 * named by hand, from the same table through the same code: what a catalog
 * entry (or an override file) writes for a CPU it describes, so that it
 * carries the keys a probe of that CPU would.  Names are archspec's:
 * "zen4", "sapphirerapids", "neoverse_v2"; sysdesc_uarch_name() lists them.
 *
 * One difference from a probe: `compiler.llvm.cpu` is the row's LLVM name.
 * Where LLVM names a model of its own that the table folds into one row
 * (Ice Lake server "icelake-server" in row icelake, Raptor Lake in
 * alderlake, Emerald Rapids in sapphirerapids), the probe of that model
 * writes LLVM's model name instead.
 *
 * Ownership: the attributes belong to `ctx` and live until
 * dlti_context_free(); the names are static strings.
 *
 * Errors: NULL with `err` filled: DLTI_ERROR_NOT_FOUND for a name the table
 * lacks (the text suggests the nearest name: "unknown microarchitecture
 * 'zen6'; did you mean 'zen5'?", or the row whose LLVM name it is: "znver4"
 * suggests 'zen4'), DLTI_ERROR_ARGUMENT for a NULL `ctx` or name,
 * DLTI_ERROR_NOMEM.
 *
 * Threads: sysdesc_uarch_count() and sysdesc_uarch_name() read a constant
 * table, from any thread; the builders write to `ctx` and need exclusive
 * access to it, as every builder (sysdesc/dlti.h).
 */
#ifndef SYSDESC_UARCH_H
#define SYSDESC_UARCH_H

#include <stddef.h>

#include "sysdesc/dlti.h"
#include "sysdesc/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How many microarchitectures the table knows. */
SYSDESC_API size_t sysdesc_uarch_count(void);

/**
 * The name of the `i`th microarchitecture (0 <= i < sysdesc_uarch_count()),
 * in the table's order (by architecture, older before newer), or NULL past
 * the end.
 */
SYSDESC_API const char *sysdesc_uarch_name(size_t i);

/**
 * The compiler map the probe writes for microarchitecture `uarch`, as a
 * #dlti.map: "gcc" and "clang" (each when the table has flags for it or
 * for an ancestor): march, mtune, mcpu (each when the flags set it), flags,
 * min_version, max_version (when bounded) of the newest entry, and
 * "fallback", the same for older compilers (with "uarch" naming the
 * ancestor it targets when not `uarch` itself); "llvm": cpu, LLVM's name.
 */
SYSDESC_API const dlti_attr *sysdesc_uarch_compiler_map(dlti_context *ctx, const char *uarch,
                                                        dlti_error_t *err);

/**
 * Every CPU identity key the probe writes for microarchitecture `uarch`, in
 * its order, as a #dlti.map: "uarch" (the name), "uarch_ancestors"
 * (archspec's ancestors, nearest first, as an array of strings; absent for
 * a row with no parent: x86_64, aarch64, riscv64), "triple" (LLVM's, on
 * Linux with glibc) and "compiler" (sysdesc_uarch_compiler_map()).
 */
SYSDESC_API const dlti_attr *sysdesc_uarch_keys(dlti_context *ctx, const char *uarch,
                                                dlti_error_t *err);

/**
 * sysdesc_uarch_keys() for given compiler versions ("12.2.0", "14"; NULL:
 * none, the table's newest entry): compiler.gcc (compiler.clang) is then
 * the first entry of the chain (the row's own entries, newest first, then
 * each ancestor's, down to the generic row) whose version range holds that
 * version, with "uarch" naming the ancestor it comes from, "version" the
 * version given, and "fallback" the next entry an older compiler takes.
 * What the probe writes for an installed compiler of that version, except
 * that the probe also compiles the flags with it (and walks down the chain
 * should it refuse them).  Errors as sysdesc_uarch_keys().
 */
SYSDESC_API const dlti_attr *sysdesc_uarch_keys_for(dlti_context *ctx, const char *uarch,
                                                    const char *gcc_version,
                                                    const char *clang_version, dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_UARCH_H */
