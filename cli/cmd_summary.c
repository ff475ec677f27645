/* sysdesc summary: a system at a glance, one block per device.
 *
 * The command: its options, loading or probing the system, and printing
 * each device as a block at 80 columns: a header line (id, vendor and
 * model, device type, arch), then the device's lines (summary_lines.c)
 * under their labels, with colour on a terminal. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const cli_help help = {
    .operands = "[SPEC]",
    .description =
        "Prints a system for people: one block per device, a header line (id,\n"
        "vendor and model, device type, arch), then the keys the device schema\n"
        "gives a summary label (docs/keys.md), in schema order, with their units\n"
        "(KiB/MiB/GiB, GHz, TB/s, TFLOP/s).  Devices whose blocks read the same\n"
        "are one block, at the first one's place: \"GPU0..GPU7  8 \xc3\x97 NVIDIA H100\n"
        "SXM5 80GB\".  Every line fits 80 columns.\n",
    .status = "Exit status: 0 ok; 1 an MLIR file without DLTI (or with it on several ops:\n"
              "--scope chooses), or SPEC is no file and no catalog entry (the nearest\n"
              "names suggested); 2 bad input or usage; 3 unreadable file, failed probe or\n"
              "write.\n",
};

#define WIDTH 80
#define INDENT 2
#define LABEL_MAX 24 /* label column: at most this many columns */
#define SUB_MAX 20   /* sub-label column (cache level, peak data type) */

#define BOLD "\033[1m"
#define DIM "\033[2m"
#define RESET "\033[0m"

/* ---- printing ---- */

typedef struct {
    sum_buf out;
    bool color;
} printer;

static void put_label(printer *pr, const char *text, size_t width)
{
    size_t c = sum_cols(text);
    if (pr->color && *text) {
        sum_buf_str(&pr->out, DIM);
        sum_buf_fit(&pr->out, text, width);
        sum_buf_str(&pr->out, RESET);
    } else {
        sum_buf_fit(&pr->out, text, width);
    }
    sum_buf_spaces(&pr->out, c < width ? width - c : 0);
}

/* The first word of `v` when it is a number ("48" of "48 KiB × 2"). */
static size_t number_cols(const char *v)
{
    if (!((*v >= '0' && *v <= '9') || (*v == '-' && v[1] >= '0' && v[1] <= '9')))
        return 0;
    size_t n = strcspn(v, " ");
    return v[n] == ' ' ? n : 0;
}

static void put_value(printer *pr, const sum_line *l, size_t prefix, size_t num_w)
{
    size_t avail = WIDTH > prefix ? WIDTH - prefix : 1;
    const char *v = l->value;
    size_t nc = number_cols(v);
    if (num_w && nc && num_w > nc && sum_cols(v) + (num_w - nc) <= avail)
        sum_buf_spaces(&pr->out, num_w - nc);
    if (sum_cols(v) <= avail || !l->list) {
        sum_buf_fit(&pr->out, v, avail);
        sum_buf_str(&pr->out, "\n");
        return;
    }
    /* a list: items separated by ", ", wrapped under the value column */
    size_t used = 0;
    while (*v) {
        const char *sep = strstr(v, ", ");
        size_t n = sep ? (size_t)(sep - v) : strlen(v);
        char *item = malloc(n + 1);
        if (!item) {
            pr->out.failed = true;
            return;
        }
        memcpy(item, v, n);
        item[n] = '\0';
        size_t w = sum_cols(item) + (sep ? 1 : 0); /* the comma stays on this line */
        if (used && used + 1 + w > avail) {
            sum_buf_str(&pr->out, "\n");
            sum_buf_spaces(&pr->out, prefix);
            used = 0;
        } else if (used) {
            sum_buf_str(&pr->out, " ");
            used++;
        }
        size_t room = avail - used - (sep ? 1 : 0);
        sum_buf_fit(&pr->out, item, room ? room : 1);
        used += sum_cols(item) < room ? sum_cols(item) : room;
        if (sep) {
            sum_buf_str(&pr->out, ",");
            used++;
        }
        free(item);
        v = sep ? sep + 2 : v + n;
    }
    sum_buf_str(&pr->out, "\n");
}

