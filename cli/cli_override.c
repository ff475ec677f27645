/* --override FILE and --set PATH=VALUE on a probed spec: `probe` and
 * `measure` take them alike. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

typedef struct set_problems {
    const char *cmd, *assignment;
    size_t path_len; /* PATH of PATH=VALUE */
    dlti_error_t *v;
    size_t n, cap;
    bool nomem;
} set_problems;

static int keep_set_problem(void *user, const dlti_error_t *problem)
{
    set_problems *p = user;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 4;
        dlti_error_t *v = realloc(p->v, cap * sizeof *v);
        if (!v) {
            p->nomem = true;
            return 1;
        }
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = *problem;
    return 0;
}

/* Whether `text` names the key the user wrote: 'PATH' in quotes. */
static bool names_path(const char *text, const char *path, size_t len)
{
    for (const char *q = strchr(text, '\''); q; q = strchr(q + 1, '\''))
        if (strncmp(q + 1, path, len) == 0 && q[1 + len] == '\'')
            return true;
    return false;
}

/* The spec after `--set assignment` against the device schema: a wrong path
 * gets the nearest key, a wrong value the type wanted.  The problems that
 * name the key the user wrote are reported, not those of a key the
 * override keeps in step with it (cache.L3.size_in_bytes sets
 * L3_cache_size_in_bytes too); a problem that names it nowhere (a rule
 * between keys) is reported as found.  Strict, as the override files are:
 * the keys are the user's own, a typo is a mistake. */
static int check_set(const char *cmd, const dlti_attr *spec, const char *assignment)
{
    sysdesc_system sys = {.spec = spec};
    const char *eq = strchr(assignment, '=');
    set_problems p = {.cmd = cmd, .assignment = assignment,
                      .path_len = eq ? (size_t)(eq - assignment) : strlen(assignment)};
    long n = sysdesc_system_check(&sys, 0, NULL, keep_set_problem, &p);
    if (n < 0 || p.nomem) {
        free(p.v);
        return cli_nomem();
    }
    size_t named = 0;
    for (size_t i = 0; i < p.n; i++)
        named += names_path(p.v[i].text, assignment, p.path_len);
    for (size_t i = 0; i < p.n; i++)
        if (!named || names_path(p.v[i].text, assignment, p.path_len))
            cli_fail(SYSDESC_EXIT_BAD_INPUT, "%s: --set %s: %s", cmd, assignment, p.v[i].text);
    free(p.v);
    return n ? SYSDESC_EXIT_BAD_INPUT : SYSDESC_EXIT_OK;
}

int cli_apply_overrides(const char *cmd, dlti_context *ctx, const dlti_attr **spec,
                        const cli_overrides *o)
{
    dlti_error_t err;
    /* The override files hold the user's own keys: a typo is a mistake. */
    sysdesc_yaml_options load = o->load;
    load.flags |= SYSDESC_LOAD_STRICT;
    for (size_t k = 0; k < o->files.n; k++) {
        *spec = sysdesc_spec_override_file(ctx, *spec, o->files.v[k], &load, &err);
        if (!*spec)
            return cli_report(&err);
    }
    for (size_t k = 0; k < o->sets.n; k++) {
        *spec = sysdesc_spec_override(ctx, *spec, o->sets.v[k], &err);
        if (!*spec)
            return cli_fail(cli_exit_code(err.code) == SYSDESC_EXIT_ENVIRONMENT
                                ? SYSDESC_EXIT_ENVIRONMENT
                                : SYSDESC_EXIT_BAD_INPUT,
                            "%s: --set %s: %s", cmd, o->sets.v[k], err.text);
        int rc;
        if (!(o->load.flags & SYSDESC_LOAD_NO_CHECK) &&
            (rc = check_set(cmd, *spec, o->sets.v[k])) != SYSDESC_EXIT_OK)
            return rc;
    }
    return SYSDESC_EXIT_OK;
}

const cli_opt cli_override_opts[] = {
    {"--override", .flags = CLI_VALUE, .kind = CLI_LIST, CLI_AT(cli_overrides, files),
     .metavar = "FILE"},
    {"--set", .flags = CLI_VALUE, .kind = CLI_LIST, CLI_AT(cli_overrides, sets),
     .metavar = "PATH=VALUE"},
    {"--no-check", .kind = CLI_BITS, CLI_AT(cli_overrides, load.flags),
     .set = SYSDESC_LOAD_NO_CHECK},
    {0},
};
