/* sysdesc list / show: the systems/ catalog. */
#include "cli.h"
#include "sysdesc/sysdesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_help list_help = {
    .description =
        "Lists the catalog: name, vendor and model of every description found\n"
        "along SYSDESC_PATH, the catalog installed next to this program (found\n"
        "from where it runs, so a moved installation finds its own), the\n"
        "configured DATADIR/sysdesc/systems and (from a build tree) the source\n"
        "tree's systems/.  The first directory that has a name wins.  With no\n"
        "entry at all it prints nothing and names the directories it searched.\n",
    .status = "Exit status: 0 ok; 1 no catalog entry found; 2 usage or a malformed\n"
              "catalog; 3 an unreadable catalog directory or a failed write.\n",
};

static const cli_help show_help = {
    .operands = "NAME",
    .description =
        "Prints catalog entry NAME (e.g. nvidia/h100-sxm) with its bases resolved;\n"
        "YAML by default.  The entry is checked against the device schema first\n"
        "(sysdesc check; keys it does not know are warnings, errors with --strict);\n"
        "--no-check prints it as written.\n",
    .status = "Exit status: 0 ok; 1 no such catalog entry; 2 bad entry or usage;\n"
              "3 unreadable file or failed write.\n",
};

/* An empty catalog: where it was looked for, "A, B" of the ':' path. */
static int no_entries(void)
{
    char *path = sysdesc_catalog_path();
    char *dirs = path ? malloc(2 * strlen(path) + 1) : NULL;
    if (!dirs) {
        free(path);
        return cli_nomem();
    }
    size_t n = 0;
    for (const char *p = path; *p;) {
        size_t len = strcspn(p, ":");
        if (len) {
            if (n) {
                memcpy(dirs + n, ", ", 2);
                n += 2;
            }
            memcpy(dirs + n, p, len);
            n += len;
        }
        p += len + (p[len] == ':');
    }
    dirs[n] = '\0';
    int rc = cli_fail(SYSDESC_EXIT_NOT_FOUND,
                      "list: no catalog entries found in: %s (set SYSDESC_PATH to add directories)",
                      n ? dirs : "(no directory)");
    free(dirs);
    free(path);
    return rc;
}

int cmd_list(int argc, char **argv)
{
    cli_args a;
    cli_args_init(&a, "list", &list_help,
                  (const cli_group[]){{0}}, argc, argv);
    int o = cli_next(&a);
    if (o != CLI_DONE)
        return o == CLI_EXIT ? a.rc : cli_operand_error(&a, "list takes none");
    sysdesc_catalog_entry *e;
    size_t n;
    dlti_error_t err;
    if (sysdesc_catalog_list(NULL, &e, &n, &err) < 0)
        return cli_report(&err);
    if (n == 0) {
        sysdesc_catalog_list_free(e, n);
        return no_entries();
    }
    /* Each field as the terminal shows it: an entry's vendor or model with
     * an escape sequence or a line break reaches the screen escaped. */
    char **shown = calloc(3 * n, sizeof(*shown));
    int wname = 4, wvendor = 6, rc = 0;
    for (size_t i = 0; shown && i < n && !rc; i++) {
        const char *f[3] = {e[i].name, e[i].vendor, e[i].model};
        for (int k = 0; k < 3 && !rc; k++)
            rc = (shown[3 * i + k] = cli_terminal_text(f[k])) ? 0 : -1;
        if (!rc && (int)strlen(shown[3 * i]) > wname)
            wname = (int)strlen(shown[3 * i]);
        if (!rc && (int)strlen(shown[3 * i + 1]) > wvendor)
            wvendor = (int)strlen(shown[3 * i + 1]);
    }
    if (shown && !rc) {
        printf("%-*s  %-*s  %s\n", wname, "NAME", wvendor, "VENDOR", "MODEL");
        for (size_t i = 0; i < n; i++)
            printf("%-*s  %-*s  %s\n", wname, shown[3 * i], wvendor, shown[3 * i + 1],
                   shown[3 * i + 2]);
    }
    for (size_t i = 0; shown && i < 3 * n; i++)
        free(shown[i]);
    if (!shown || rc) {
        free(shown);
        sysdesc_catalog_list_free(e, n);
        return cli_nomem();
    }
    free(shown);
    sysdesc_catalog_list_free(e, n);
    return cli_write_stdout("", 0);
}

int cmd_show(int argc, char **argv)
{
    const char *name = NULL;
    sysdesc_format format = SYSDESC_FORMAT_YAML;
    sysdesc_yaml_options load_opts;
    cli_load_options_init(&load_opts);
    unsigned flags = 0;
    cli_args a;
    cli_args_init(&a, "show", &show_help,
                  (const cli_group[]){{.opts = cli_format_opts, .base = &format},
                                      {.opts = cli_check_opts, .base = &load_opts},
                                      {.opts = cli_print_opts, .base = &flags},
                                      {0}}, argc, argv);
    for (int o; (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            return a.rc;
        if (name)
            return cli_operand_error(&a, "one NAME");
        name = a.arg;
    }
    if (!name)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "show: missing NAME (see sysdesc list)");
    dlti_error_t err;
    char *path = sysdesc_catalog_find(name, NULL, &err);
    if (!path)
        return cli_fail(cli_exit_code(err.code), "%s", err.text);
    dlti_context *ctx = cli_context_new();
    sysdesc_system sys;
    int rc;
    if (!ctx)
        rc = cli_nomem();
    else if (sysdesc_yaml_load_file(ctx, path, &load_opts, &sys, &err) < 0)
        rc = cli_report(&err);
    else
        rc = cli_output_system(&sys, format, flags, NULL);
    dlti_context_free(ctx);
    free(path);
    return rc;
}
