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
 * Ownership: the text returned is malloc'ed for the caller to free().
 * Errors: NULL with `err` (may be NULL) filled.  Threads: only reads.
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
 * (TVM's and Inductor's kind of target follows the vendor: NVIDIA, AMD,
 * Intel for Inductor), DLTI_ERROR_NOMEM.
 */
SYSDESC_API char *sysdesc_tuner_export(const dlti_attr *spec, const char *device_id,
                                       sysdesc_tuner tuner, size_t *len, dlti_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* SYSDESC_TUNER_H */