/* `count` > 1: the header of identical devices, "8 × MODEL". */
static void put_header(printer *pr, const char *id, const sum_device *d, size_t count)
{
    sum_buf name = {0}, paren = {0}, idb = {0};
    sum_buf_clean(&idb, id, strlen(id));
    const char *vendor = sum_get_str(d, d->dev, "vendor");
    const char *model = sum_get_str(d, d->dev, "model"), *arch = sum_get_str(d, d->dev, "arch");
    if (vendor) {
        /* "NVIDIA Corporation" + "NVIDIA H100 80GB HBM3": the model alone */
        size_t w = strcspn(vendor, " ");
        if (!model || strncmp(model, vendor, w) != 0 || (model[w] != ' ' && model[w] != '\0'))
            sum_buf_clean(&name, vendor, strlen(vendor));
    }
    if (model) {
        sum_buf_str(&name, name.len ? " " : "");
        sum_buf_clean(&name, model, strlen(model));
    }
    if (count > 1) {
        sum_buf counted = {0};
        sum_buf_printf(&counted, "%zu \xc3\x97 ", count); /* "8 × " */
        sum_buf_add(&counted, name.p ? name.p : "", name.len);
        free(name.p);
        name = counted;
    }
    if (d->type || arch) {
        sum_buf_str(&paren, "(");
        if (d->type)
            sum_buf_clean(&paren, d->type, strlen(d->type));
        sum_buf_str(&paren, d->type && arch ? ", " : "");
        if (arch)
            sum_buf_clean(&paren, arch, strlen(arch));
        sum_buf_str(&paren, ")");
    }
    char *i = sum_buf_take(&idb), *n = sum_buf_take(&name), *p = sum_buf_take(&paren);
    if (!i || !n || !p) {
        pr->out.failed = true;
    } else {
        sum_buf h = {0};
        size_t fixed = sum_cols(i) + (*p ? 2 + sum_cols(p) : 0);
        sum_buf_str(&h, i);
        if (*n && fixed + 3 < WIDTH) {
            sum_buf_str(&h, "  ");
            sum_buf_fit(&h, n, WIDTH - fixed - 2);
        }
        if (*p) {
            sum_buf_str(&h, "  ");
            sum_buf_str(&h, p);
        }
        char *hs = sum_buf_take(&h);
        if (!hs) {
            pr->out.failed = true;
        } else {
            sum_buf_str(&pr->out, pr->color ? BOLD : "");
            sum_buf_fit(&pr->out, hs, WIDTH);
            sum_buf_str(&pr->out, pr->color ? RESET "\n" : "\n");
        }
        free(hs);
    }
    free(i);
    free(n);
    free(p);
}

static void put_device(printer *pr, const char *id, sum_device *d, size_t count)
{
    put_header(pr, id, d, count);
    size_t lw = 0, sw = 0;
    for (size_t i = 0; i < d->n; i++) {
        const sum_line *l = &d->lines[i];
        if (l->label && sum_cols(l->label) > lw)
            lw = sum_cols(l->label);
        if (l->sub && sum_cols(l->sub) > sw)
            sw = sum_cols(l->sub);
    }
    lw = lw > LABEL_MAX ? LABEL_MAX : lw;
    sw = sw > SUB_MAX ? SUB_MAX : sw;
    for (size_t i = 0; i < d->n; i++) {
        const sum_line *l = &d->lines[i];
        /* the widest number of the group aligns the group's numbers */
        size_t num_w = 0;
        if (l->sub)
            for (size_t j = 0; j < d->n; j++)
                if (d->lines[j].group == l->group && d->lines[j].sub &&
                    number_cols(d->lines[j].value) > num_w)
                    num_w = number_cols(d->lines[j].value);
        sum_buf_spaces(&pr->out, INDENT);
        put_label(pr, l->label ? l->label : "", lw);
        sum_buf_str(&pr->out, "  ");
        size_t prefix = INDENT + lw + 2;
        if (l->sub) {
            size_t gw = 0; /* the group's sub-label width */
            for (size_t j = 0; j < d->n; j++)
                if (d->lines[j].group == l->group && d->lines[j].sub &&
                    sum_cols(d->lines[j].sub) > gw)
                    gw = sum_cols(d->lines[j].sub);
            gw = gw > sw ? sw : gw;
            put_label(pr, l->sub, gw);
            sum_buf_str(&pr->out, "  ");
            prefix += gw + 2;
        }
        put_value(pr, l, prefix, num_w);
    }
}

/* "GPU0..GPU7": ids that count up by one under one prefix are a range; the
 * rest are listed ("GPU0..GPU3, GPU5, GPU6"). */
static void put_ids(sum_buf *b, const char *const *ids, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t len = strlen(ids[i]), digits = 0;
        while (digits < len && ids[i][len - 1 - digits] >= '0' && ids[i][len - 1 - digits] <= '9')
            digits++;
        size_t prefix = len - digits, j = i + 1;
        unsigned long first = digits ? strtoul(ids[i] + prefix, NULL, 10) : 0;
        while (digits && j < n && strlen(ids[j]) > prefix &&
               strncmp(ids[j], ids[i], prefix) == 0 &&
               strspn(ids[j] + prefix, "0123456789") == strlen(ids[j] + prefix) &&
               ids[j][prefix] != '0' && strtoul(ids[j] + prefix, NULL, 10) == first + (j - i))
            j++;
        sum_buf_str(b, i ? ", " : "");
        if (j - i >= 3) {
            sum_buf_printf(b, "%s..%s", ids[i], ids[j - 1]);
        } else {
            j = i + 1;
            sum_buf_str(b, ids[i]);
        }
        i = j;
    }
}

