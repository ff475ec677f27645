/* Fuzz target: everything sysdesc prints, sysdesc reads back unchanged.
 * The input is MLIR text (fuzz_yaml runs the same checks on YAML input);
 * when it loads, the system is printed in every format and each print must
 *  - exist (a printer returns NULL only when memory runs out),
 *  - be stable (printing twice gives the same bytes),
 *  - read back to an equal spec and data layout (MLIR, YAML, typed JSON),
 *  - be strict JSON (json_strict.c), plain and typed; plain JSON, which
 *    loses types, is refused as input.
 * Silent data loss and outputs that do not read back break one of these. */
#include "fuzz_targets.h"
#include "json_strict.h"

#include "sysdesc/dlti.h"
#include "sysdesc/sysdesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool same_system(const sysdesc_system *a, const sysdesc_system *b)
{
    if (!dlti_attr_equal(a->spec, b->spec))
        return false;
    if ((a->dl_spec != NULL) != (b->dl_spec != NULL))
        return false;
    return !a->dl_spec || dlti_attr_equal(a->dl_spec, b->dl_spec);
}

/* The system of an MLIR module: its first target_system_spec and its
 * dlti.dl_spec, as sysdesc/load.c takes them. */
static bool system_of(const dlti_scope *root, sysdesc_system *sys)
{
    memset(sys, 0, sizeof(*sys));
    sys->module = root;
    for (size_t i = 0; i < dlti_scope_num_attrs(root); i++) {
        const dlti_attr *a = dlti_scope_attr_value(root, i);
        if (dlti_attr_get_kind(a) == DLTI_ATTR_SYSTEM_SPEC && !sys->spec)
            sys->spec = a;
        else if (dlti_attr_get_kind(a) == DLTI_ATTR_DL_SPEC && !sys->dl_spec &&
                 strcmp(dlti_scope_attr_name(root, i), "dlti.dl_spec") == 0)
            sys->dl_spec = a; /* as sysdesc/load.c: only the module's dlti.dl_spec */
    }
    return sys->spec != NULL;
}

static void dump(const char *what, const char *text, size_t n)
{
    fprintf(stderr, "%s:\n%.*s\n", what, (int)(n > 4000 ? 4000 : n), text);
}

/* Prints `sys` in `format` twice: the same bytes both times.  NULL when the
 * format cannot hold a value and says so (YAML and JSON may refuse, naming
 * the value: sysdesc/emit_check.c; MLIR holds everything). */
static char *print_stable(const sysdesc_system *sys, sysdesc_format format, unsigned flags,
                          size_t *n)
{
    size_t n2;
    dlti_error_t err = {0};
    char *p1 = sysdesc_system_print_checked(sys, format, flags, n, &err);
    if (!p1 && format != SYSDESC_FORMAT_MLIR && err.code == DLTI_ERROR_UNSUPPORTED &&
        err.text[0] != '\0')
        return NULL;
    char *p2 = sysdesc_system_print(sys, format, flags, &n2);
    if (!p1 || !p2)
        sysdesc_fuzz_fail("a printer returned nothing for a loaded system");
    if (*n != n2 || memcmp(p1, p2, n2) != 0)
        sysdesc_fuzz_fail("printing twice gives different text");
    free(p2);
    return p1;
}

static void check_mlir(dlti_context *ctx, const sysdesc_system *sys)
{
    size_t n;
    char *text = print_stable(sys, SYSDESC_FORMAT_MLIR, 0, &n);
    dlti_error_t err;
    const dlti_scope *root = dlti_parse(ctx, text, n, "reprint.mlir", &err);
    sysdesc_system again;
    if (!root || !system_of(root, &again)) {
        dump("printed MLIR", text, n);
        fprintf(stderr, "%s\n", root ? "no target_system_spec" : err.text);
        sysdesc_fuzz_fail("printed MLIR does not read back");
    }
    if (!same_system(sys, &again))
        sysdesc_fuzz_fail("MLIR round trip changed the spec");
    size_t n2;
    char *text2 = sysdesc_system_print(&again, SYSDESC_FORMAT_MLIR, 0, &n2);
    if (!text2 || n2 != n || memcmp(text, text2, n) != 0)
        sysdesc_fuzz_fail("MLIR print of the read-back differs");
    free(text);
    free(text2);
}

