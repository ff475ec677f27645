/* sysdesc schema: the device schema (sysdesc_schema_key_at) as a markdown
 * table for docs/keys.md or as JSON for programs. */
#include "cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const cli_help help = {
    .description =
        "Prints the device schema the library checks descriptions against: every\n"
        "key a device may hold, with its type, unit, the device types that carry\n"
        "it, those whose complete descriptions need it, its class (fact, limit,\n"
        "peak, bookkeeping), its range and meaning.  A '*' in a path is one level\n"
        "whose names the parent map lists.\n",
    .status = "Exit status: 0 ok; 2 bad usage; 3 failed write.\n",
};

typedef enum { FORMAT_MARKDOWN, FORMAT_JSON } schema_format;

static const char *class_name(sysdesc_key_class c)
{
    switch (c) {
    case SYSDESC_KEY_FACT:
        return "fact";
    case SYSDESC_KEY_LIMIT:
        return "limit";
    case SYSDESC_KEY_PEAK:
        return "peak";
    case SYSDESC_KEY_BOOKKEEPING:
        return "bookkeeping";
    }
    return "?";
}

/* The value type as MLIR writes it; `json` picks the one-word spelling. */
static const char *type_name(sysdesc_value_type t, bool json)
{
    switch (t) {
    case SYSDESC_VALUE_I64:
        return "i64";
    case SYSDESC_VALUE_F64:
        return "f64";
    case SYSDESC_VALUE_BOOL:
        return "i1";
    case SYSDESC_VALUE_STRING:
        return "string";
    case SYSDESC_VALUE_I64_ARRAY:
        return json ? "array<i64>" : "array<i64> / [i64]";
    case SYSDESC_VALUE_STRING_LIST:
        return "[string]";
    case SYSDESC_VALUE_MAP:
        return "map";
    case SYSDESC_VALUE_OPEN_MAP:
        return json ? "open_map" : "map (any keys)";
    }
    return "?";
}

static bool has_range(const sysdesc_schema_key *k)
{
    return (k->type == SYSDESC_VALUE_I64 || k->type == SYSDESC_VALUE_I64_ARRAY) &&
           (k->min != 0 || k->max != 0);
}

/* Device type bits as "CPU", "GPU", "ACCEL" joined by `sep`, each in `quote`s, into `out`. */
static void devices_text(unsigned bits, const char *sep, const char *quote, char *out,
                         size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (unsigned bit = 1; bit & SYSDESC_DEVICE_ALL && used < size; bit <<= 1)
        if (bits & bit)
            used += (size_t)snprintf(out + used, size - used, "%s%s%s%s", used ? sep : "",
                                     quote, sysdesc_schema_device_type_name(bit), quote);
}

/* One markdown table cell after a '|': " TEXT |" (" |" when empty), '|' escaped. */
static void put_cell(const char *s)
{
    putchar(' ');
    for (const char *t = s; t && *t; t++) {
        if (*t == '|')
            putchar('\\');
        putchar(*t);
    }
    fputs(s && *s ? " |" : "|", stdout);
}

static void put_markdown_key(const sysdesc_schema_key *k)
{
    char path[256], devices[32], required[128], range[64] = "", meaning[1024];
    snprintf(path, sizeof(path), "`%s`", k->path);
    devices_text(k->devices, ", ", "", devices, sizeof(devices));
    devices_text(k->required, ", ", "", required, sizeof(required));
    if (k->required_if && k->required) {
        size_t used = strlen(required);
        snprintf(required + used, sizeof(required) - used, " (if %s)", k->required_if);
    }
    if (has_range(k) && k->max == INT64_MAX)
        snprintf(range, sizeof(range), ">= %" PRId64, k->min);
    else if (has_range(k))
        snprintf(range, sizeof(range), "%" PRId64 "..%" PRId64, k->min, k->max);
    if (!k->names)
        snprintf(meaning, sizeof(meaning), "%s", k->meaning);
    else if (strcmp(k->names, "#") == 0)
        snprintf(meaning, sizeof(meaning), "%s; keys: \"0\", \"1\", ...", k->meaning);
    else {
        size_t used = (size_t)snprintf(meaning, sizeof(meaning), "%s; keys: ", k->meaning);
        if (used >= sizeof(meaning))
            used = sizeof(meaning) - 1;
        /* "L1 L1i L2" -> "L1, L1i, L2" */
        for (const char *p = k->names; *p && used + 3 < sizeof(meaning); p++) {
            if (*p == ' ')
                meaning[used++] = ',';
            meaning[used++] = *p;
        }
        meaning[used] = '\0';
    }
    putchar('|');
    put_cell(path);
    put_cell(type_name(k->type, false));
    put_cell(k->unit);
    put_cell(devices);
    put_cell(required);
    put_cell(class_name(k->key_class));
    put_cell(range);
    put_cell(meaning);
    putchar('\n');
}

