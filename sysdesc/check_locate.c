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

static bool starts_mlir(const char *text, size_t len)
{
    size_t i = 0;
    for (;;) {
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
            i++;
        if (i + 1 < len && text[i] == '/' && text[i + 1] == '/') { /* an MLIR comment */
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        break;
    }
    return (len - i >= 6 && memcmp(text + i, "module", 6) == 0) ||
           (len - i >= 6 && memcmp(text + i, "#dlti.", 6) == 0);
}

sd_locator *sd_locator_new(const char *text, size_t len, const char *source)
{
    (void)source;
    sd_locator *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    l->text = text;
    l->len = len;
    l->mlir = starts_mlir(text, len);
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
    for (size_t i = 0; i < n && at; i++) {
        const sd_node *key = NULL;
        at = yaml_child(at, keys[i], lens[i], &key);
        if (key)
            found = key;
    }
    if (!found)
        return -1;
    *line = found->line;
    *column = found->column;
    return 0;
}

/* The quoted key `"k" =` at or after `from`, as the MLIR printer writes it. */
static const char *mlir_key(const char *p, const char *end, const char *key, size_t len)
{
    for (; p + len + 2 <= end; p++) {
        p = memchr(p, '"', (size_t)(end - p));
        if (!p || p + len + 2 > end)
            return NULL;
        if (memcmp(p + 1, key, len) == 0 && p[len + 1] == '"') {
            const char *q = p + len + 2;
            while (q < end && (*q == ' ' || *q == '\n' || *q == '\t'))
                q++;
            if (q < end && *q == '=')
                return p;
        }
    }
    return NULL;
}

static int locate_mlir(const sd_locator *l, const char *const *keys, const size_t *lens,
                       size_t n, int *line, int *column)
{
    const char *p = l->text, *end = l->text + l->len, *found = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *k = mlir_key(p, end, keys[i], lens[i]);
        if (!k)
            break;
        found = k;
        p = k + lens[i] + 2;
    }
    if (!found)
        return -1;
    dlti_error_t e;
    dlti_error_locate(&e, NULL, l->text, l->len, (size_t)(found - l->text));
    *line = e.line;
    *column = e.column;
    return 0;
}

int sd_locate(sd_locator *l, const char *const *keys, const size_t *lens, size_t n, int *line,
              int *column)
{
    if (!l || n == 0)
        return -1;
    return l->mlir ? locate_mlir(l, keys, lens, n, line, column)
                   : locate_yaml(l, keys, lens, n, line, column);
}
