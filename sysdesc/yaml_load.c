/* Loading YAML: the options' defaults, the files a load reads and the
 * `base:` devices they name (the builder is yaml_stream.c).
 *
 * The result is handed out only when the whole file (and every base it
 * names) converted, so a bad file never yields a partial spec.
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

struct sd_bases {
    base_file *files;          /* files loaded as bases, by path, loaded once */
    base_name *named[BASE_NAME_SLOTS]; /* and by what named them */
    /* The file loaded, last of every chain: a base naming it is a cycle.
     * Its realpath is looked up when a base file is first read. */
    const char *top;
    char *top_real;
    bool top_looked_up;
};

/* Whether `real` is a file being loaded. */
static bool in_chain(const sd_file *f, const char *real)
{
    for (const sd_chain *c = f->chain; c; c = c->up)
        if (strcmp(c->path, real) == 0)
            return true;
    struct sd_bases *b = f->L->bases;
    if (!b->top_looked_up) {
        b->top_looked_up = true;
        if (strcmp(b->top, "-") && strcmp(b->top, "<input>"))
            b->top_real = realpath(b->top, NULL);
    }
    return b->top_real && strcmp(b->top_real, real) == 0;
}

typedef sd_file file;

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
static bool base_refused(const file *f, const sd_node *n, const char *path, dlti_error_t *err)
{
    if (yaml_name(path))
        return false;
    bs_error_set_at(err, DLTI_ERROR_VERIFY, f->source, n->line, n->column,
                    "base '%s': not a YAML description (a base is a catalog name or a file "
                    "whose name ends in .yaml or .yml%s)",
                    n->u.text, strcmp(path, n->u.text) ? ", links followed" : "");
    return true;
}

/* The file a `base:` names: a path relative to the naming file, or what the
 * resolver makes of a name; NULL with the error set. */
