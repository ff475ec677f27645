/* The YAML document tree -> a #dlti.target_system_spec, with `base:` reuse.
 *
 * Everything is built with the dlti.h builder; the result is handed out only
 * when the whole file (and every base it names) converted, so a bad file
 * never yields a partial spec.
 *
 * A `base:` that is a path is read relative to the naming file; any other
 * name goes to the resolver the caller passed (load.c and catalog.c pass the
 * catalog's): the loader knows no catalog, so the catalog, which loads its
 * entries through this file, depends on it and not the other way round. */
#define _DEFAULT_SOURCE
#include "sysdesc_private.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct base_file {
    char *path;                /* realpath */
    const dlti_attr *device;
    struct base_file *next;
} base_file;

/* A `base:` as written (a catalog name) or as joined to the naming file's
 * folder (a path), once it loaded: the next device that names it takes the
 * device without a catalog lookup, realpath or read. */
typedef struct base_name {
    char *key;
    const dlti_attr *device;
    struct base_name *next;
} base_name;
#define BASE_NAME_SLOTS 64

typedef struct chain {
    const char *path;          /* realpath of a file being loaded */
    const struct chain *up;
} chain;

typedef struct loader {
    dlti_context *ctx;
    sysdesc_yaml_options opts;
    const sd_resolver *resolver; /* names that are not paths; NULL: none */
    base_file *bases;          /* files loaded as bases, by path, loaded once */
    base_name *named[BASE_NAME_SLOTS]; /* and by what named them */
    sd_types types;
    sd_key_set keys;           /* duplicate checks of big mappings */
    dlti_error_t *err;
} loader;

typedef struct file {
    loader *L;
    const char *source;
    const chain *chain;
    unsigned depth;            /* of the base chain */
} file;

static int nomem(const file *f)
{
    return sd_nomem(f->L->err, f->source);
}

static int load_system(file *f, const sd_node *root, sysdesc_system *out);

/* ---- keys ---- */

/* Sets pairs[i].key to the key of each pair of mapping `map` at `level`:
 * 0, or -1 with the first bad key or, after all keys, the first repeat. */
static int read_keys(const file *f, const sd_node *map, sd_level level, dlti_entry *pairs)
{
    loader *L = f->L;
    size_t n = map->len;
    for (size_t i = 0; i < n; i++) {
        pairs[i].key = sd_key(L->ctx, &L->types, map->u.items[2 * i], level, f->source, L->err);
        if (!pairs[i].key)
            return -1;
    }
    size_t dup, first;
    int r = sd_key_repeat(pairs, n, &L->keys, &dup, &first);
    if (r <= 0)
        return r < 0 ? nomem(f) : 0;
    const sd_node *k = map->u.items[2 * dup], *k0 = map->u.items[2 * first];
    dlti_error_set_at(L->err, DLTI_ERROR_SYNTAX, f->source, k->line, k->column,
                      "duplicate key '%s' (first at line %d, column %d)", k->u.text, k0->line,
                      k0->column);
    return -1;
}

/* ---- values ---- */

static const dlti_attr *build_map(file *f, const sd_node *node, dlti_attr_kind kind,
                                  const dlti_attr *base, bool device_level);

