/* probe_private.h - the one private header of the host probe (not installed). */
#ifndef SYSDESC_PROBE_PRIVATE_H
#define SYSDESC_PROBE_PRIVATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysdesc/dlti.h"
#include "sysdesc/probe.h"
#include "dlti_private.h" /* the base: errors, buffers */

/* An entry list that becomes a container: keys keep the order of the adds. */
typedef struct pb_map {
    dlti_entry *e;
    size_t n, cap;
    bool failed; /* out of memory on the way: pb_finish reports it */
} pb_map;

void pb_init(pb_map *m);
void pb_free(pb_map *m);
/* Appends key = v; a NULL v marks the map failed (an allocation failed earlier). */
void pb_add(dlti_context *ctx, pb_map *m, const char *key, const dlti_attr *v);
void pb_i64(dlti_context *ctx, pb_map *m, const char *key, int64_t v);
/* A string value with leading/trailing blanks trimmed; nothing is added when empty or NULL. */
void pb_str(dlti_context *ctx, pb_map *m, const char *key, const char *s);
void pb_bool(dlti_context *ctx, pb_map *m, const char *key, bool v);
/* Builds the container (NULL with err on failure); frees the list either way. */
const dlti_attr *pb_finish(dlti_context *ctx, pb_map *m, dlti_attr_kind kind, dlti_error_t *err);
/* array<i64: ...> */
const dlti_attr *pb_i64_array(dlti_context *ctx, const int64_t *v, size_t n);
/* ["a", "b"] */
const dlti_attr *pb_str_array(dlti_context *ctx, const char *const *v, size_t n);

/* Warnings and the "suspect" list. */
typedef struct pb_warn {
    const sysdesc_probe_options *opts;
    const char *prefix;   /* device id prefix, for messages */
    char **suspect;       /* dotted paths inside the CPU device */
    size_t nsuspect, capsuspect;
} pb_warn;

void pb_warning(pb_warn *w, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void pb_warn_free(pb_warn *w);

/* Small file helpers (host facts). */
/* Reads up to size-1 bytes of a file into buf (NUL-terminated); -1 when unreadable. */
int pb_read_file(const char *path, char *buf, size_t size);
/* MemTotal of /proc/meminfo in bytes, or -1. */
int64_t pb_meminfo_total(void);
/* The cgroup memory limit of this process in bytes (v2 memory.max or v1
 * memory.limit_in_bytes, the smallest along the path), or -1 when none
 * applies; `source` gets the file read. */
int64_t pb_cgroup_memory_limit(char *source, size_t size);

/* ISA features of the CPU running this code (host probes only). */
typedef struct pb_isa {
    const char *features[128];
    size_t nfeatures;
    int64_t max_vector_op_width;  /* bits, 0 when unknown */
    int64_t sve_vector_length;    /* bits (aarch64 with SVE), 0 otherwise */
    const char *source;           /* "cpuid+xgetbv", "hwcap", NULL when nothing known */
} pb_isa;

void pb_isa_detect(pb_isa *isa);

/* x86 CPUID deterministic cache parameters (leaf 4 / 0x8000001D) for
 * `level` (1..3) and type (1 data, 2 instruction, 3 unified); returns 0 and
 * fills the fields, or -1 (not x86, not reported). */
int pb_cpuid_cache(int level, int want_instruction, int64_t *size, int64_t *line, int64_t *ways,
                   int64_t *sharing);

#endif