static char *base_path(const file *f, const sd_node *n, dlti_error_t *err)
{
    const char *name = n->u.text;
    if (looks_like_path(name)) {
        if (name[0] == '/') {
            char *p = strdup(name);
            if (!p)
                sd_nomem(NULL, err, f->source);
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
            sd_nomem(NULL, err, f->source);
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
        bs_error_set(&inner, DLTI_ERROR_NOT_FOUND, "no catalog to look names up in");
    /* a catalog name that is not there: exit 1, as `sysdesc show NAME` */
    if (!p)
        bs_error_set_at(err, inner.code, f->source, n->line, n->column, "base '%s': %s",
                        name, inner.text);
    return p;
}

static base_name **named_slot(sd_loader *L, const char *key)
{
    return &L->bases->named[bs_hash_bytes(key, strlen(key)) % BASE_NAME_SLOTS];
}

static const dlti_attr *named_find(sd_loader *L, const char *key)
{
    for (const base_name *b = *named_slot(L, key); b; b = b->next)
        if (strcmp(b->key, key) == 0)
            return b->device;
    return NULL;
}

/* Remembers what `key` named; a failure to remember costs only speed. */
static void named_add(sd_loader *L, const char *key, const dlti_attr *device)
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

const dlti_attr *sd_base_resolve(const sd_file *f, const sd_node *n, dlti_error_t *err)
{
    sd_loader *L = f->L;
    /* A plain null, boolean or number is YAML's, not a name: `base: ~` and
     * `base: 42` name no catalog entry. */
    static const char *const what[] = {"a string", "null", "a boolean", "an integer", "a float"};
    sd_plain_kind pk = n->kind == SD_SCALAR && n->plain ? sd_plain_classify(n->u.text, n->len)
                                                        : SD_PLAIN_STRING;
    if (n->kind != SD_SCALAR || n->tag || n->len == 0 || pk != SD_PLAIN_STRING) {
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, f->source, n->line, n->column,
                        "base: needs a catalog name or a file path, not %s",
                        n->kind == SD_SCALAR && n->len == 0 ? "an empty string"
                        : n->kind == SD_SCALAR && !n->tag   ? what[pk]
                        : n->kind == SD_SCALAR              ? "a tagged value"
                        : n->kind == SD_SEQUENCE            ? "a list"
                                                              : "a mapping");
        return NULL;
    }
    if (looks_like_path(n->u.text) && base_refused(f, n, n->u.text, err))
        return NULL;
    /* a catalog name is the same entry wherever it is named */
    const dlti_attr *known = looks_like_path(n->u.text) ? NULL : named_find(L, n->u.text);
    if (known)
        return known;
    char *path = base_path(f, n, err);
    if (!path)
        return NULL;
    if (looks_like_path(n->u.text) && (known = named_find(L, path)) != NULL) {
        free(path);
        return known;
    }
    char *real = realpath(path, NULL);
    if (!real) {
        /* exit 3 as for a FILE on the command line that is not there */
        bs_error_set_at(err, DLTI_ERROR_IO, f->source, n->line, n->column,
                 "base '%s': no such file %s", n->u.text, path);
        free(path);
        return NULL;
    }
    const dlti_attr *device = NULL;
    if (base_refused(f, n, real, err))
        goto out;
    if (in_chain(f, real)) {
        bs_error_set_at(err, DLTI_ERROR_VERIFY, f->source, n->line, n->column,
                        "base '%s' forms a cycle: %s is already being loaded", n->u.text, real);
        goto out;
    }
    for (base_file *b = L->bases->files; b; b = b->next)
        if (strcmp(b->path, real) == 0) {
            device = b->device;
            goto out;
        }
    if (f->depth + 1 > L->opts.max_base_depth) {
        bs_error_set_at(err, DLTI_ERROR_LIMIT, f->source, n->line, n->column,
                 "base chain longer than the limit of %u files", L->opts.max_base_depth);
        goto out;
    }
    size_t len;
    dlti_error_t why;
    char *text = bs_read_file(path, L->opts.max_input_bytes, &len, &why);
    if (!text) {
        /* located at the base: that names it, with the file's own reason
         * (and its exit status: 3 for a directory or an unreadable file) */
        bs_error_set_at(err, why.code, f->source, n->line, n->column, "base '%s': %s: %s",
                        n->u.text, path, why.text);
        goto out;
    }
    sd_chain link = {real, f->chain};
    file sub = {L, path, &link, f->depth + 1};
    sysdesc_system sys;
    if (sd_yaml_build(&sub, text, len, &sys, err) == 0) {
        if (dlti_attr_size(sys.spec) != 1) {
            bs_error_set_at(err, DLTI_ERROR_VERIFY, f->source, n->line, n->column,
                     "base '%s' is a system of %zu devices: a base describes one device",
                     n->u.text, dlti_attr_size(sys.spec));
        } else {
            device = dlti_attr_entry_value(sys.spec, 0);
        }
    }
    free(text);
    if (device) {
        base_file *b = malloc(sizeof(*b));
        if (!b) {
            device = NULL;
            sd_nomem(NULL, err, f->source);
            goto out;
        }
        b->path = real;
        real = NULL;
        b->device = device;
        b->next = L->bases->files;
        L->bases->files = b;
    }
out:
    if (device)
        named_add(L, looks_like_path(n->u.text) ? path : n->u.text, device);
    free(real);
    free(path);
    return device;
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

static void loader_free(sd_loader *L)
{
    free(L->keys.slots);
    for (size_t i = 0; i < BASE_NAME_SLOTS; i++)
        while (L->bases->named[i]) {
            base_name *next = L->bases->named[i]->next;
            free(L->bases->named[i]->key);
            free(L->bases->named[i]);
            L->bases->named[i] = next;
        }
    while (L->bases->files) {
        base_file *next = L->bases->files->next;
        free(L->bases->files->path);
        free(L->bases->files);
        L->bases->files = next;
    }
    free(L->bases->top_real);
}

int sd_yaml_load(dlti_context *ctx, const char *text, size_t len, const char *source,
                 const sysdesc_yaml_options *opts, const sd_resolver *resolver,
                 sysdesc_system *out, dlti_error_t *err)
{
    if (err)
        err->code = DLTI_OK;
    if (!ctx || (!text && len) || !out) {
        bs_error_set_at(err, DLTI_ERROR_ARGUMENT, source, 0, 0,
                        "sysdesc_yaml_load: NULL argument");
        return -1;
    }
    if (!source)
        source = "<input>";
    struct sd_bases bases = {.top = source};
    sd_loader L = {.ctx = ctx, .resolver = resolver, .bases = &bases};
    sd_yaml_options_fill(&L.opts, opts);
    file f = {&L, source, NULL, 0};
    dlti_input_budget_saved saved = dlti_input_budget(ctx, len);
    sysdesc_system sys;
    int rc = sd_yaml_build(&f, text ? text : "", len, &sys, err);
    dlti_input_budget_end(ctx, saved);
    if (rc == 0)
        *out = sys;
    loader_free(&L);
    return rc;
}

char *sd_read_input(const char *path, const sysdesc_yaml_options *opts, size_t *len,
                    dlti_error_t *err)
{
    sysdesc_yaml_options filled;
    sd_yaml_options_fill(&filled, opts);
    return bs_read_file(path, filled.max_input_bytes, len, err);
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