/* FNV-1a of a block's text: equal blocks, one group. */
static size_t text_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3u;
    return (size_t)(h ^ (h >> 32));
}

/* The summary of every device of `spec`, into pr->out: devices whose blocks
 * would read the same (GPU0..GPU7 of an 8-GPU node) are one block, "8 ×"
 * its model, at the first one's place. */
static int summarize(printer *pr, const dlti_context *ctx, const dlti_attr *spec)
{
    size_t n = dlti_attr_size(spec);
    sum_device *d = calloc(n ? n : 1, sizeof *d);
    char **block = calloc(n ? n : 1, sizeof *block);
    const char **ids = calloc(n ? n : 1, sizeof *ids);
    size_t *group = calloc(n ? n : 1, sizeof *group);
    /* The groups in one pass: a hash of the blocks' texts finds the first
     * device of a block (linear in the devices: 100,000 distinct devices
     * took minutes when each was compared with all before it), and next[]
     * chains a group's members in spec order. */
    size_t slots = 16;
    while (slots < 2 * n)
        slots *= 2;
    size_t *table = malloc(slots * sizeof *table), *next = malloc((n ? n : 1) * sizeof *next),
           *last = malloc((n ? n : 1) * sizeof *last);
    bool ok = d && block && ids && group && table && next && last;
    for (size_t s = 0; ok && s < slots; s++)
        table[s] = SIZE_MAX;
    for (size_t i = 0; ok && i < n; i++) {
        const char *id = dlti_key_str(dlti_attr_entry_key(spec, i), NULL);
        const dlti_attr *dev = dlti_attr_entry_value(spec, i);
        d[i] = (sum_device){ctx, dev, NULL, NULL, 0, 0, 0, false};
        ids[i] = id ? id : "?";
        if (dlti_attr_get_kind(dev) == DLTI_ATTR_DEVICE_SPEC) {
            d[i].type = sum_get_str(&d[i], dev, "device_type");
            if (!d[i].type) { /* MLIR's users name the device instead: "CPU", "GPU3" */
                unsigned bits = sysdesc_device_type_bits(id, dev);
                d[i].type = bits == SYSDESC_DEVICE_CPU   ? "CPU"
                            : bits == SYSDESC_DEVICE_GPU ? "GPU"
                                                         : NULL;
            }
            ok = sum_device_lines(&d[i]);
        }
        /* The block with no id: what "the same" means. */
        printer one = {{0}, false};
        put_device(&one, "", &d[i], 1);
        ok = ok && !one.out.failed && (block[i] = sum_buf_take(&one.out)) != NULL;
        if (!ok)
            break;
        size_t s = text_hash(block[i]) & (slots - 1);
        while (table[s] != SIZE_MAX && strcmp(block[table[s]], block[i]) != 0)
            s = (s + 1) & (slots - 1);
        next[i] = SIZE_MAX;
        if (table[s] == SIZE_MAX) {
            table[s] = group[i] = last[i] = i;
        } else {
            group[i] = table[s];
            next[last[group[i]]] = i;
            last[group[i]] = i;
        }
    }
    const char **members = ok ? calloc(n ? n : 1, sizeof *members) : NULL;
    ok = ok && members;
    for (size_t i = 0, shown = 0; ok && i < n && !pr->out.failed; i++) {
        if (group[i] != i)
            continue;
        size_t count = 0;
        for (size_t j = i; j != SIZE_MAX; j = next[j])
            members[count++] = ids[j];
        sum_buf id = {0};
        put_ids(&id, members, count);
        char *text = sum_buf_take(&id);
        if (!text) {
            ok = false;
            break;
        }
        if (shown++)
            sum_buf_str(&pr->out, "\n");
        put_device(pr, text, &d[i], count);
        free(text);
    }
    for (size_t i = 0; d && i < n; i++)
        sum_device_free(&d[i]);
    for (size_t i = 0; block && i < n; i++)
        free(block[i]);
    free(members);
    free(d);
    free(block);
    free(ids);
    free(group);
    free(table);
    free(next);
    free(last);
    if (!ok || pr->out.failed)
        return cli_nomem();
    return SYSDESC_EXIT_OK;
}

/* A block of DLTI that is no system spec (summary_dlti.c). */
static void dlti_block(void *user, const char *title, sum_device *d)
{
    printer *pr = user;
    if (pr->out.len)
        sum_buf_str(&pr->out, "\n");
    put_device(pr, title, d, 1);
}