static void put_json_string(const char *s)
{
    if (!s) {
        fputs("null", stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04X", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* The space-separated `names` as a JSON array of strings ("#": ["#"]). */
static void put_json_names(const char *names)
{
    if (!names) {
        fputs("null", stdout);
        return;
    }
    putchar('[');
    bool first = true;
    for (const char *p = names; *p;) {
        size_t n = strcspn(p, " ");
        if (n) {
            printf("%s\"%.*s\"", first ? "" : ", ", (int)n, p);
            first = false;
        }
        p += n;
        p += strspn(p, " ");
    }
    putchar(']');
}

static void put_json_key(const sysdesc_schema_key *k, bool first)
{
    printf("%s\n    {\"path\": ", first ? "" : ",");
    put_json_string(k->path);
    printf(", \"type\": \"%s\", \"unit\": ", type_name(k->type, true));
    put_json_string(k->unit);
    char devices[32], required[32];
    devices_text(k->devices, ", ", "\"", devices, sizeof(devices));
    devices_text(k->required, ", ", "\"", required, sizeof(required));
    printf(", \"devices\": [%s], \"required\": [%s], \"required_if\": ", devices, required);
    put_json_string(k->required_if);
    printf(", \"class\": \"%s\", ", class_name(k->key_class));
    if (has_range(k)) {
        printf("\"min\": %" PRId64 ", \"max\": ", k->min);
        if (k->max == INT64_MAX)
            fputs("null", stdout);
        else
            printf("%" PRId64, k->max);
    } else {
        fputs("\"min\": null, \"max\": null", stdout);
    }
    fputs(", \"names\": ", stdout);
    put_json_names(k->names);
    fputs(", \"meaning\": ", stdout);
    put_json_string(k->meaning);
    fputs(", \"summary\": ", stdout);
    put_json_string(k->summary);
    putchar('}');
}

static bool parse_format(const char *value, void *field, char *msg, size_t size)
{
    if (strcmp(value, "markdown") == 0 || strcmp(value, "md") == 0)
        *(schema_format *)field = FORMAT_MARKDOWN;
    else if (strcmp(value, "json") == 0)
        *(schema_format *)field = FORMAT_JSON;
    else {
        snprintf(msg, size, "unknown format '%s' (markdown, json)", value);
        return false;
    }
    return true;
}

static bool parse_device(const char *value, void *field, char *msg, size_t size)
{
    if ((*(unsigned *)field = sysdesc_schema_device_type(value)) != 0)
        return true;
    snprintf(msg, size, "unknown device type '%s' (CPU, GPU, ACCEL)", value);
    return false;
}

typedef struct schema_args {
    schema_format format;
    unsigned device; /* 0: every device type */
} schema_args;

#define AT(member) CLI_AT(schema_args, member)
static const cli_opt options[] = {
    {"--format", .flags = CLI_VALUE, .kind = CLI_PARSE, AT(format), .parse = parse_format,
     .usage = "--format markdown|json", .label = "--format F",
     .help = "markdown: one table, as docs/keys.md holds it (default);\n"
             "json: {\"schema_version\": 1, \"keys\": [{\"path\": ...}, ...]}"},
    {"--device", .flags = CLI_VALUE, .kind = CLI_PARSE, AT(device), .parse = parse_device,
     .usage = "--device CPU|GPU|ACCEL", .label = "--device T",
     .help = "only the keys of device type T (CPU, GPU or ACCEL)"},
    {0},
};
#undef AT

/* Every key of the schema (of device type `device`, 0: all) as `format`. */
static int print_schema(schema_format format, unsigned device)
{
    if (format == FORMAT_MARKDOWN)
        fputs("| key | type | unit | devices | required | class | range | meaning |\n"
              "|---|---|---|---|---|---|---|---|\n",
              stdout);
    else
        printf("{\n  \"schema_version\": %d,\n  \"keys\": [", SYSDESC_SCHEMA_VERSION);
    bool first = true;
    const sysdesc_schema_key *k;
    for (size_t i = 0; (k = sysdesc_schema_key_at(i)) != NULL; i++) {
        if (device && !(k->devices & device))
            continue;
        if (format == FORMAT_MARKDOWN)
            put_markdown_key(k);
        else
            put_json_key(k, first);
        first = false;
    }
    if (format == FORMAT_JSON)
        fputs("\n  ]\n}\n", stdout);
    /* Write errors of the printf calls surface in this flush. */
    return cli_write_stdout("", 0);
}

int cmd_schema(int argc, char **argv)
{
    schema_args s = {FORMAT_MARKDOWN, 0};
    cli_list none = {0};
    cli_args a;
    cli_args_init(&a, "schema", &help, (const cli_group[]){{.opts = options, .base = &s}, {0}},
                  argc, argv);
    int rc = cli_parse_all(&a, &none, 0, "schema takes none");
    cli_args_free(&a);
    return rc < 0 ? print_schema(s.format, s.device) : rc;
}
