/* --override FILE and --set PATH=VALUE on a probed spec: `probe` and
 * `measure` take them alike. */
#include "cli.h"

static int report_set_problem(void *user, const dlti_error_t *problem)
{
    const char **ctx = user;
    cli_fail(SYSDESC_EXIT_BAD_INPUT, "%s: --set %s: %s", ctx[0], ctx[1], problem->text);
    return 0;
}

/* The spec after `--set assignment` against the device schema: a wrong path
 * gets the nearest key, a wrong value the type wanted.  Strict, as the
 * override files are: the keys are the user's own, a typo is a mistake. */
static int check_set(const char *cmd, const dlti_attr *spec, const char *assignment)
{
    sysdesc_system sys = {.spec = spec};
    const char *user[] = {cmd, assignment};
    long n = sysdesc_system_check(&sys, 0, NULL, report_set_problem, (void *)user);
    if (n < 0)
        return cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
    return n ? SYSDESC_EXIT_BAD_INPUT : SYSDESC_EXIT_OK;
}

int cli_apply_overrides(const char *cmd, dlti_context *ctx, const dlti_attr **spec,
                        const cli_overrides *o)
{
    dlti_error_t err;
    /* The override files hold the user's own keys: a typo is a mistake. */
    sysdesc_yaml_options load = o->load;
    load.flags |= SYSDESC_LOAD_STRICT;
    for (size_t k = 0; k < o->nfiles; k++) {
        *spec = sysdesc_spec_override_file(ctx, *spec, o->files[k], &load, &err);
        if (!*spec)
            return cli_report(&err);
    }
    for (size_t k = 0; k < o->nsets; k++) {
        *spec = sysdesc_spec_override(ctx, *spec, o->sets[k], &err);
        if (!*spec)
            return cli_fail(cli_exit_code(err.code) == SYSDESC_EXIT_ENVIRONMENT
                                ? SYSDESC_EXIT_ENVIRONMENT
                                : SYSDESC_EXIT_BAD_INPUT,
                            "%s: --set %s: %s", cmd, o->sets[k], err.text);
        int rc;
        if (!(o->load.flags & SYSDESC_LOAD_NO_CHECK) &&
            (rc = check_set(cmd, *spec, o->sets[k])) != SYSDESC_EXIT_OK)
            return rc;
    }
    return SYSDESC_EXIT_OK;
}

const cli_opt cli_override_opts[] = {
    {"--override", NULL, CLI_OVERRIDE_FILE, CLI_VALUE},
    {"--set", NULL, CLI_OVERRIDE_SET, CLI_VALUE},
    {NULL, NULL, 0, 0},
};

bool cli_override_take(cli_overrides *o, int id, const char *value)
{
    if (id == CLI_OVERRIDE_FILE)
        o->files[o->nfiles++] = value;
    else if (id == CLI_OVERRIDE_SET)
        o->sets[o->nsets++] = value;
    else
        return id == CLI_DESC_NO_CHECK && cli_description_take(id, &o->load, NULL);
    return true;
}