/* The attribute of a value node; *is_null for a null scalar. */
static const dlti_attr *build_value(file *f, const sd_node *n, const dlti_attr *base, bool *is_null)
{
    *is_null = false;
    dlti_context *ctx = f->L->ctx;
    if (n->kind == SD_SCALAR)
        return sd_scalar_attr(ctx, &f->L->types, n, f->source, is_null, f->L->err);
    if (n->kind == SD_MAPPING) {
        dlti_attr_kind base_kind = base && (dlti_attr_get_kind(base) == DLTI_ATTR_MAP ||
                                            dlti_attr_get_kind(base) == DLTI_ATTR_DL_SPEC)
                                       ? dlti_attr_get_kind(base) : DLTI_ATTR_MAP;
        dlti_attr_kind kind;
        if (sd_map_kind(n, base_kind, &kind, f->source, f->L->err) < 0)
            return NULL;
        /* Deep merge: an untagged mapping over an inherited mapping of the
         * same kind overrides its keys one by one; a tagged one (!map) or
         * any other value replaces it. */
        const dlti_attr *merge = base && !n->tag && dlti_attr_get_kind(base) == kind ? base : NULL;
        return build_map(f, n, kind, merge, false);
    }
    if (sd_is_dense_tag(n->tag))
        return sd_dense_array(ctx, &f->L->types, n, f->source, f->L->err);
    if (sd_seq_check(n, f->source, f->L->err) < 0)
        return NULL;
    const dlti_attr **elems = malloc((n->len ? n->len : 1) * sizeof(*elems));
    if (!elems) {
        nomem(f);
        return NULL;
    }
    const dlti_attr *result = NULL;
    size_t i = 0;
    for (; i < n->len; i++) {
        bool null;
        elems[i] = build_value(f, n->u.items[i], NULL, &null);
        if (null) {
            const sd_node *e = n->u.items[i];
            dlti_error_set_at(f->L->err, DLTI_ERROR_SYNTAX, f->source, e->line, e->column,
                     "null in a sequence: an array element needs a value");
            break;
        }
        if (!elems[i])
            break;
    }
    if (i == n->len) {
        /* the real cause at the sequence: the depth limit (an alias can
         * make a sequence as tall as any node it names) or memory */
        result = dlti_array_build(ctx, elems, n->len, f->L->err);
        if (!result)
            dlti_error_place(f->L->err, f->source, n->line, n->column);
    }
    free(elems);
    return result;
}

static const dlti_attr *resolve_base(file *f, const sd_node *n);