static void check_yaml(dlti_context *ctx, const sysdesc_system *sys)
{
    size_t n;
    char *text = print_stable(sys, SYSDESC_FORMAT_YAML, 0, &n);
    if (!text)
        return;
    sysdesc_yaml_options opts = {.search_path = "/nonexistent", .flags = SYSDESC_LOAD_NO_CHECK};
    sysdesc_system again;
    dlti_error_t err;
    if (sysdesc_yaml_load(ctx, text, n, "reprint.yaml", &opts, &again, &err) != 0) {
        dump("printed YAML", text, n);
        fprintf(stderr, "%s:%d:%d: %s\n", err.source, err.line, err.column, err.text);
        sysdesc_fuzz_fail("printed YAML does not read back");
    }
    if (!same_system(sys, &again)) {
        dump("printed YAML", text, n);
        sysdesc_fuzz_fail("YAML round trip changed the spec");
    }
    size_t n2;
    char *text2 = sysdesc_system_print(&again, SYSDESC_FORMAT_YAML, 0, &n2);
    if (!text2 || n2 != n || memcmp(text, text2, n) != 0)
        sysdesc_fuzz_fail("YAML print of the read-back differs");
    free(text);
    free(text2);
}

static void check_json(dlti_context *ctx, const sysdesc_system *sys, unsigned flags)
{
    size_t n, at;
    char *text = print_stable(sys, SYSDESC_FORMAT_JSON, flags, &n);
    if (!text)
        return;
    const char *why = sysdesc_json_strict_check(text, n, &at);
    if (why) {
        dump("printed JSON", text, n);
        fprintf(stderr, "at byte %zu: %s\n", at, why);
        sysdesc_fuzz_fail("printed JSON is not strict JSON");
    }
    /* typed JSON reads back equal; plain JSON is refused (it loses types) */
    sysdesc_yaml_options opts = {.search_path = "/nonexistent", .flags = SYSDESC_LOAD_NO_CHECK};
    sysdesc_system again;
    dlti_error_t err;
    int rc = sysdesc_system_parse(ctx, text, n, NULL, &opts, &again, &err);
    if (!(flags & SYSDESC_PRINT_TYPED)) {
        if (rc == 0 || err.code != DLTI_ERROR_UNSUPPORTED)
            sysdesc_fuzz_fail("plain JSON was not refused as plain JSON");
    } else if (rc != 0) {
        dump("printed JSON", text, n);
        fprintf(stderr, "%s:%d:%d: %s\n", err.source, err.line, err.column, err.text);
        sysdesc_fuzz_fail("printed typed JSON does not read back");
    } else if (!same_system(sys, &again)) {
        dump("printed JSON", text, n);
        sysdesc_fuzz_fail("typed JSON round trip changed the spec");
    }
    free(text);
}

void sysdesc_fuzz_check_prints(dlti_context *ctx, const sysdesc_system *sys)
{
    check_mlir(ctx, sys);
    check_yaml(ctx, sys);
    check_json(ctx, sys, 0);
    check_json(ctx, sys, SYSDESC_PRINT_TYPED);
}

int sysdesc_fuzz_formats(const uint8_t *data, size_t size)
{
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        sysdesc_fuzz_fail("context");
    dlti_limits l = {.max_depth = 200, .max_input_bytes = 1 << 20,
                     .max_string_bytes = 1 << 16, .max_entries = 1 << 16};
    dlti_context_set_limits(ctx, &l);
    dlti_error_t err;
    sysdesc_system sys;
    const dlti_scope *root = dlti_parse(ctx, (const char *)data, size, "fuzz.mlir", &err);
    if (root && system_of(root, &sys))
        sysdesc_fuzz_check_prints(ctx, &sys);
    dlti_context_free(ctx);
    return 0;
}
