/*
 * sysdesc/attach.h - put a system's DLTI attributes on the top-level module
 * of an MLIR file as compiler drivers hold it (func.func, gpu.module, ...),
 * changing nothing else of the file byte for byte.
 *
 * Ownership: the returned text is malloc'ed and NUL-terminated; the caller
 * free()s it.  `sys` must have been loaded into `ctx` (merging compares
 * keys interned there); attributes made while merging live in `ctx`.
 *
 * Errors: NULL with `err` filled: the parser's error for a file sysdesc
 * cannot read (FILE:LINE:COL), DLTI_ERROR_UNSUPPORTED for a bare attribute
 * or top-level operations that cannot be wrapped, DLTI_ERROR_NOMEM.
 *
 * Threads: writes to the context (see dlti.h).
 */
#ifndef SYSDESC_ATTACH_H
#define SYSDESC_ATTACH_H

#include "sysdesc/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Flags of sysdesc_attach(). */
enum {
    /** Merge into an existing dlti.target_system_spec under MLIR's setDlti
     *  rules (a device already there is replaced where it stands, a new
     *  one is appended) instead of replacing it whole. */
    SYSDESC_ATTACH_MERGE = 1u << 0,
    /** Write MLIR head's inherent `dlti = #dlti.target_system_spec<...>`
     *  instead of MLIR 22's `dlti.target_system_spec = ...`. */
    SYSDESC_ATTACH_INHERENT = 1u << 1,
    /** Write the attributes one DLTI entry a line (DLTI_PRINT_PRETTY). */
    SYSDESC_ATTACH_PRETTY = 1u << 2
};

/** What sysdesc_attach() did beyond adding attributes, for warnings. */
enum {
    /** An existing target system spec was replaced whole. */
    SYSDESC_ATTACHED_REPLACED_SPEC = 1u << 0,
    /** An existing target system spec was merged into. */
    SYSDESC_ATTACHED_MERGED_SPEC = 1u << 1,
    /** An existing data layout spec was replaced (setDlti leaves a
     *  #dlti.dl_spec immutable, so it is never merged). */
    SYSDESC_ATTACHED_REPLACED_DL_SPEC = 1u << 2,
    /** An existing llvm.target was replaced. */
    SYSDESC_ATTACHED_REPLACED_TARGET = 1u << 3,
    /** The file had no top-level `module`: its operations were wrapped in
     *  an explicit one (the module MLIR makes implicitly). */
    SYSDESC_ATTACHED_WRAPPED = 1u << 4,
    /** SPEC had other DLTI than a system spec (`sys->spec` NULL) and an
     *  attribute of one of its names was replaced. */
    SYSDESC_ATTACHED_REPLACED_DLTI = 1u << 5,
    /** ... or, with SYSDESC_ATTACH_MERGE, merged (both #dlti.map). */
    SYSDESC_ATTACHED_MERGED_DLTI = 1u << 6
};

/**
 * Puts `sys->spec` as dlti.target_system_spec, `sys->dl_spec` (when not
 * NULL) as dlti.dl_spec and `llvm_target` (when not NULL, any attribute) as
 * llvm.target on the top-level module of the MLIR text `text` (`len` bytes,
 * named `source` in errors).  An existing attribute of the same role is
 * replaced where it stands (a dl_spec under any name, since a module holds
 * one; a system spec under dlti.target_system_spec or the inherent `dlti`);
 * new ones go after the last attribute of the module's dictionary, or in a
 * new `attributes {...}` after `module` / `module @name`.  Everything else,
 * comments, blank space and CRLF line ends included, is copied unchanged.
 * `*what` (may be NULL) gets SYSDESC_ATTACHED_* bits.  The result is parsed
 * again before it is returned.
 *
 * A system without a system spec (`sys->spec` NULL: a lenient load of DLTI
 * that is none, SYSDESC_LOAD_LENIENT) puts the DLTI attributes of
 * `sys->module` instead (a #dlti.map, arrays of device specs), each under
 * its own name, replacing one of that name where it stands (merging two
 * #dlti.map with SYSDESC_ATTACH_MERGE), and `sys->dl_spec` as above;
 * SYSDESC_ATTACH_INHERENT concerns the system spec only.
 */
SYSDESC_API char *sysdesc_attach(dlti_context *ctx, const char *text, size_t len,
                                 const char *source, const sysdesc_system *sys,
                                 const dlti_attr *llvm_target, unsigned flags, unsigned *what,
                                 size_t *out_len, dlti_error_t *err);

/**
 * sysdesc_attach() on the file `path` ("-": standard input), read within the
 * context's input limit; DLTI_ERROR_IO (the OS's reason) when it cannot be read.
 */
SYSDESC_API char *sysdesc_attach_file(dlti_context *ctx, const char *path,
                                      const sysdesc_system *sys, const dlti_attr *llvm_target,
                                      unsigned flags, unsigned *what, size_t *out_len,
                                      dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_ATTACH_H */