static const dlti_attr *build_map(file *f, const sd_node *node, dlti_attr_kind kind,
                                  const dlti_attr *base, bool device_level)
{
    dlti_context *ctx = f->L->ctx;
    size_t npairs = node->len;
    const sd_node *base_node = NULL;
    if (device_level)
        for (size_t i = 0; i < npairs; i++)
            if (sd_is_plain_word(node->u.items[2 * i], "base"))
                base_node = node->u.items[2 * i + 1];
    if (base_node) {
        base = resolve_base(f, base_node);
        if (!base)
            return NULL;
    }
    size_t nbase = base ? dlti_attr_size(base) : 0;
    dlti_entry *entries = malloc((nbase + npairs + 1) * sizeof(*entries));
    dlti_entry *pairs = malloc((npairs + 1) * sizeof(*pairs));
    const dlti_attr *result = NULL;
    if (!entries || !pairs) {
        nomem(f);
        goto out;
    }
    for (size_t i = 0; i < nbase; i++) {
        entries[i].key = dlti_attr_entry_key(base, i);
        entries[i].value = dlti_attr_entry_value(base, i);
    }
    size_t n = nbase;
    if (read_keys(f, node, device_level ? SD_LEVEL_DEVICE : SD_LEVEL_MAP, pairs) < 0)
        goto out;
    for (size_t i = 0; i < npairs; i++) {
        const sd_node *v = node->u.items[2 * i + 1];
        if (device_level && v == base_node && sd_is_plain_word(node->u.items[2 * i], "base"))
            continue;
        size_t at = SIZE_MAX;
        for (size_t j = 0; j < nbase; j++)
            if (entries[j].key == pairs[i].key) {
                at = j;
                break;
            }
        bool null;
        const dlti_attr *value = build_value(f, v, at != SIZE_MAX ? entries[at].value : NULL, &null);
        if (null) {
            /* null removes an inherited key; without one it adds nothing. */
            if (at != SIZE_MAX)
                entries[at].value = NULL;
            continue;
        }
        if (!value)
            goto out;
        if (at != SIZE_MAX) {
            entries[at].value = value;
        } else {
            entries[n].key = pairs[i].key;
            entries[n].value = value;
            n++;
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (entries[i].value)
            entries[kept++] = entries[i];
    /* A #dlti.dl_spec below the module is read as MLIR's parser reads it
     * there: a module's layout rules are checked on data_layout: alone
     * (load_data_layout); the container that holds this one checks depth. */
    if (kind == DLTI_ATTR_DL_SPEC)
        result = dlti_container_build_entries(ctx, kind, entries, kept, f->L->err, NULL);
    else
        result = dlti_container_new(ctx, kind, entries, kept, f->L->err);
    if (!result)
        dlti_error_place(f->L->err, f->source, node->line, node->column);
out:
    free(entries);
    free(pairs);
    return result;
}

/* ---- bases ---- */

static bool yaml_name(const char *s)
{
    size_t len = strlen(s);
    return (len > 5 && strcmp(s + len - 5, ".yaml") == 0) ||
           (len > 4 && strcmp(s + len - 4, ".yml") == 0);
}

static bool looks_like_path(const char *s)
{
    return s[0] == '/' || strncmp(s, "./", 2) == 0 || strncmp(s, "../", 3) == 0 || yaml_name(s);
}

/* What `base:` may name (docs/yaml.md, "Reuse"): a catalog name, or a YAML
 * description, a regular file whose name ends in .yaml or .yml, and so does
 * the file it is once links are followed.  Anything else (/etc/shadow, a
 * FIFO, /proc/kmsg) is refused before it is opened, so that no byte of a file
 * that is not a description is read, let alone shown in an error. */
static bool base_refused(file *f, const sd_node *n, const char *path)
{
    if (yaml_name(path))
        return false;
    dlti_error_set_at(f->L->err, DLTI_ERROR_VERIFY, f->source, n->line, n->column,
                      "base '%s': not a YAML description (a base is a catalog name or a file "
                      "whose name ends in .yaml or .yml%s)",
                      n->u.text, strcmp(path, n->u.text) ? ", links followed" : "");
    return true;
}

/* The file a `base:` names: a path relative to the naming file, or what the
 * resolver makes of a name; NULL with the error set. */
static char *base_path(file *f, const sd_node *n)
{
    const char *name = n->u.text;
    if (looks_like_path(name)) {
        if (name[0] == '/') {
            char *p = strdup(name);
            if (!p)
                nomem(f);
            return p;
        }
        const char *slash = strrchr(f->source, '/');
        size_t dir = slash ? (size_t)(slash - f->source) + 1 : 0;
        /* "DIR/" + "./NAME" is "DIR/NAME": without this a chain of `base:
         * ./f.yaml` files names its n-th file "DIR/././.../f.yaml" in errors. */
        while (dir && name[0] == '.' && name[1] == '/') {
            name += 2;
            while (*name == '/')
                name++;
        }
        char *p = malloc(dir + strlen(name) + 1);
        if (!p) {
            nomem(f);
            return NULL;
        }
        memcpy(p, f->source, dir);
        strcpy(p + dir, name);
        return p;
    }
    const sd_resolver *r = f->L->resolver;
    dlti_error_t inner = {0};
    char *p = NULL;
    if (r)
        p = r->find(r->user, name, &inner);
    else
        dlti_error_set(&inner, DLTI_ERROR_NOT_FOUND, "no catalog to look names up in");
    /* a catalog name that is not there: exit 1, as `sysdesc show NAME` */
    if (!p)
        dlti_error_set_at(f->L->err, inner.code, f->source, n->line, n->column, "base '%s': %s",
                          name, inner.text);
    return p;
}

static base_name **named_slot(loader *L, const char *key)
{
    return &L->named[dlti_hash_bytes(key, strlen(key)) % BASE_NAME_SLOTS];
}

static const dlti_attr *named_find(loader *L, const char *key)
{
    for (const base_name *b = *named_slot(L, key); b; b = b->next)
        if (strcmp(b->key, key) == 0)
            return b->device;
    return NULL;
}

/* Remembers what `key` named; a failure to remember costs only speed. */
static void named_add(loader *L, const char *key, const dlti_attr *device)
{
    base_name *b = malloc(sizeof(*b));
    if (!b || !(b->key = strdup(key))) {
        free(b);
        return;
    }
    base_name **slot = named_slot(L, key);
    b->device = device;
    b->next = *slot;
    *slot = b;
}

static const dlti_attr *resolve_base(file *f, const sd_node *n)
{
    loader *L = f->L;
    /* A plain null, boolean or number is YAML's, not a name: `base: ~` and
     * `base: 42` name no catalog entry. */
    static const char *const what[] = {"a string", "null", "a boolean", "an integer", "a float"};
    sd_plain_kind pk = n->kind == SD_SCALAR && n->plain ? sd_plain_classify(n->u.text, n->len)
                                                        : SD_PLAIN_STRING;
    if (n->kind != SD_SCALAR || n->tag || n->len == 0 || pk != SD_PLAIN_STRING) {
        dlti_error_set_at(L->err, DLTI_ERROR_SYNTAX, f->source, n->line, n->column,
                          "base: needs a catalog name or a file path, not %s",
                          n->kind == SD_SCALAR && n->len == 0 ? "an empty string"
                          : n->kind == SD_SCALAR && !n->tag   ? what[pk]
                          : n->kind == SD_SCALAR              ? "a tagged value"
                          : n->kind == SD_SEQUENCE            ? "a list"
                                                              : "a mapping");
        return NULL;
    }
    if (looks_like_path(n->u.text) && base_refused(f, n, n->u.text))
        return NULL;
    /* a catalog name is the same entry wherever it is named */
    const dlti_attr *known = looks_like_path(n->u.text) ? NULL : named_find(L, n->u.text);
    if (known)
        return known;
    char *path = base_path(f, n);
    if (!path)
        return NULL;
    if (looks_like_path(n->u.text) && (known = named_find(L, path)) != NULL) {
        free(path);
        return known;
    }
    char *real = realpath(path, NULL);
    if (!real) {
        /* exit 3 as for a FILE on the command line that is not there */
        dlti_error_set_at(L->err, DLTI_ERROR_IO, f->source, n->line, n->column,
                 "base '%s': no such file %s", n->u.text, path);
        free(path);
        return NULL;
    }
    const dlti_attr *device = NULL;
    if (base_refused(f, n, real))
        goto out;
    for (const chain *c = f->chain; c; c = c->up)
        if (strcmp(c->path, real) == 0) {
            dlti_error_set_at(L->err, DLTI_ERROR_VERIFY, f->source, n->line, n->column,
                     "base '%s' forms a cycle: %s is already being loaded", n->u.text, real);
            goto out;
        }
    for (base_file *b = L->bases; b; b = b->next)
        if (strcmp(b->path, real) == 0) {
            device = b->device;
            goto out;
        }
    if (f->depth + 1 > L->opts.max_base_depth) {
        dlti_error_set_at(L->err, DLTI_ERROR_LIMIT, f->source, n->line, n->column,
                 "base chain longer than the limit of %u files", L->opts.max_base_depth);
        goto out;
    }
    size_t len;
    dlti_error_t why;
    char *text = dlti_read_file(path, L->opts.max_input_bytes, &len, &why);
    if (!text) {
        /* located at the base: that names it, with the file's own reason
         * (and its exit status: 3 for a directory or an unreadable file) */
        dlti_error_set_at(L->err, why.code, f->source, n->line, n->column, "base '%s': %s: %s",
                          n->u.text, path, why.text);
        goto out;
    }
    sd_doc doc;
    chain link = {real, f->chain};
    file sub = {L, path, &link, f->depth + 1};
    sysdesc_system sys;
    if (sd_doc_parse(&doc, text, len, path, &L->opts, L->err) == 0) {
        if (load_system(&sub, doc.root, &sys) == 0) {
            if (dlti_attr_size(sys.spec) != 1) {
                dlti_error_set_at(L->err, DLTI_ERROR_VERIFY, f->source, n->line, n->column,
                         "base '%s' is a system of %zu devices: a base describes one device",
                         n->u.text, dlti_attr_size(sys.spec));
            } else {
                device = dlti_attr_entry_value(sys.spec, 0);
            }
        }
        sd_doc_free(&doc);
    }
    free(text);
    if (device) {
        base_file *b = malloc(sizeof(*b));
        if (!b) {
            device = NULL;
            nomem(f);
            goto out;
        }
        b->path = real;
        real = NULL;
        b->device = device;
        b->next = L->bases;
        L->bases = b;
    }
out:
    if (device)
        named_add(L, looks_like_path(n->u.text) ? path : n->u.text, device);
    free(real);
    free(path);
    return device;
}

/* ---- the system ---- */

static int load_data_layout(file *f, const sd_node *v, sysdesc_system *out)
{
    loader *L = f->L;
    if (v->kind != SD_MAPPING)
        return sd_data_layout_value(L->ctx, &L->types, v, f->source, out, L->err);
    dlti_attr_kind tagged;  /* whatever its known tag, a dl_spec */
    if (sd_map_kind(v, DLTI_ATTR_DL_SPEC, &tagged, f->source, L->err) < 0)
        return -1;
    const dlti_attr *spec = build_map(f, v, DLTI_ATTR_DL_SPEC, NULL, false);
    out->dl_spec = spec ? sd_module_dl_spec(L->ctx, spec, L->err) : NULL;
    if (spec && !out->dl_spec)
        dlti_error_place(L->err, f->source, v->line, v->column);
    return out->dl_spec ? 0 : -1;
}

static int load_system(file *f, const sd_node *root, sysdesc_system *out)
{
    loader *L = f->L;
    memset(out, 0, sizeof(*out));
    if (sd_root_check(root, f->source, L->err) < 0)
        return -1;
    size_t npairs = root->len;
    dlti_entry *devices = malloc((npairs + 1) * sizeof(*devices));
    int rc = -1;
    if (!devices) {
        nomem(f);
        goto out;
    }
    if (read_keys(f, root, SD_LEVEL_SYSTEM, devices) < 0)
        goto out;
    size_t n = 0;
    for (size_t i = 0; i < npairs; i++) {
        const sd_node *k = root->u.items[2 * i], *v = root->u.items[2 * i + 1];
        if (sd_is_plain_word(k, "data_layout")) {
            if (load_data_layout(f, v, out) < 0)
                goto out;
            continue;
        }
        if (sd_device_check(v, k->u.text, f->source, L->err) < 0)
            goto out;
        const dlti_attr *dev = build_map(f, v, DLTI_ATTR_DEVICE_SPEC, NULL, true);
        if (!dev)
            goto out;
        /* n <= i: the devices close up over the keys already read */
        devices[n].key = devices[i].key;
        devices[n].value = dev;
        n++;
    }
    if (n == 0) {
        dlti_error_set_at(L->err, DLTI_ERROR_VERIFY, f->source, root->line, root->column,
                          "a system needs at least one device");
        goto out;
    }
    out->spec = dlti_container_new(L->ctx, DLTI_ATTR_SYSTEM_SPEC, devices, n, L->err);
    if (!out->spec) {
        dlti_error_place(L->err, f->source, root->line, root->column);
        goto out;
    }
    rc = 0;
out:
    free(devices);
    return rc;
}

void sd_yaml_options_fill(sysdesc_yaml_options *opts, const sysdesc_yaml_options *given)
{
    static const sysdesc_yaml_options none;
    *opts = given ? *given : none;
    if (!opts->max_depth)
        opts->max_depth = SYSDESC_YAML_DEFAULT_MAX_DEPTH;
    if (!opts->max_alias_nodes)
        opts->max_alias_nodes = SYSDESC_YAML_DEFAULT_MAX_ALIAS_NODES;
    if (!opts->max_input_bytes)
        opts->max_input_bytes = SYSDESC_YAML_DEFAULT_MAX_INPUT_BYTES;
    if (!opts->max_base_depth)
        opts->max_base_depth = SYSDESC_YAML_DEFAULT_MAX_BASE_DEPTH;
}

static void loader_init(loader *L, dlti_context *ctx, const sysdesc_yaml_options *opts,
                        const sd_resolver *resolver, dlti_error_t *err)
{
    memset(L, 0, sizeof(*L));
    L->ctx = ctx;
    L->resolver = resolver;
    L->err = err;
    sd_yaml_options_fill(&L->opts, opts);
}

static void loader_free(loader *L)
{
    free(L->keys.slots);
    for (size_t i = 0; i < BASE_NAME_SLOTS; i++)
        while (L->named[i]) {
            base_name *next = L->named[i]->next;
            free(L->named[i]->key);
            free(L->named[i]);
            L->named[i] = next;
        }
    while (L->bases) {
        base_file *next = L->bases->next;
        free(L->bases->path);
        free(L->bases);
        L->bases = next;
    }
}

bool sd_yaml_force_tree = false;

static int load_within_budget(dlti_context *ctx, const char *text, size_t len,
                              const char *source, const sysdesc_yaml_options *opts,
                              const sd_resolver *resolver, sysdesc_system *out, dlti_error_t *err);

int sd_yaml_load(dlti_context *ctx, const char *text, size_t len, const char *source,
                 const sysdesc_yaml_options *opts, const sd_resolver *resolver,
                 sysdesc_system *out, dlti_error_t *err)
{
    if (err)
        err->code = DLTI_OK;
    if (!ctx || (!text && len) || !out) {
        dlti_error_set_at(err, DLTI_ERROR_ARGUMENT, source, 0, 0,
                          "sysdesc_yaml_load: NULL argument");
        return -1;
    }
    if (!source)
        source = "<input>";
    dlti_input_budget_saved saved = dlti_input_budget(ctx, len);
    int rc = load_within_budget(ctx, text, len, source, opts, resolver, out, err);
    dlti_input_budget_end(ctx, saved);
    return rc;
}

static int load_within_budget(dlti_context *ctx, const char *text, size_t len,
                              const char *source, const sysdesc_yaml_options *opts,
                              const sd_resolver *resolver, sysdesc_system *out, dlti_error_t *err)
{
    loader L;
    loader_init(&L, ctx, opts, resolver, err);
    /* Most files need no tree: the fast path builds them from the parser's
     * events.  Anything else (aliases, `base:`, any error) falls back to the
     * tree below, which is the reference for results and errors. */
    if (!sd_yaml_force_tree &&
        sd_stream_load(ctx, text ? text : "", len, source, &L.opts, out) == 0) {
        loader_free(&L);
        return 0;
    }
    /* The file itself joins the chain so that a base naming it is a cycle. */
    char *real = strcmp(source, "-") && strcmp(source, "<input>") ? realpath(source, NULL) : NULL;
    chain self = {real, NULL};
    file f = {&L, source, real ? &self : NULL, 0};
    sd_doc doc;
    sysdesc_system sys;
    int rc = sd_doc_parse(&doc, text ? text : "", len, source, &L.opts, err);
    if (rc == 0) {
        rc = load_system(&f, doc.root, &sys);
        sd_doc_free(&doc);
    }
    if (rc == 0)
        *out = sys;
    free(real);
    loader_free(&L);
    return rc;
}

char *sd_read_input(const char *path, const sysdesc_yaml_options *opts, size_t *len,
                    dlti_error_t *err)
{
    sysdesc_yaml_options filled;
    sd_yaml_options_fill(&filled, opts);
    return dlti_read_file(path, filled.max_input_bytes, len, err);
}

int sd_yaml_load_file(dlti_context *ctx, const char *path, const sysdesc_yaml_options *opts,
                      const sd_resolver *resolver, sysdesc_system *out, dlti_error_t *err)
{
    size_t len;
    char *text = sd_read_input(path, opts, &len, err);
    if (!text)
        return -1;
    int rc = sd_yaml_load(ctx, text, len, path, opts, resolver, out, err);
    free(text);
    return rc;
}
