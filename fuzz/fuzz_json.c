/* Fuzz target for the typed JSON reader (sysdesc/json_parse.c,
 * json_load.c): any bytes, read as a description named "fuzz.json" (so that
 * what starts with '{' goes to the JSON reader, and anything else to the
 * reader its content names).  Under a small memory budget it loads or fails
 * with a reason; when it loads, every format prints it stably and reads it
 * back (sysdesc_fuzz_check_prints: typed JSON back to an equal spec). */
#include "fuzz_targets.h"

#include "sysdesc/dlti.h"
#include "sysdesc/sysdesc.h"

int sysdesc_fuzz_json(const uint8_t *data, size_t size)
{
    sysdesc_yaml_options opts = {.max_depth = 32, .max_input_bytes = 1 << 20,
                                 .search_path = "/nonexistent",
                                 .flags = SYSDESC_LOAD_NO_CHECK | SYSDESC_LOAD_ANY_MODULE};
    dlti_error_t err;
    sysdesc_system sys;
    dlti_context *small = dlti_context_new();
    if (!small)
        sysdesc_fuzz_fail("context");
    dlti_limits l = {.max_memory_bytes = sysdesc_fuzz_budget(data, size)};
    dlti_context_set_limits(small, &l);
    if (sysdesc_system_parse(small, (const char *)data, size, "fuzz.json", &opts, &sys, &err) != 0 &&
        (err.text[0] == '\0' || err.code == DLTI_OK))
        sysdesc_fuzz_fail("load in a small budget failed without a reason");
    dlti_context_free(small);
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        sysdesc_fuzz_fail("context");
    dlti_limits lim = {.max_depth = 200, .max_string_bytes = 1 << 16, .max_entries = 1 << 16};
    dlti_context_set_limits(ctx, &lim);
    if (sysdesc_system_parse(ctx, (const char *)data, size, "fuzz.json", &opts, &sys, &err) != 0) {
        if (err.text[0] == '\0' || err.code == DLTI_OK)
            sysdesc_fuzz_fail("load failed without a reason");
    } else if (sys.spec) {
        sysdesc_fuzz_check_prints(ctx, &sys);
    }
    dlti_context_free(ctx);
    return 0;
}
