/* sysdesc probe: describe this host (or hwloc XML topologies) as a target system spec. */
#include "atomic_write.h"
#include "cli.h"
#include "sysdesc/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sysdesc probe [--xml FILE]... [--io|--no-io] [--format mlir|attr|yaml|json]\n"
    "                     [--override FILE]... [--set PATH=VALUE]... [--quiet] [-o FILE]\n"
    "\n"
    "Probes this machine with hwloc (caches, cores, NUMA, memory, ISA features)\n"
    "and prints a #dlti.target_system_spec with a \"CPU\" device and, with I/O\n"
    "discovery, \"GPU0\", \"GPU1\", ... (docs/keys.md lists every key).\n"
    "\n"
    "  --xml FILE      probe a topology exported on another machine with\n"
    "                  `lstopo-no-graphics --of xml`; repeat for a cluster: file i\n"
    "                  gives the devices \"node<i>.CPU\", \"node<i>.GPU0\", ...\n"
    "  --io, --no-io   PCI/GPU discovery (default: off for this host, where it\n"
    "                  costs ~4x the load time; on for XML files)\n"
    "  --format F      mlir (default): module attributes {dlti.target_system_spec\n"
    "                  = ...} {}; attr: the bare attribute; yaml: a YAML system\n"
    "                  (docs/yaml.md) that `sysdesc convert` and base: read back;\n"
    "                  json: the same as JSON\n"
    "  --override FILE values from a YAML or MLIR system file replace the\n"
    "                  probed ones, key by key (applied before --set)\n"
    "  --set P=V       override a key: P is DEVICE.KEY.KEY... (CPU.cache.L3.\n"
    "                  size_in_bytes), V an MLIR attribute (33554432, '\"text\"');\n"
    "                  repeatable, applied in order\n"
    "  --quiet, -q     do not print sanity warnings (still listed in \"suspect\")\n"
    "  -o FILE         write to FILE atomically (temporary file + rename)\n"
    "\n"
    "Exit status: 0 ok; 2 bad usage, malformed XML or override; 3 unreadable\n"
    "file, failed probe or write.\n";

static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (strcmp(argv[*i], name) == 0) {
        if (*i + 1 >= argc)
            return NULL;
        return argv[++*i];
    }
    return NULL;
}

