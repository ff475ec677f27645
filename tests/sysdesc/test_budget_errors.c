/* The builders of sysdesc/ under a memory budget that refuses them at every
 * allocation in turn: an override (its source map, suspect list and flat
 * cache keys), a composition (ids and counts), a device filled from another,
 * an llvm.target.  Each either succeeds or fails with the budget's error
 * (DLTI_ERROR_LIMIT, naming the memory), never "out of memory", never an
 * argument error made of a key that could not be interned, never a silent
 * wrong answer (docs/reliability.md, "A failure always carries its error").
 *
 * How every allocation is reached: the context's budget is set below what it
 * holds, so no new chunk is granted and only the room left in its current
 * chunk serves; a pad of interned keys fills that room 8 bytes more at each
 * step, until the pad itself is refused.  The failure thus moves from the
 * operation's last allocation to its first. */
#define _DEFAULT_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysdesc/sysdesc.h"

static const char spec_text[] =
    "#dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<\"device_type\" = \"CPU\", "
    "\"triple\" = \"x86_64-unknown-linux-gnu\", \"features\" = [\"avx2\", \"fma\"], "
    "\"compiler\" = #dlti.map<\"llvm\" = #dlti.map<\"cpu\" = \"znver4\">>, "
    "\"cache\" = #dlti.map<\"L1\" = #dlti.map<\"size_in_bytes\" = 32768>>, "
    "\"L1_cache_size_in_bytes\" = 32768, "
    "\"suspect\" = [\"cache.L1.size_in_bytes\", \"L1_cache_size_in_bytes\", \"vendor\"]>, "
    "\"GPU0\" = #dlti.target_device_spec<\"device_type\" = \"GPU\", \"num_compute_units\" = 8, "
    "\"cache\" = #dlti.map<\"L2\" = #dlti.map<\"size_in_bytes\" = 4194304>>>>";
static const char one_text[] =
    "#dlti.target_system_spec<\"GPU\" = #dlti.target_device_spec<\"device_type\" = \"GPU\", "
    "\"vendor\" = \"V\">>";
static const char overrides_text[] =
    "#dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<\"vendor\" = \"W\", "
    "\"cache\" = #dlti.map<\"L1\" = #dlti.map<\"size_in_bytes\" = 65536>>>, "
    "\"GPU3\" = #dlti.target_device_spec<\"device_type\" = \"GPU\", \"fresh_key\" = 1>>";

typedef struct fixture {
    dlti_context *ctx;
    const dlti_attr *spec, *one, *overrides;
} fixture;

/* One operation: 0 when it succeeded, -1 with *err when it failed. */
typedef int (*operation)(const fixture *f, dlti_error_t *err);

static int set_nested(const fixture *f, dlti_error_t *err)
{
    return sysdesc_spec_override(f->ctx, f->spec, "CPU.cache.L1.size_in_bytes=65536", err) ? 0
                                                                                           : -1;
}

static int set_flat(const fixture *f, dlti_error_t *err)
{
    return sysdesc_spec_override(f->ctx, f->spec, "CPU.L1_cache_size_in_bytes=65536", err) ? 0
                                                                                           : -1;
}

static int set_new_device(const fixture *f, dlti_error_t *err)
{
    return sysdesc_spec_override(f->ctx, f->spec, "GPU7.brand_new.deeper_key=\"x\"", err) ? 0
                                                                                          : -1;
}

static int override_spec(const fixture *f, dlti_error_t *err)
{
    return sysdesc_spec_override_spec(f->ctx, f->spec, f->overrides, err) ? 0 : -1;
}

static int compose(const fixture *f, dlti_error_t *err)
{
    sysdesc_compose *c = sysdesc_compose_new(f->ctx);
    if (!c)
        return 0; /* malloc, not the budget: nothing to test */
    sysdesc_system a = {.spec = f->spec}, b = {.spec = f->one}, out;
    int rc = sysdesc_compose_add(c, &a, "node", 0, err);
    if (rc == 0)
        rc = sysdesc_compose_add(c, &b, "accel", 40, err);
    if (rc == 0)
        rc = sysdesc_compose_finish(c, &out, err);
    sysdesc_compose_free(c);
    return rc;
}

static int device_fill(const fixture *f, dlti_error_t *err)
{
    const dlti_attr *cpu = dlti_attr_entry_value(f->spec, 0);
    const dlti_attr *gpu = dlti_attr_entry_value(f->spec, 1);
    return sysdesc_device_fill(f->ctx, gpu, cpu, err) ? 0 : -1;
}

static int llvm_target(const fixture *f, dlti_error_t *err)
{
    return sysdesc_llvm_target_new(f->ctx, f->spec, "CPU", err) ? 0 : -1;
}

