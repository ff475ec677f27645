/* double_config.h - the configuration of the vendor-runtime test doubles.
 *
 * TEST DOUBLES: the libraries built from this folder are stand-ins with the
 * real file names (libcuda.so.1, libnvidia-ml.so.1, libhsa-runtime64.so.1,
 * libze_loader.so.1, libamd_smi.so, libOpenCL.so.1) that implement only the
 * entry points the probes call, answering from a file.  They exercise the
 * probes' mapping and error paths; they prove nothing about the real drivers.
 *
 * The file is named by SYSDESC_DOUBLE_CONFIG and re-read at every init call
 * (cuInit, nvmlInit_v2, hsa_init, zeInit, amdsmi_init, clGetPlatformIDs), so
 * one process may change it between probes.  Format (README has the keys):
 * one `key = value` a line, `#` starts a comment, blank lines are ignored. */
#ifndef SYSDESC_DOUBLE_CONFIG_H
#define SYSDESC_DOUBLE_CONFIG_H

#define DBL_API __attribute__((visibility("default")))

/* (Re)reads the file; 0, or -1 when SYSDESC_DOUBLE_CONFIG is unset or unreadable. */
int dbl_load(void);
/* The value of the key printf(fmt, ...) names; NULL when absent. */
const char *dbl_str(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same as an integer (decimal or 0x hex); dflt when absent. */
long long dbl_int(long long dflt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Copies the string value of the key into buf[size] as a runtime would;
 * when the key `<key>_unterminated` is 1, fills all of buf with 'X' and no
 * NUL instead (a bogus runtime).  0, or -1 when the key is absent. */
int dbl_copy_name(char *buf, unsigned long size, const char *key);
/* A visibility list (CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES) over `n`
 * devices in the runtime's order, uuids[i] the i-th one's "GPU-..." UUID
 * (NULL unknown): the indices it leaves, in its order, into out[max]; their
 * number.  "" leaves none.  `mixed`: an entry is an index or a UUID as it
 * looks (ROCm), else the first entry's kind is the list's (CUDA).  README,
 * "Visibility variables", has the rules. */
int dbl_visible_list(const char *list, int n, const char *const *uuids, int mixed, int *out,
                     int max);

#endif
