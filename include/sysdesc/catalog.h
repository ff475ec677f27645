/*
 * sysdesc/catalog.h - the systems/ catalog of device descriptions, and
 * composing several descriptions into one system.
 *
 * Catalog entries are YAML files (see sysdesc/yaml.h) named by their path
 * below a catalog directory without the ".yaml" suffix: "nvidia/h100-sxm".
 * The search path is SYSDESC_PATH (':'-separated), then the installed
 * catalog (DATADIR/sysdesc/systems), then the source tree's systems/ when
 * the running program was built in that tree.
 *
 * Ownership and errors as in sysdesc/yaml.h: attributes belong to the
 * context; char * results are malloc'ed for the caller to free(); failures
 * return NULL or -1 with `err` (may be NULL) filled.  Nothing prints.
 */
#ifndef SYSDESC_CATALOG_H
#define SYSDESC_CATALOG_H

#include "sysdesc/dlti.h"
#include "sysdesc/yaml.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The default search path, ':'-separated: $SYSDESC_PATH, the installed
 * catalog, the source tree's systems/ (only when the running executable
 * lies in the build tree).  Malloc'ed; NULL when out of memory.
 */
char *sysdesc_catalog_path(void);

/**
 * The file of catalog entry `name` ("nvidia/h100-sxm"; a trailing ".yaml"
 * is allowed): the first DIR/name.yaml that exists along `search_path`
 * (NULL: sysdesc_catalog_path()).  Malloc'ed path, or NULL with
 * DLTI_ERROR_NOT_FOUND (the message lists the directories searched) or
 * DLTI_ERROR_ARGUMENT for a name holding "..".
 */
char *sysdesc_catalog_find(const char *name, const char *search_path, dlti_error_t *err);

/** One catalog entry as sysdesc_catalog_list() returns it (all malloc'ed). */
typedef struct sysdesc_catalog_entry {
    char *name;    /**< "nvidia/h100-sxm" */
    char *path;    /**< the file */
    char *vendor;  /**< the device's "vendor" key, "" when absent or a system */
    char *model;   /**< the device's "model" key ("" when absent), or for a
                        system "system of N devices" */
} sysdesc_catalog_entry;

/**
 * Every entry along `search_path` (NULL: the default), sorted by name; an
 * entry shadowed by one earlier in the path is left out.  Each file is
 * loaded to read vendor and model.  Returns 0 with `*entries` (free with
 * sysdesc_catalog_list_free()) and `*n`, or -1 with the first file's error.
 */
int sysdesc_catalog_list(const char *search_path, sysdesc_catalog_entry **entries, size_t *n,
                         dlti_error_t *err);
void sysdesc_catalog_list_free(sysdesc_catalog_entry *entries, size_t n);

/**
 * Checks one device spec against the device key schema of docs/keys.md
 * (known keys, value kinds, units, required keys, consistency of the flat
 * and nested cache keys).  `id` names the device in messages.  Returns 0,
 * or -1 with DLTI_ERROR_VERIFY and the first problem.
 */
int sysdesc_device_check(const dlti_attr *device, const char *id, dlti_error_t *err);

/**
 * The catalog device whose pci_vendor_id is `vendor_id` and whose
 * pci_device_ids hold `device_id`, loaded into `ctx`; `*name` (may be NULL)
 * gets its malloc'ed name.  NULL with DLTI_ERROR_NOT_FOUND when none
 * matches.
 */
const dlti_attr *sysdesc_catalog_match_pci(dlti_context *ctx, unsigned vendor_id,
                                           unsigned device_id, const char *search_path,
                                           char **name, dlti_error_t *err);

/* ---- composing ---- */

typedef struct sysdesc_compose sysdesc_compose;

/** A new empty composition building in `ctx`; NULL when out of memory. */
sysdesc_compose *sysdesc_compose_new(dlti_context *ctx);
/** Frees the composition (not the attributes: they belong to the context). */
void sysdesc_compose_free(sysdesc_compose *c);

/**
 * Adds the devices of `sys`.  `id` NULL keeps their ids; otherwise a
 * single-device system's device gets id `id`, and a system of several
 * devices gets every id prefixed by "ID." (as the probe's node prefix).
 * `count` > 1 adds that many copies of a single-device system, numbered
 * ID0, ID1, ... (ID: `id` or the device's own id).  A duplicate id is
 * DLTI_ERROR_VERIFY; a count on a system of several devices is
 * DLTI_ERROR_ARGUMENT; two different data layouts are DLTI_ERROR_VERIFY.
 */
int sysdesc_compose_add(sysdesc_compose *c, const sysdesc_system *sys, const char *id,
                        unsigned count, dlti_error_t *err);

/** The system composed so far.  Fails (DLTI_ERROR_VERIFY) when it is empty. */
int sysdesc_compose_finish(sysdesc_compose *c, sysdesc_system *out, dlti_error_t *err);

/**
 * Adds to `device` the keys of `catalog_device` that it lacks (a probed
 * GPU keeps what it measured and takes the rest from the catalog), deeply
 * for nested maps.  Returns the new device spec.
 */
const dlti_attr *sysdesc_device_fill(dlti_context *ctx, const dlti_attr *device,
                                     const dlti_attr *catalog_device, dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_CATALOG_H */
