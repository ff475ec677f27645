/*
 * sysdesc/tuner.h - one device of a system in an autotuner's own field
 * names: a TVM target, Triton's device properties, PyTorch Inductor's
 * DeviceProperties (docs/export.md lists every field, the key it comes
 * from, its unit, and where the project defines it).
 *
 * The mapping lives here once: `sysdesc export` and the Python module's
 * Spec.export() both call sysdesc_tuner_export(), so they cannot disagree.
 * A field whose source key is absent is left out, never given a default.
 *
 * And a fingerprint of a system or one device, a short string that
 * changes when the performance-relevant facts change and not otherwise, to
 * key a tuner's cache of tuned configurations by (docs/fingerprint.md).
 *
 * Ownership: the text returned is malloc'ed for the caller to free().
 * Errors: NULL (or -1) with `err` (may be NULL) filled.  Threads: only reads.
 */
#ifndef SYSDESC_TUNER_H
#define SYSDESC_TUNER_H

#include "sysdesc/dlti.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The autotuners an export is for. */
typedef enum sysdesc_tuner {
    SYSDESC_TUNER_TVM = 0,  /**< a TVM target's attributes (kind "cuda", "rocm", "llvm") */
    SYSDESC_TUNER_TRITON,   /**< driver.active.utils.get_device_properties() */
    SYSDESC_TUNER_INDUCTOR  /**< torch._inductor.runtime.hints.DeviceProperties */
} sysdesc_tuner;

/** The tuner named `name` ("tvm", "triton", "inductor"): 0, or -1 for another name. */
SYSDESC_API int sysdesc_tuner_parse(const char *name, sysdesc_tuner *tuner);

/** The names sysdesc_tuner_parse() accepts, for messages: "tvm, triton, inductor". */
SYSDESC_API const char *sysdesc_tuner_names(void);

/**
 * Device `device_id` of system spec `spec` as a JSON object (RFC 8259, two
 * spaces of indent, a final newline) of `tuner`'s fields, in the order
 * docs/export.md lists them.  `*len` (may be NULL) gets the length.
 * Fails with DLTI_ERROR_NOT_FOUND when the spec has no such device,
 * DLTI_ERROR_ARGUMENT when `spec` is not a system spec or `tuner` is not a
 * sysdesc_tuner, DLTI_ERROR_UNSUPPORTED when the tuner has no fields for
 * the device's type (Triton and Inductor describe GPUs only) or vendor
 * (the kind of target, Triton's backend and its fields follow the vendor:
 * NVIDIA and AMD for TVM, NVIDIA, AMD and Intel for Triton and Inductor),
 * DLTI_ERROR_NOMEM.
 */
SYSDESC_API char *sysdesc_tuner_export(const dlti_attr *spec, const char *device_id,
                                       sysdesc_tuner tuner, size_t *len, dlti_error_t *err);

/* ---- the fingerprint for tuner caches (docs/fingerprint.md) ---- */

/** The length of a fingerprint without its NUL: "sd1-" and 16 hex digits. */
#define SYSDESC_FINGERPRINT_LENGTH 20

/** Flags of sysdesc_fingerprint_text(). */
enum {
    /** What `sysdesc fingerprint --explain` prints: a first line "# FINGERPRINT:
     *  ..." and a line "# PATH: left out (WHY)" for each key left out,
     *  where it would stand; lines starting with '#' are not hashed. */
    SYSDESC_FINGERPRINT_EXPLAIN = 1u << 0
};

/**
 * The fingerprint of system spec `spec` into `out` (at least
 * SYSDESC_FINGERPRINT_LENGTH + 1 bytes): "sd1-" and the 64-bit FNV-1a hash
 * of sysdesc_fingerprint_text() as 16 lowercase hex digits, NUL-terminated.
 * `device_id` NULL: every device; else that device alone (a cluster node's
 * "cn017.GPU3" too), whose id is then not hashed, so that identical devices
 * at two places agree.  The keys that count are the device schema's facts,
 * limits and peaks, the drivers' and runtimes' versions, the allocation,
 * `extra` and keys the schema does not know; provenance (`source`,
 * `suspect`, `disagreements`), identities (host name, UUIDs, bus ids),
 * positions, paths, `measured` and the memory figures the OS moves are left
 * out.  The same spec in MLIR, YAML or JSON, in any key order, has one
 * fingerprint.  "sd1" is the rule: a later rule gets another prefix.
 * Returns 0, or -1: DLTI_ERROR_ARGUMENT when `spec` is not a system spec or
 * `out` is NULL, DLTI_ERROR_NOT_FOUND when there is no such device,
 * DLTI_ERROR_NOMEM.
 */
SYSDESC_API int sysdesc_fingerprint(const dlti_attr *spec, const char *device_id, char *out,
                                    dlti_error_t *err);

/**
 * The canonical text the fingerprint hashes: one line "PATH = VALUE\n" for
 * each key that counts, PATH the device id (not for one device) and the
 * keys joined by '.', maps' keys in byte order at every level, the devices
 * in id order; values by what they mean (an integer of any type as its
 * digits, a dense array as the array of its values, a float as the
 * shortest text that reads back, a string as MLIR quotes it); `flags`
 * SYSDESC_FINGERPRINT_* (docs/fingerprint.md has the whole grammar).
 * malloc'ed, NUL-terminated, `*len` (may be NULL) its length.  NULL with
 * `err` as sysdesc_fingerprint().
 */
SYSDESC_API char *sysdesc_fingerprint_text(const dlti_attr *spec, const char *device_id,
                                           unsigned flags, size_t *len, dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_TUNER_H */
