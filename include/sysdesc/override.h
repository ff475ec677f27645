/*
 * sysdesc/override.h - a site's local truth over a probed or described
 * system: single values (`--set PATH=VALUE`) and whole files (`--override`).
 *
 * Every override is recorded: the device's "source" map gets
 * PATH-without-device = "override", the path leaves the device's "suspect"
 * list, and cache.L<k>.size_in_bytes (k = 1, 2, 3) and the flat key
 * L<k>_cache_size_in_bytes follow each other (docs/keys.md).
 *
 * Ownership: the returned spec is a new attribute in `ctx` (the input spec
 * is unchanged), owned by the context.
 *
 * Errors: NULL with `err` (may be NULL) filled.
 *
 * Threads: overriding writes to the context (see dlti.h).
 */
#ifndef SYSDESC_OVERRIDE_H
#define SYSDESC_OVERRIDE_H

#include "sysdesc/load.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Applies one override "PATH=VALUE" to a system spec and returns the new
 * spec.  PATH is a device id followed by keys, all separated by '.':
 * "CPU.cache.L3.size_in_bytes".  A device id that holds dots ("node0.CPU")
 * is matched as the longest existing device id prefix; a device that does
 * not exist is created.  VALUE is MLIR attribute syntax, parsed with
 * dlti_attr_parse(): 33554432 (an i64), "\"Zen 5\"", [1, 2].  Missing map
 * levels are created.  `spec` may be NULL: a new spec is made.
 * Errors: DLTI_ERROR_ARGUMENT (no '=', empty path), the parser's error for
 * VALUE, DLTI_ERROR_VERIFY/TYPE when the path crosses a non-map value.
 */
SYSDESC_API const dlti_attr *sysdesc_spec_override(dlti_context *ctx, const dlti_attr *spec,
                                                   const char *assignment, dlti_error_t *err);

/**
 * Applies every leaf value of the system spec `overrides` to `spec`, as
 * sysdesc_spec_override() would one by one (same bookkeeping); devices that
 * `spec` lacks are added.  `spec` may be NULL.  Errors as
 * sysdesc_spec_override(); DLTI_ERROR_VERIFY for a type key (it cannot be
 * addressed by a path).
 */
SYSDESC_API const dlti_attr *sysdesc_spec_override_spec(dlti_context *ctx, const dlti_attr *spec,
                                                        const dlti_attr *overrides,
                                                        dlti_error_t *err);

/**
 * Loads `path` with sysdesc_system_load() (YAML, MLIR or a catalog name,
 * `opts` as there) and applies its system spec with
 * sysdesc_spec_override_spec().  Errors: the loader's, or the override's
 * with `path` as the error's source.
 */
SYSDESC_API const dlti_attr *sysdesc_spec_override_file(dlti_context *ctx, const dlti_attr *spec,
                                                        const char *path,
                                                        const sysdesc_yaml_options *opts,
                                                        dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_OVERRIDE_H */