static int is_opt(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

const dlti_attr *cli_probe(dlti_context *ctx, const char *const *xmls, size_t nxml,
                           sysdesc_probe_io io, bool quiet, dlti_error_t *err)
{
    sysdesc_probe_options opts;
    sysdesc_probe_options_init(&opts);
    opts.io = io;
    opts.quiet = quiet;
    if (nxml)
        return sysdesc_probe_xml_files(ctx, xmls, nxml, &opts, err);
    return sysdesc_probe_host(ctx, &opts, err);
}

static void fail_with(dlti_error_t *err, dlti_error_code code, const char *text)
{
    memset(err, 0, sizeof(*err));
    err->code = code;
    snprintf(err->text, sizeof(err->text), "%s", text);
}

/* Applies every leaf of `value` (a device spec or map) at `path` as a --set
 * would, so overrides from a file get the same bookkeeping (source map,
 * suspect list, flat cache keys). */
static const dlti_attr *override_leaves(dlti_context *ctx, const dlti_attr *spec, char **path,
                                        size_t *cap, size_t len, const dlti_attr *value,
                                        dlti_error_t *err)
{
    dlti_attr_kind kind = dlti_attr_get_kind(value);
    if (kind != DLTI_ATTR_MAP && kind != DLTI_ATTR_DEVICE_SPEC) {
        size_t vlen;
        char *v = dlti_attr_print(value, &vlen);
        if (!v || len + vlen + 2 > *cap) {
            char *np = v ? realloc(*path, len + vlen + 2) : NULL;
            if (!np) {
                free(v);
                fail_with(err, DLTI_ERROR_NOMEM, "out of memory");
                return NULL;
            }
            *path = np;
            *cap = len + vlen + 2;
        }
        (*path)[len] = '=';
        memcpy(*path + len + 1, v, vlen + 1);
        free(v);
        return sysdesc_spec_override(ctx, spec, *path, err);
    }
    for (size_t i = 0; i < dlti_attr_size(value) && spec; i++) {
        size_t klen;
        const char *key = dlti_key_str(dlti_attr_entry_key(value, i), &klen);
        if (!key) {
            fail_with(err, DLTI_ERROR_VERIFY, "type keys cannot be overridden");
            return NULL;
        }
        if (len + klen + 2 > *cap) {
            char *np = realloc(*path, (len + klen + 2) * 2);
            if (!np) {
                fail_with(err, DLTI_ERROR_NOMEM, "out of memory");
                return NULL;
            }
            *path = np;
            *cap = (len + klen + 2) * 2;
        }
        (*path)[len] = '.';
        memcpy(*path + len + 1, key, klen);
        (*path)[len + 1 + klen] = '\0';
        spec = override_leaves(ctx, spec, path, cap, len + 1 + klen,
                               dlti_attr_entry_value(value, i), err);
    }
    return spec;
}

/* --override FILE: a YAML or MLIR system (docs/yaml.md) whose values
 * replace the probed ones, leaf by leaf; devices it names that the probe did
 * not find are added. */
static const dlti_attr *apply_override_file(dlti_context *ctx, const dlti_attr *spec,
                                            const char *file, dlti_error_t *err)
{
    sysdesc_system sys;
    if (sysdesc_system_load(ctx, file, NULL, &sys, err) != 0)
        return NULL;
    size_t cap = 256;
    char *path = malloc(cap);
    if (!path) {
        fail_with(err, DLTI_ERROR_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t d = 0; d < dlti_attr_size(sys.spec) && spec; d++) {
        size_t idlen;
        const char *id = dlti_key_str(dlti_attr_entry_key(sys.spec, d), &idlen);
        if (idlen + 1 > cap) {
            char *np = realloc(path, idlen + 256);
            if (!np) {
                fail_with(err, DLTI_ERROR_NOMEM, "out of memory");
                spec = NULL;
                break;
            }
            path = np;
            cap = idlen + 256;
        }
        memcpy(path, id, idlen + 1);
        spec = override_leaves(ctx, spec, &path, &cap, idlen, dlti_attr_entry_value(sys.spec, d),
                               err);
    }
    free(path);
    if (!spec && err)
        snprintf(err->source, sizeof(err->source), "%s", file);
    return spec;
}

int cmd_probe(int argc, char **argv)
{
    const char **xmls = calloc((size_t)argc, sizeof(char *));
    const char **sets = calloc((size_t)argc, sizeof(char *));
    const char **overrides = calloc((size_t)argc, sizeof(char *));
    size_t nxml = 0, nset = 0, noverride = 0;
    const char *format = "mlir", *out = NULL;
    sysdesc_probe_io io = SYSDESC_PROBE_IO_AUTO;
    bool quiet = false;
    int rc = SYSDESC_EXIT_OK;
    dlti_context *ctx = NULL;
    char *text = NULL;
    if (!xmls || !sets || !overrides) {
        rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
        goto done;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (cli_is_help(a)) {
            rc = cli_write_stdout(usage, sizeof(usage) - 1);
            goto done;
        } else if (is_opt(a, "--xml")) {
            if (!(v = opt_value(argc, argv, &i, "--xml")))
                goto missing;
            xmls[nxml++] = v;
        } else if (is_opt(a, "--set")) {
            if (!(v = opt_value(argc, argv, &i, "--set")))
                goto missing;
            sets[nset++] = v;
        } else if (is_opt(a, "--override")) {
            if (!(v = opt_value(argc, argv, &i, "--override")))
                goto missing;
            overrides[noverride++] = v;
        } else if (is_opt(a, "--format")) {
            if (!(v = opt_value(argc, argv, &i, "--format")))
                goto missing;
            format = v;
        } else if (strcmp(a, "-o") == 0 || is_opt(a, "--output")) {
            if (strcmp(a, "-o") == 0) {
                if (++i >= argc)
                    goto missing;
                out = argv[i];
            } else if (!(out = opt_value(argc, argv, &i, "--output"))) {
                goto missing;
            }
        } else if (strcmp(a, "--io") == 0) {
            io = SYSDESC_PROBE_IO_ON;
        } else if (strcmp(a, "--no-io") == 0) {
            io = SYSDESC_PROBE_IO_OFF;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            quiet = true;
        } else {
            rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                          "probe: unexpected argument '%s' (see sysdesc probe --help)", a);
            goto done;
        }
        continue;
    missing:
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "probe: %s needs a value", a);
        goto done;
    }
    bool bare = false;
    int fmt = cli_format_parse(format);
    if (fmt < 0) {
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                      "probe: unknown format '%s' (mlir, attr, yaml, json)", format);
        goto done;
    }
    bare = fmt == CLI_FORMAT_ATTR;
    ctx = dlti_context_new();
    if (!ctx) {
        rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
        goto done;
    }
    dlti_error_t err;
    const dlti_attr *spec = cli_probe(ctx, xmls, nxml, io, quiet, &err);
    if (!spec) {
        rc = cli_report(&err);
        if (err.code == DLTI_ERROR_IO)
            rc = SYSDESC_EXIT_ENVIRONMENT;
        goto done;
    }
    for (size_t k = 0; k < noverride; k++) {
        spec = apply_override_file(ctx, spec, overrides[k], &err);
        if (!spec) {
            rc = cli_report(&err);
            goto done;
        }
    }
    for (size_t k = 0; k < nset; k++) {
        spec = sysdesc_spec_override(ctx, spec, sets[k], &err);
        if (!spec) {
            rc = cli_fail(cli_exit_code(err.code) == SYSDESC_EXIT_ENVIRONMENT
                              ? SYSDESC_EXIT_ENVIRONMENT
                              : SYSDESC_EXIT_BAD_INPUT,
                          "probe: --set %s: %s", sets[k], err.text);
            goto done;
        }
    }
    if (fmt == CLI_FORMAT_YAML || fmt == CLI_FORMAT_JSON) {
        sysdesc_system sys = {.spec = spec};
        rc = cli_output_system(&sys, fmt, false, out && strcmp(out, "-") != 0 ? out : NULL);
        goto done;
    }
    size_t len;
    char *attr = dlti_attr_print(spec, &len);
    if (!attr) {
        rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
        goto done;
    }
    if (bare) {
        text = realloc(attr, len + 2);
        if (!text) {
            free(attr);
            rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
            goto done;
        }
        text[len++] = '\n';
        text[len] = '\0';
    } else {
        static const char head[] = "module attributes {dlti.target_system_spec = ";
        static const char tail[] = "} {\n}\n\n"; /* as mlir-opt-22 and sysdesc fmt print it */
        size_t total = sizeof(head) - 1 + len + sizeof(tail) - 1;
        text = malloc(total + 1);
        if (!text) {
            free(attr);
            rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "out of memory");
            goto done;
        }
        memcpy(text, head, sizeof(head) - 1);
        memcpy(text + sizeof(head) - 1, attr, len);
        memcpy(text + sizeof(head) - 1 + len, tail, sizeof(tail));
        len = total;
        free(attr);
    }
    if (out && strcmp(out, "-") != 0) {
        char msg[512];
        if (atomic_write_file(out, text, len, msg, sizeof(msg)) != 0)
            rc = cli_fail(SYSDESC_EXIT_ENVIRONMENT, "%s", msg);
    } else {
        rc = cli_write_stdout(text, len);
    }
done:
    free(text);
    free(xmls);
    free(sets);
    free(overrides);
    dlti_context_free(ctx);
    return rc;
}
