/* Where a problem the checker found is in the text a system was loaded
 * from: the key of a path in a YAML document tree, or in MLIR text.  Built
 * only when there is a problem to locate: a valid load never pays for it.
 *
 * Each mapping (or MLIR container) a path goes through is read once, on
 * its first lookup, into a hash table of its keys: locating one problem
 * costs the depth of its path, so a file of many devices and many problems
 * is located in time linear in the problems (not devices x problems). */
#include "sysdesc_private.h"

#include <stdlib.h>
#include <string.h>

/* A key of a container, or (key NULL) the mark that the container was read. */
typedef struct child {
    const void *parent;       /* a mapping node, or a container body in the text */
    const char *key;
    size_t len;
    const void *at;           /* the key node, or where the key is in the text */
    const void *value;        /* the value node, or where the value starts */
} child;

struct sd_locator {
    const char *text;
    size_t len;
    size_t from;  /* MLIR: where the system spec is looked for from */
    bool mlir;
    bool parsed;  /* the YAML tree was tried */
    sd_doc doc;
    child *slots; /* open addressing; a power of two */
    size_t nslots, used;
    bool failed;  /* out of memory: no location */
};

static size_t slot_of(const sd_locator *l, const void *parent, const char *key, size_t len)
{
    uint64_t h = bs_hash_bytes(key ? key : "", key ? len : 0) ^ (uint64_t)(uintptr_t)parent;
    h *= 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17) & (l->nslots - 1);
}

static child *find(sd_locator *l, const void *parent, const char *key, size_t len)
{
    if (!l->nslots)
        return NULL;
    for (size_t i = slot_of(l, parent, key, len);; i = (i + 1) & (l->nslots - 1)) {
        child *c = &l->slots[i];
        if (!c->parent)
            return NULL;
        if (c->parent == parent && (key ? c->key && c->len == len && memcmp(c->key, key, len) == 0
                                        : !c->key))
            return c;
    }
}

/* Adds a key (the first of a name wins, as the scans it replaces found it). */
static void add(sd_locator *l, child c)
{
    if (l->failed || find(l, c.parent, c.key, c.len))
        return;
    if ((l->used + 1) * 4 > l->nslots * 3) {
        size_t n = l->nslots ? l->nslots * 2 : 256;
        child *old = l->slots, *slots = calloc(n, sizeof(*slots));
        if (!slots) {
            l->failed = true;
            return;
        }
        size_t was = l->nslots;
        l->slots = slots;
        l->nslots = n;
        for (size_t i = 0; i < was; i++)
            if (old[i].parent) {
                size_t j = slot_of(l, old[i].parent, old[i].key, old[i].len);
                while (slots[j].parent)
                    j = (j + 1) & (n - 1);
                slots[j] = old[i];
            }
        free(old);
    }
    size_t j = slot_of(l, c.parent, c.key, c.len);
    while (l->slots[j].parent)
        j = (j + 1) & (l->nslots - 1);
    l->slots[j] = c;
    l->used++;
}

sd_locator *sd_locator_new(const char *text, size_t len, const char *source)
{
    sd_locator *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    l->text = text;
    l->len = len;
    l->mlir = sd_sniff(source, text, len) == SD_INPUT_MLIR; /* as the loader decided */
    return l;
}

void sd_locator_from(sd_locator *l, size_t offset)
{
    if (l)
        l->from = offset <= l->len ? offset : 0;
}

void sd_locator_free(sd_locator *l)
{
    if (!l)
        return;
    if (l->parsed)
        sd_doc_free(&l->doc);
    free(l->slots);
    free(l);
}

static const sd_node *yaml_child(sd_locator *l, const sd_node *map, const char *key, size_t len,
                                 const sd_node **key_node)
{
    if (!map || map->kind != SD_MAPPING)
        return NULL;
    if (!find(l, map, NULL, 0)) {
        add(l, (child){map, NULL, 0, NULL, NULL});
        for (size_t i = 0; i < map->len; i++) { /* keys and values interleaved */
            const sd_node *k = map->u.items[2 * i];
            if (k && k->kind == SD_SCALAR)
                add(l, (child){map, k->u.text, k->len, k, map->u.items[2 * i + 1]});
        }
    }
    const child *c = l->failed ? NULL : find(l, map, key, len);
    if (!c)
        return NULL;
    *key_node = c->at;
    return c->value;
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
        at = yaml_child(l, at, keys[i], lens[i], &key);
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

/* Adds every quoted key `"key" =` (or `"key" :` when `colon`) at the top
 * level of the container whose body starts at `body`. */
static void index_container(sd_locator *l, const char *body, const char *end, bool colon)
{
    int depth = 0;
    const char *p = body;
    while (p < end && depth >= 0) {
        char c = *p;
        if (c == '"') {
            const char *q = skip_string(p, end);
            if (depth == 0 && q - p >= 2) {
                const char *r = skip_blanks(q, end);
                if (r < end && (*r == '=' || (colon && *r == ':')))
                    add(l, (child){body, p + 1, (size_t)(q - p) - 2, p, r + 1});
            }
            p = q;
            continue;
        }
        if (c == '/' && p + 1 < end && p[1] == '/') {
            p = memchr(p, '\n', (size_t)(end - p));
            if (!p)
                return;
            continue;
        }
        if (c == '<' || c == '[' || c == '{' || c == '(')
            depth++;
        else if (c == '>' || c == ']' || c == '}' || c == ')')
            depth--;
        p++;
    }
}

/* The quoted key `"key" =` (or, for a device, the older `"key" :`) at the
 * top level of the container whose body starts at `body`; NULL when it
 * holds none.  *value is set past the '=' or ':'.  The container's keys are
 * read once, on its first lookup. */
static const char *container_key(sd_locator *l, const char *body, const char *end,
                                 const char *key, size_t len, bool colon, const char **value)
{
    if (!find(l, body, NULL, 0)) {
        add(l, (child){body, NULL, 0, NULL, NULL});
        index_container(l, body, end, colon);
    }
    const child *c = l->failed ? NULL : find(l, body, key, len);
    if (!c)
        return NULL;
    *value = c->value;
    return c->at;
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

static int locate_mlir(sd_locator *l, const char *const *keys, const size_t *lens,
                       size_t n, int *line, int *column)
{
    const char *end = l->text + l->len, *found = NULL;
    const char *body = system_spec_body(l->text + l->from, end);
    int matched = 0;
    for (size_t i = 0; i < n && body; i++) {
        const char *value;
        const char *k = container_key(l, body, end, keys[i], lens[i], i == 0, &value);
        if (!k)
            break;
        found = k;
        matched++;
        body = container_body(value, end);
    }
    if (!found)
        return -1;
    dlti_error_t e;
    bs_error_locate(&e, NULL, l->text, l->len, (size_t)(found - l->text));
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
