/* Where a problem the checker found is in the text a system was loaded
 * from: the key of a path in a YAML document tree, or in MLIR text.  Built
 * only when there is a problem to locate: a valid load never pays for it. */
#include "sysdesc_private.h"

#include <stdlib.h>
#include <string.h>

struct sd_locator {
    const char *text;
    size_t len;
    bool mlir;
    bool parsed;  /* the YAML tree was tried */
    sd_doc doc;
};

sd_locator *sd_locator_new(const char *text, size_t len, const char *source)
{
    sd_locator *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    l->text = text;
    l->len = len;
    l->mlir = sd_looks_like_mlir(source, text, len); /* as the loader decided */
    return l;
}

void sd_locator_free(sd_locator *l)
{
    if (!l)
        return;
    if (l->parsed)
        sd_doc_free(&l->doc);
    free(l);
}

static const sd_node *yaml_child(const sd_node *map, const char *key, size_t len,
                                 const sd_node **key_node)
{
    if (!map || map->kind != SD_MAPPING)
        return NULL;
    for (size_t i = 0; i < map->len; i++) { /* keys and values interleaved */
        const sd_node *k = map->u.items[2 * i];
        if (k && k->kind == SD_SCALAR && k->len == len && memcmp(k->u.text, key, len) == 0) {
            *key_node = k;
            return map->u.items[2 * i + 1];
        }
    }
    return NULL;
}

static int locate_yaml(sd_locator *l, const char *const *keys, const size_t *lens, size_t n,
                       int *line, int *column)
{
    if (!l->parsed) {
        sysdesc_yaml_options opts = {
            .max_depth = SYSDESC_YAML_DEFAULT_MAX_DEPTH,
            .max_alias_nodes = SYSDESC_YAML_DEFAULT_MAX_ALIAS_NODES,
            .max_input_bytes = SYSDESC_YAML_DEFAULT_MAX_INPUT_BYTES,
            .max_base_depth = SYSDESC_YAML_DEFAULT_MAX_BASE_DEPTH,
        };
        dlti_error_t ignored;
        l->parsed = true;
        if (sd_doc_parse(&l->doc, l->text, l->len, NULL, &opts, &ignored) != 0) {
            memset(&l->doc, 0, sizeof(l->doc));
            return -1;
        }
    }
    const sd_node *at = l->doc.root, *found = NULL;
    int matched = 0;
    for (size_t i = 0; i < n && at; i++) {
        const sd_node *key = NULL;
        at = yaml_child(at, keys[i], lens[i], &key);
        if (!key)
            break;
        found = key;
        matched++;
    }
    if (!found)
        return -1;
    *line = found->line;
    *column = found->column;
    return matched;
}

/* MLIR text is scanned, not parsed: the system spec's device keys, then
 * each key inside the container (`#dlti.target_device_spec<...>`,
 * `#dlti.map<...>`) the key before it holds, at that container's own level:
 * a `source` map or a nested map that holds the same key name is not
 * mistaken for the key.  Strings and `//` comments are skipped. */

/* Past the string that starts at `p` (a '"'), or `end`. */
static const char *skip_string(const char *p, const char *end)
{
    for (p++; p < end && *p != '"'; p++)
        if (*p == '\\' && p + 1 < end)
            p++;
    return p < end ? p + 1 : end;
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

/* The first `#dlti.target_system_spec<` outside strings and comments: the
 * position after its '<', or NULL. */
static const char *system_spec_body(const char *p, const char *end)
{
    static const char tag[] = "#dlti.target_system_spec<";
    const size_t n = sizeof(tag) - 1;
    while (p < end) {
        if (*p == '"') {
            p = skip_string(p, end);
        } else if (*p == '/' && p + 1 < end && p[1] == '/') {
            p = memchr(p, '\n', (size_t)(end - p));
            if (!p)
                return NULL;
        } else if ((size_t)(end - p) >= n && memcmp(p, tag, n) == 0) {
            return p + n;
        } else {
            p++;
        }
    }
    return NULL;
}

/* The quoted key `"key" =` (or, for a device, the older `"key" :`) at the
 * top level of the container whose body starts at `p`; NULL when it holds
 * none.  *value is set past the '=' or ':'. */
static const char *container_key(const char *p, const char *end, const char *key, size_t len,
                                 bool colon, const char **value)
{
    int depth = 0;
    while (p < end && depth >= 0) {
        char c = *p;
        if (c == '"') {
            const char *q = skip_string(p, end);
            if (depth == 0 && (size_t)(q - p) == len + 2 && memcmp(p + 1, key, len) == 0) {
                const char *r = skip_blanks(q, end);
                if (r < end && (*r == '=' || (colon && *r == ':'))) {
                    *value = r + 1;
                    return p;
                }
            }
            p = q;
            continue;
        }
        if (c == '/' && p + 1 < end && p[1] == '/') {
            p = memchr(p, '\n', (size_t)(end - p));
            if (!p)
                return NULL;
            continue;
        }
        if (c == '<' || c == '[' || c == '{' || c == '(')
            depth++;
        else if (c == '>' || c == ']' || c == '}' || c == ')')
            depth--;
        p++;
    }
    return NULL;
}

/* The body of the container a value starting at `p` opens
 * (`#dlti.NAME<`), or NULL when the value is no container. */
static const char *container_body(const char *p, const char *end)
{
    p = skip_blanks(p, end);
    if ((size_t)(end - p) < 6 || memcmp(p, "#dlti.", 6) != 0)
        return NULL;
    p += 6;
    while (p < end && ((*p >= 'a' && *p <= 'z') || *p == '_'))
        p++;
    return p < end && *p == '<' ? p + 1 : NULL;
}

static int locate_mlir(const sd_locator *l, const char *const *keys, const size_t *lens,
                       size_t n, int *line, int *column)
{
    const char *end = l->text + l->len, *found = NULL;
    const char *body = system_spec_body(l->text, end);
    int matched = 0;
    for (size_t i = 0; i < n && body; i++) {
        const char *value;
        const char *k = container_key(body, end, keys[i], lens[i], i == 0, &value);
        if (!k)
            break;
        found = k;
        matched++;
        body = container_body(value, end);
    }
    if (!found)
        return -1;
    dlti_error_t e;
    dlti_error_locate(&e, NULL, l->text, l->len, (size_t)(found - l->text));
    *line = e.line;
    *column = e.column;
    return matched;
}

int sd_locate(sd_locator *l, const char *const *keys, const size_t *lens, size_t n, int *line,
              int *column)
{
    if (!l || n == 0)
        return -1;
    return l->mlir ? locate_mlir(l, keys, lens, n, line, column)
                   : locate_yaml(l, keys, lens, n, line, column);
}
