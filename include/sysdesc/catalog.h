/*
 * sysdesc/catalog.h - the systems/ catalog of device descriptions: finding
 * entries, listing them, matching probed PCI devices to them.
 *
 * Catalog entries are YAML files (see sysdesc/load.h) named by their path
 * below a catalog directory without the ".yaml" suffix: "nvidia/h100-sxm".
 * The search path is SYSDESC_PATH (':'-separated), then the catalog
 * installed next to the running library or program (a moved installation
 * finds its own), then the configured DATADIR/sysdesc/systems, then the
 * source tree's systems/ when the running code was built in that tree.
 *
 * Ownership and errors as in sysdesc/load.h: attributes belong to the
 * context; char * results are malloc'ed for the caller to free(); failures
 * return NULL or -1 with `err` (may be NULL) filled.  Nothing prints.
 */
#ifndef SYSDESC_CATALOG_H
#define SYSDESC_CATALOG_H

#include "sysdesc/dlti.h"
#include "sysdesc/load.h"
#include "sysdesc/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The default search path, ':'-separated, in this order:
 *  1. $SYSDESC_PATH, when set and not empty;
 *  2. the relocated catalog: the file that holds this code (libsysdesc.so,
 *     found with dladdr(), or the executable libsysdesc.a is linked into,
 *     /proc/self/exe) with symbolic links resolved, its directory, then
 *     the configured datadir relative to the configured libdir or bindir:
 *     PREFIX/lib/x86_64-linux-gnu/libsysdesc.so.0 gives
 *     PREFIX/share/sysdesc/systems wherever PREFIX was moved.  Left out
 *     when it is the configured one, when libdir/bindir/datadir were
 *     configured as absolute paths outside the prefix, and when the code
 *     lies in the build tree;
 *  3. the configured DATADIR/sysdesc/systems;
 *  4. the source tree's systems/, only when the code lies in the build tree.
 * Directories that do not exist are listed all the same.  Malloc'ed; NULL
 * when out of memory.
 */
SYSDESC_API char *sysdesc_catalog_path(void);

/**
 * The file of catalog entry `name` ("nvidia/h100-sxm"; a trailing ".yaml"
 * is allowed): the first DIR/name.yaml that exists along `search_path`
 * (NULL: sysdesc_catalog_path()).  Malloc'ed path, or NULL with
 * DLTI_ERROR_NOT_FOUND (the message lists the directories searched, and
 * ends with the entries `name` begins or nearly spells, cases ignored:
 * "; did you mean 'nvidia/h100-nvl', 'nvidia/h100-sxm' or
 * 'nvidia/h100-pcie'?") or
 * DLTI_ERROR_ARGUMENT for a name holding "..".
 */
SYSDESC_API char *sysdesc_catalog_find(const char *name, const char *search_path, dlti_error_t *err);

/** One catalog entry as sysdesc_catalog_list() returns it (all malloc'ed). */
typedef struct sysdesc_catalog_entry {
    char *name;    /**< "nvidia/h100-sxm" */
    char *path;    /**< the file */
    char *vendor;  /**< the device's "vendor" key ("" when absent); for a
                        system its devices' vendors, each once, in device
                        order, joined by ", " ("GenuineIntel, NVIDIA") */
    char *model;   /**< the device's "model" key ("" when absent); for a
                        system its devices' models joined by " + ", "N × "
                        before a model N devices share ("Intel(R) Xeon(R)
                        Platinum 8480C + 8 × H100 SXM5 80GB") */
} sysdesc_catalog_entry;

/**
 * Every entry along `search_path` (NULL: the default), sorted by name; an
 * entry shadowed by one earlier in the path is left out.  Each file is
 * loaded to read vendor and model.  Returns 0 with `*entries` (free with
 * sysdesc_catalog_list_free()) and `*n`, or -1 with the first file's error.
 */
SYSDESC_API int sysdesc_catalog_list(const char *search_path, sysdesc_catalog_entry **entries, size_t *n,
                         dlti_error_t *err);
SYSDESC_API void sysdesc_catalog_list_free(sysdesc_catalog_entry *entries, size_t n);

/**
 * The catalog device whose pci_vendor_id is `vendor_id` and whose
 * pci_device_ids hold `device_id`, loaded into `ctx`; `*name` (may be NULL)
 * gets its malloc'ed name.  A declared variant ("# variant-of: NAME", a
 * MIG profile sharing its GPU's id; docs/catalog.md) is never the answer.
 * The id alone means the whole product: partition profiles (declared
 * variants) are not answered.
 * NULL with DLTI_ERROR_NOT_FOUND when none matches, and when several
 * products claim the id (siblings: the Radeon RX 7900 XT and XTX are both
 * 1002:744c): the id alone does not say which, and the text names them;
 * sysdesc_catalog_pci_fill() tells a probed device's apart.
 */
SYSDESC_API const dlti_attr *sysdesc_catalog_match_pci(dlti_context *ctx, unsigned vendor_id,
                                           unsigned device_id, const char *search_path,
                                           char **name, dlti_error_t *err);

/**
 * A sysdesc_pci_match_fn (sysdesc/probe.h) that fills a probed GPU from the
 * catalog entry that is the device, of those claiming its PCI ids (products
 * and their declared partition profiles, docs/catalog.md "PCI ids, siblings
 * and partitions"): the GPU takes the entry's keys it lacks
 * (sysdesc_device_fill(): measured values win).  Entries whose
 * num_compute_units differs from the device's, or whose memory could not be
 * what the device reports (more than the entry's marketed size, or under
 * 85% of its memory), are out; a whole product is out for a device a
 * runtime calls a partition (is_partition), a profile for a device that is
 * not one, reports no compute units, or that a whole product fits; of those
 * left, one whose model a runtime's name for the device holds (hwloc's
 * GPUModel, runtimes.*.name, product_name, device_name) when that is one.
 * Its "source" gets "catalog" = which entry and why the others are not;
 * when no single entry is left, nothing is filled and "catalog" says why,
 * never a sibling's or the whole product's values for a partition.
 * `search_path` is the catalog path (NULL: the default).  Each key it fills
 * gets "catalog NAME"
 * in the device's "source" map; a measured key (one with a "source" line of
 * its own: a runtime's, an OS device's) that the entry gives differently
 * keeps its value, and the entry's is recorded under
 * "disagreements".KEY."catalog NAME" (docs/runtimes.md).  The CLI's
 * `probe`, `query --host`, `compose --host` and `summary --host` and
 * Python's host() use it through sysdesc_catalog_probe_options().
 * Returns 0 (also when nothing matches), or -1 with `err` filled when an
 * entry cannot be loaded.
 */
SYSDESC_API int sysdesc_catalog_pci_fill(void *search_path, dlti_context *ctx,
                                         const sysdesc_pci_info *pci,
                                         const dlti_attr **device_spec, dlti_error_t *err);

/**
 * Makes `opts` fill probed GPUs from the catalog along `search_path` (NULL:
 * the default), as the CLI and Python's host() probe: `pci_match` is
 * sysdesc_catalog_pci_fill() and `pci_match_user` the path, which `opts`
 * keeps (it must outlive the probe).
 */
SYSDESC_API void sysdesc_catalog_probe_options(sysdesc_probe_options *opts,
                                               const char *search_path);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_CATALOG_H */
