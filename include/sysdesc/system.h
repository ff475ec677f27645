/*
 * sysdesc/system.h - a described system: a #dlti.target_system_spec and,
 * optionally, the module's #dlti.dl_spec.
 *
 * This is what every loader returns (sysdesc/load.h, sysdesc/probe.h
 * through a sysdesc_system you fill), what composition builds
 * (sysdesc/compose.h) and what every printer takes (sysdesc/print.h).
 *
 * Ownership: the attributes and the string belong to the dlti_context they
 * were built in and live until dlti_context_free(); a sysdesc_system is a
 * plain struct of pointers, copied freely, never freed.
 */
#ifndef SYSDESC_SYSTEM_H
#define SYSDESC_SYSTEM_H

#include "sysdesc/dlti.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A described system. */
typedef struct sysdesc_system {
    /** The #dlti.target_system_spec; never NULL after a successful load,
     *  but for SYSDESC_LOAD_ANY_MODULE and a SYSDESC_LOAD_LENIENT load of
     *  an MLIR file whose DLTI is no system spec (`module` holds it). */
    const dlti_attr *spec;
    /** The #dlti.dl_spec made from `data_layout:` (or the module's
     *  dlti.dl_spec), or NULL when there is none. */
    const dlti_attr *dl_spec;
    /** `data_layout:` text as written when it is a string (an LLVM data
     *  layout string or a triple), NUL-terminated, or NULL. */
    const char *data_layout;
    /** The parsed module when the description was MLIR (scoped queries:
     *  dlti_query()), NULL for YAML: the top module, or the op the
     *  description was loaded from (sysdesc_yaml_options.scope, a lenient
     *  load; dlti_scope_parent() leads out to the top module). */
    const dlti_scope *module;
    /** The module's `llvm.target` attribute (`#llvm.target<triple = ...,
     *  chip = ..., features = <[...]>>`, kept verbatim as an opaque
     *  attribute), or NULL.  MLIR output prints it back; YAML and JSON carry
     *  its facts as the CPU keys triple, compiler.llvm.cpu and features. */
    const dlti_attr *llvm_target;
} sysdesc_system;

/**
 * Builds the `#llvm.target` that MLIR's LLVM dialect reads
 * (`--llvm-target-to-data-layout`, `--llvm-target-to-target-features`) from
 * the keys of device `device` (NULL: "CPU") of the system spec `spec`:
 * `triple` (required), `compiler.llvm.cpu` as the chip and `features` as
 * `+name` target features, each when present.  Printed as mlir-opt-22
 * prints it.  The attribute belongs to `ctx`.  NULL with DLTI_ERROR_NOT_FOUND
 * when the device or its triple is missing, DLTI_ERROR_TYPE when a key has
 * another type, DLTI_ERROR_NOMEM when out of memory.
 */
SYSDESC_API const dlti_attr *sysdesc_llvm_target_new(dlti_context *ctx, const dlti_attr *spec,
                                                     const char *device, dlti_error_t *err);

/**
 * A hint for device id `id` that the #dlti.target_system_spec
 * `system_spec` does not hold, for an error message: "did you mean 'GPU'?
 * devices: GPU" — the nearest id (the same but for case, else within a
 * third of its length by edit distance), when one is nearer than the
 * others, then the ids
 * the system holds (the first 16, then "... (N in all)").  `id` NULL: the
 * ids alone ("devices: CPU, GPU0, GPU1").  Returns 0 with the text in
 * `out` (`size` bytes, cut to fit), or -1 when `system_spec` is no system
 * spec or holds no device.
 */
SYSDESC_API int sysdesc_device_hint(const dlti_attr *system_spec, const char *id, char *out,
                                    size_t size);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_SYSTEM_H */
