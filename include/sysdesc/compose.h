/*
 * sysdesc/compose.h - several descriptions (and the probed host) into one
 * system.
 *
 * Ownership: a sysdesc_compose is malloc'ed and freed with
 * sysdesc_compose_free(); the attributes it builds belong to its context.
 *
 * Errors: failures return NULL or -1 with `err` (may be NULL) filled.
 *
 * Threads: composing writes to the context (see dlti.h).
 */
#ifndef SYSDESC_COMPOSE_H
#define SYSDESC_COMPOSE_H

#include "sysdesc/load.h"
#include "sysdesc/system.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sysdesc_compose sysdesc_compose;

/** A new empty composition building in `ctx`; NULL when out of memory. */
SYSDESC_API sysdesc_compose *sysdesc_compose_new(dlti_context *ctx);
/** Frees the composition (not the attributes: they belong to the context). NULL is allowed. */
SYSDESC_API void sysdesc_compose_free(sysdesc_compose *c);

/**
 * Adds the devices of `sys`.  `id` NULL keeps their ids; otherwise a
 * single-device system's device gets id `id`, and a system of several
 * devices gets every id prefixed by "ID." (as the probe's node prefix).
 * `count` 0 adds the devices once, under those ids; `count` N >= 1 adds N
 * copies of a single-device system, numbered ID0 .. ID<N-1> (ID: `id` or the
 * device's own id): N = 1 gives ID0, as `GPU=ITEM:1` does on the command line.  A duplicate id is
 * DLTI_ERROR_VERIFY; a count on a system of several devices is
 * DLTI_ERROR_ARGUMENT; two different data layouts are DLTI_ERROR_VERIFY; a
 * device past 100,000 in the composition is DLTI_ERROR_LIMIT (so a short
 * command line cannot make a spec of gigabytes).
 */
SYSDESC_API int sysdesc_compose_add(sysdesc_compose *c, const sysdesc_system *sys,
                                    const char *id, unsigned count, dlti_error_t *err);

/**
 * Adds one item as `sysdesc compose` and Python's compose() read it:
 * "[ID=]ITEM[:N]", ITEM a YAML or MLIR file, "-" or a catalog name
 * (sysdesc_system_load() with `opts`, NULL for the defaults; into the
 * composition's context), ID and N as sysdesc_compose_add() takes them.
 * An '=' after a '/' belongs to ITEM (a path); whatever follows the last
 * ':' that looks like a count (signs, blanks, digits or nothing) is one and
 * must be 1..100000.  Errors: DLTI_ERROR_ARGUMENT "'ITEM' is not
 * [ID=]ITEM[:N] (N from 1 to 100000)" (no source); the load's own error
 * (with its file and position); sysdesc_compose_add()'s, its text
 * prefixed "ITEM: ".
 */
SYSDESC_API int sysdesc_compose_add_item(sysdesc_compose *c, const char *item,
                                         const sysdesc_yaml_options *opts, dlti_error_t *err);

/** The system composed so far.  Fails (DLTI_ERROR_VERIFY) when it is empty. */
SYSDESC_API int sysdesc_compose_finish(sysdesc_compose *c, sysdesc_system *out,
                                       dlti_error_t *err);

/**
 * Adds to `device` the keys of `catalog_device` that it lacks (a probed
 * GPU keeps what it measured and takes the rest from the catalog), deeply
 * for nested maps.  Returns the new device spec, or NULL with `err` filled.
 */
SYSDESC_API const dlti_attr *sysdesc_device_fill(dlti_context *ctx, const dlti_attr *device,
                                                 const dlti_attr *catalog_device,
                                                 dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_COMPOSE_H */