/* Interns keys holding about `bytes` bytes; -1 when the budget refused one. */
static int pad(dlti_context *ctx, size_t bytes)
{
    char key[1100];
    for (size_t k = 0; bytes > 0; k++) {
        size_t len = bytes > 1024 ? 1024 : bytes;
        memset(key, 'p', len);
        int head = snprintf(key, sizeof key, "pad%zu-", k);
        key[head] = '-'; /* snprintf's NUL */
        if (!dlti_key_string(ctx, key, len > (size_t)head ? len : (size_t)head + 1))
            return -1;
        bytes -= len;
    }
    return 0;
}

static int fixture_new(fixture *f, dlti_error_t *err)
{
    f->ctx = dlti_context_new();
    if (!f->ctx)
        return -1;
    f->spec = dlti_attr_parse(f->ctx, spec_text, strlen(spec_text), "spec", err);
    f->one = dlti_attr_parse(f->ctx, one_text, strlen(one_text), "one", err);
    f->overrides = dlti_attr_parse(f->ctx, overrides_text, strlen(overrides_text), "over", err);
    return f->spec && f->one && f->overrides ? 0 : -1;
}

/* What one pad of `bytes` gave the operation. */
enum outcome { PAD_REFUSED, OP_DONE, OP_REFUSED, OP_WRONG, NO_FIXTURE };

static enum outcome try_pad(const char *name, operation op, size_t bytes, bool quiet)
{
    dlti_error_t err;
    fixture f;
    if (fixture_new(&f, &err) != 0) {
        printf("FAIL: %s: the fixture: %s\n", name, err.text);
        dlti_context_free(f.ctx);
        return NO_FIXTURE;
    }
    dlti_limits limits = dlti_context_get_limits(f.ctx);
    limits.max_memory_bytes = 1; /* no new chunk: only the current one's room */
    dlti_context_set_limits(f.ctx, &limits);
    enum outcome got = PAD_REFUSED;
    if (pad(f.ctx, bytes) == 0) {
        memset(&err, 0, sizeof err);
        if (op(&f, &err) == 0)
            got = OP_DONE;
        else if (err.code == DLTI_ERROR_LIMIT && strstr(err.text, "memory"))
            got = OP_REFUSED;
        else
            got = OP_WRONG;
        if (got == OP_WRONG && !quiet)
            printf("FAIL: %s, room less %zu bytes: error %d '%s', not the budget's\n", name,
                   bytes, (int)err.code, err.text);
    }
    dlti_context_free(f.ctx);
    return got;
}

/* Sweeps the pad over the room left; the number of problems found.  The
 * room shrinks as the pad grows, so the operation fits until a pad about
 * its size from the end: a step of 1 KiB finds where it stops fitting, and
 * from 8 KiB before that (more than any operation here takes) the pad
 * grows 8 bytes at a time to the end, where the pad itself is refused. */
static int sweep(const char *name, operation op)
{
    dlti_error_t err;
    fixture f;
    /* without a budget it succeeds: a failure below is the budget's */
    if (fixture_new(&f, &err) != 0 || op(&f, &err) != 0) {
        printf("FAIL: %s without a budget: %s\n", name, err.text);
        dlti_context_free(f.ctx);
        return 1;
    }
    dlti_context_free(f.ctx);
    int problems = 0;
    size_t refused = 0, done = 0, from = 0;
    for (size_t bytes = 0;; bytes += 1024) {
        enum outcome got = try_pad(name, op, bytes, true);
        if (got == NO_FIXTURE)
            return 1;
        if (got != OP_DONE) {
            from = bytes > 8192 ? bytes - 8192 : 0;
            break;
        }
    }
    for (size_t bytes = from;; bytes += 8) {
        enum outcome got = try_pad(name, op, bytes, problems >= 5);
        if (got == NO_FIXTURE)
            return problems + 1;
        if (got == PAD_REFUSED)
            break;
        done += got == OP_DONE;
        refused += got == OP_REFUSED;
        problems += got == OP_WRONG;
    }
    /* the sweep reached the budget, or it tests nothing */
    if (refused == 0) {
        printf("FAIL: %s never met the budget\n", name);
        problems++;
    }
    printf("%-16s %5zu succeeded, %5zu refused by the budget, %d wrong errors (the last "
           "%zu bytes of room swept)\n", name, done, refused, problems, (done + refused) * 8);
    return problems;
}

int main(void)
{
    static const struct {
        const char *name;
        operation op;
    } ops[] = {
        {"set nested", set_nested},       {"set flat", set_flat},
        {"set new device", set_new_device}, {"override spec", override_spec},
        {"compose", compose},             {"device fill", device_fill},
        {"llvm target", llvm_target},
    };
    int problems = 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        problems += sweep(ops[i].name, ops[i].op);
    return problems ? 1 : 0;
}