static bool color_auto(void)
{
    const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
    return isatty(STDOUT_FILENO) && !(no && *no) && !(term && strcmp(term, "dumb") == 0);
}

/* --color[=WHEN]: -1 auto, 0 never, 1 always (the default of --color). */
static bool parse_color(const char *value, void *field, char *msg, size_t size)
{
    const char *w = value ? value : "always";
    int *color = field;
    if (strcmp(w, "always") == 0)
        *color = 1;
    else if (strcmp(w, "never") == 0)
        *color = 0;
    else if (strcmp(w, "auto") == 0)
        *color = -1;
    else {
        snprintf(msg, size, "--color is auto, always or never, not '%s'", w);
        return false;
    }
    return true;
}

typedef struct summary_args {
    int color;
    cli_probe_args probe;
    sysdesc_yaml_options load;
} summary_args;

#define AT(member) CLI_AT(summary_args, member)
static const cli_opt options[] = {
    {.kind = CLI_TEXT, .label = "SPEC",
     .help = "a YAML or MLIR file (\"-\": standard input) or a catalog\n"
             "name (nvidia/dgx-h100)"},
    {"--host", .kind = CLI_FLAG, AT(probe.host),
     .help = "probe this machine instead; PROBE OPTIONS as for sysdesc\n"
             "probe: --io (default here), --no-io, --quiet, --no-catalog,\n"
             "--runtimes=LIST, --no-cache, --refresh-cache,\n"
             "--runtime-timeout=MS, --gcc=NAME, --clang=NAME"},
    {"--color", .flags = CLI_VALUE_OPT, .kind = CLI_PARSE, AT(color), .parse = parse_color,
     .metavar = "WHEN", .label = "--color=WHEN",
     .help = "auto (default: colour on a terminal unless NO_COLOR is\n"
             "set or TERM is dumb), always or never; --color: always"},
    {0},
};
#undef AT

/* The options that exclude each other or are missing: -1 when fine. */
static int check_combination(const summary_args *s, const char *path)
{
    if (s->probe.host && path)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "summary: a SPEC or --host, not both");
    if (s->probe.host && s->load.scope)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT, "summary: --scope names an op of an MLIR SPEC, "
                                                "not of --host");
    if (!s->probe.host && !path)
        return cli_fail(SYSDESC_EXIT_BAD_INPUT,
                        "summary: missing SPEC: a file, a catalog name or --host for this "
                        "machine (see sysdesc summary --help)");
    return cli_probe_args_check("summary", &s->probe, s->probe.host);
}

/* The summary of `sys`: its devices, or the other DLTI a lenient load gave. */
static int print_summary(const dlti_context *ctx, const sysdesc_system *sys, int color)
{
    printer pr = {{0}, color < 0 ? color_auto() : color == 1};
    int rc;
    if (sys->spec)
        rc = summarize(&pr, ctx, sys->spec);
    else /* a lenient load of other DLTI: a #dlti.map, a data layout, ... */
        rc = sum_dlti_blocks(ctx, sys, dlti_block, &pr) && !pr.out.failed ? SYSDESC_EXIT_OK
                                                                          : cli_nomem();
    if (rc == SYSDESC_EXIT_OK)
        rc = cli_write_stdout(pr.out.p ? pr.out.p : "", pr.out.len);
    free(pr.out.p);
    return rc;
}

int cmd_summary(int argc, char **argv)
{
    summary_args s = {.color = -1};
    cli_probe_args_init(&s.probe, SYSDESC_PROBE_IO_ON);
    cli_load_options_init(&s.load);
    s.load.flags |= SYSDESC_LOAD_LENIENT; /* a transform: docs/checks.md */
    const char *path = NULL;
    cli_args a;
    cli_args_init(&a, "summary", &help,
                  (const cli_group[]){{.opts = options, .base = &s},
                                      CLI_PROBE_GROUPS(s.probe),
                                      {.opts = cli_transform_opts, .base = &s.load},
                                      {0}}, argc, argv);
    int rc = -1;
    for (int o; rc < 0 && (o = cli_next(&a)) != CLI_DONE;) {
        if (o == CLI_EXIT)
            rc = a.rc;
        else if (path)
            rc = cli_fail(SYSDESC_EXIT_BAD_INPUT, "summary: one SPEC at a time ('%s', '%s')",
                          path, a.arg);
        else
            path = a.arg;
    }
    if (rc < 0)
        rc = check_combination(&s, path);
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    sysdesc_system sys;
    if (rc < 0 && !ctx)
        rc = cli_nomem();
    if (rc < 0 && (rc = cli_load_system(ctx, path, &s.load, &s.probe, "summary --host",
                                        &sys)) < 0)
        rc = print_summary(ctx, &sys, s.color);
    dlti_context_free(ctx);
    cli_args_free(&a);
    return rc;
}
