/* Fuzz target for the YAML loader and the device schema's checker: load
 * unchecked; when it loads, print YAML, load that and require an equal spec
 * (and data layout); check the loaded system, located in the input, and
 * require that the strict load succeeds exactly when the check finds
 * nothing, the default one exactly when it finds no mistake (only keys or
 * device types it does not know), and that every problem has a message. */
#include "fuzz_targets.h"

#include "sysdesc/dlti.h"
#include "sysdesc/sysdesc.h"

#include <stdlib.h>
#include <string.h>

/* Every problem has a text and a code; `user` counts the mistakes (the
 * problems a load fails on without SYSDESC_LOAD_STRICT). */
static int problem_has_text(void *user, const dlti_error_t *problem)
{
    if (problem->text[0] == '\0' || problem->code == DLTI_OK)
        sysdesc_fuzz_fail("a problem without a message");
    if (problem->code != DLTI_ERROR_UNSUPPORTED)
        ++*(long *)user;
    return 0;
}

int sysdesc_fuzz_yaml(const uint8_t *data, size_t size)
{
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        sysdesc_fuzz_fail("context");
    /* Small limits so that deep, huge or alias-heavy inputs hit them fast;
     * `base:` names resolve nowhere (an empty search path). */
    sysdesc_yaml_options opts = {.max_depth = 32, .max_alias_nodes = 20000,
                                 .max_input_bytes = 1 << 20, .max_base_depth = 4,
                                 .search_path = "/nonexistent",
                                 .flags = SYSDESC_LOAD_NO_CHECK};
    sysdesc_system sys;
    dlti_error_t err;
    /* Under a small budget: loaded, or failed with a reason (never DLTI_OK). */
    dlti_context *small = dlti_context_new();
    if (!small)
        sysdesc_fuzz_fail("context");
    dlti_limits l = {.max_memory_bytes = sysdesc_fuzz_budget(data, size)};
    dlti_context_set_limits(small, &l);
    sysdesc_yaml_options checked_small = opts;
    checked_small.flags = 0;
    if (sysdesc_yaml_load(small, (const char *)data, size, "fuzz.yaml", &checked_small, &sys,
                          &err) != 0 &&
        (err.text[0] == '\0' || err.code == DLTI_OK))
        sysdesc_fuzz_fail("load in a small budget failed without a reason");
    dlti_context_free(small);
    if (sysdesc_yaml_load(ctx, (const char *)data, size, "fuzz.yaml", &opts, &sys, &err) != 0) {
        if (err.text[0] == '\0')
            sysdesc_fuzz_fail("load failed without a message");
    } else {
        size_t n;
        char *y = sysdesc_yaml_print(&sys, &n);
        if (!y)
            sysdesc_fuzz_fail("print");
        sysdesc_system again;
        if (sysdesc_yaml_load(ctx, y, n, "reprint.yaml", &opts, &again, &err) != 0)
            sysdesc_fuzz_fail("printed YAML does not load");
        if (!dlti_attr_equal(sys.spec, again.spec) ||
            (sys.dl_spec != NULL) != (again.dl_spec != NULL) ||
            (sys.dl_spec && !dlti_attr_equal(sys.dl_spec, again.dl_spec)))
            sysdesc_fuzz_fail("YAML round trip changed the spec");
        free(y);
        sysdesc_fuzz_check_prints(ctx, &sys);
        long mistakes = 0;
        long problems = sysdesc_system_check_located(&sys, 0, (const char *)data, size, "fuzz.yaml",
                                              problem_has_text, &mistakes);
        if (problems < 0)
            sysdesc_fuzz_fail("check out of memory");
        /* a strict load fails on every problem, a default one on mistakes */
        sysdesc_yaml_options checked = opts;
        sysdesc_system again2;
        for (int strict = 0; strict < 2; strict++) {
            checked.flags = strict ? SYSDESC_LOAD_STRICT : 0;
            int rc = sysdesc_yaml_load(ctx, (const char *)data, size, "fuzz.yaml", &checked,
                                       &again2, &err);
            if ((rc == 0) != ((strict ? problems : mistakes) == 0))
                sysdesc_fuzz_fail("the checked load disagrees with the check");
        }
    }
    dlti_context_free(ctx);
    return 0;
}
