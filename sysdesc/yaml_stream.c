/* The fast path of sysdesc_yaml_load(): attributes straight from libyaml
 * events (yaml_events.c), without a document tree.
 *
 * It covers what nearly every file is: a system of devices whose values are
 * scalars, mappings and sequences.  Whatever needs the tree or could end in
 * an error -- an alias, a `base:` merge, a `<<` key, any tag or value the
 * builder rejects, a duplicate key, and what the event loop rejects for both
 * paths (YAML syntax, the limits, a second document) -- makes it give up
 * (SD_STREAM_FALLBACK) with nothing handed out, and the caller loads the
 * text again through the tree (yaml_tree.c, yaml_load.c), which is the
 * reference for every result and every error.  So the errors (their text,
 * position and precedence: syntax and limits over meaning, keys before
 * values) are those of the tree path by construction, and on success this
 * file must build exactly what load_system() builds from the tree;
 * tests/test_yaml.c checks both paths against each other.  Attributes built
 * before a fallback stay in the context, unreferenced, as after any failed
 * load (sysdesc/load.h). */
#include "sysdesc_private.h"

#include <stdlib.h>
#include <string.h>

enum role {
    R_SYSTEM,   /* the root mapping: device id -> device */
    R_DEVICE,   /* a device: no `base:`, no type keys */
    R_MAP,      /* a nested mapping (or the data_layout mapping) of `kind` */
    R_SEQ       /* a sequence: an array */
};

typedef struct sframe {
    uint8_t role;
    bool want_key;          /* mappings: the next node is a key */
    bool dl_key;            /* system: the pending key is `data_layout` */
    dlti_attr_kind kind;    /* mappings: the container kind */
    size_t start;           /* first entry (mappings) or element (sequences) */
} sframe;

typedef struct stream {
    dlti_context *ctx;
    const char *source;
    dlti_error_t scratch;   /* errors of the fast path are never reported */
    sd_types types;
    sframe *frames;
    size_t nframes, frames_cap;
    dlti_entry *entries;    /* open mappings' pairs; value NULL: a null or data_layout */
    size_t nentries, entries_cap;
    const dlti_attr **elems;
    size_t nelems, elems_cap;
    dlti_key *seen;         /* duplicate check of big mappings, reused */
    size_t seen_cap;
    sysdesc_system out;
    bool root_done;
} stream;

/* Returned by the event handlers: give up, let the tree path decide. */
#define FALLBACK (-1)

static bool is_plain_word(const sd_node *n, const char *word)
{
    return n->plain && !n->tag && strcmp(n->u.text, word) == 0;
}

static bool tag_is(const char *tag, const char *want)
{
    return tag && strcmp(tag, want) == 0;
}

/* True when the keys of the open mapping (from `start`) repeat. */
static bool has_duplicates(stream *s, size_t start)
{
    size_t n = s->nentries - start;
    if (n < 2)
        return false; /* also: no entries array yet to point into */
    const dlti_entry *e = s->entries + start;
    if (n <= 16) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0; j < i; j++)
                if (e[i].key == e[j].key)
                    return true;
        return false;
    }
    size_t cap = 32;
    while (cap < n * 2)
        cap *= 2;
    if (cap > s->seen_cap) {
        free(s->seen);
        s->seen = malloc(cap * sizeof(*s->seen));
        s->seen_cap = s->seen ? cap : 0;
        if (!s->seen)
            return true;   /* out of memory: the tree path reports it */
    }
    memset(s->seen, 0, cap * sizeof(*s->seen));
    for (size_t i = 0; i < n; i++) {
        uintptr_t h = (uintptr_t)e[i].key;
        h ^= h >> 17;
        h *= (uintptr_t)0x9E3779B97F4A7C15ull;
        size_t j = (h >> 20) & (cap - 1);
        while (s->seen[j] && s->seen[j] != e[i].key)
            j = (j + 1) & (cap - 1);
        if (s->seen[j])
            return true;
        s->seen[j] = e[i].key;
    }
    return false;
}

/* Hands a finished value to the collection around it. */
static int deliver(stream *s, const dlti_attr *value)
{
    sframe *p = &s->frames[s->nframes - 1];
    if (p->role == R_SEQ) {
        if (!value)
            return FALLBACK;   /* null in a sequence */
        if (dlti_grow((void **)&s->elems, &s->elems_cap, s->nelems + 1, sizeof(*s->elems)))
            return FALLBACK;
        s->elems[s->nelems++] = value;
        return 0;
    }
    if (p->role == R_SYSTEM && p->dl_key) {
        p->dl_key = false;     /* its entry keeps value NULL: not a device */
    } else {
        s->entries[s->nentries - 1].value = value;
    }
    p->want_key = true;
    return 0;
}

static int on_key(stream *s, sframe *p, const sd_node *k)
{
    dlti_context *ctx = s->ctx;
    dlti_key key = NULL;
    if (p->role == R_SYSTEM) {
        if (k->tag && !tag_is(k->tag, SD_TAG_STR))
            return FALLBACK;
        p->dl_key = is_plain_word(k, "data_layout");
    } else {
        if (is_plain_word(k, "<<"))
            return FALLBACK;
        if (p->role == R_DEVICE && is_plain_word(k, "base"))
            return FALLBACK;   /* a merge: the tree path does it */
        if (tag_is(k->tag, "!type")) {
            if (p->role == R_DEVICE)
                return FALLBACK;
            const dlti_type *t = sd_type_parse(ctx, &s->types, k->u.text, k->len, &s->scratch);
            if (!t)
                return FALLBACK;
            key = dlti_key_type(ctx, t);
            if (!key)
                return FALLBACK;
        } else if (k->tag && !tag_is(k->tag, SD_TAG_STR)) {
            return FALLBACK;
        }
    }
    if (!key) {
        if (k->len == 0 || sd_string_check(ctx, k, s->source, &s->scratch) < 0)
            return FALLBACK;
        key = dlti_key_string(ctx, k->u.text, k->len);
        if (!key)
            return FALLBACK;
    }
    if (dlti_grow((void **)&s->entries, &s->entries_cap, s->nentries + 1, sizeof(*s->entries)))
        return FALLBACK;
    s->entries[s->nentries].key = key;
    s->entries[s->nentries].value = NULL;
    s->nentries++;
    p->want_key = false;
    return 0;
}

/* `data_layout:` written as a scalar (yaml_load.c load_data_layout). */
static int data_layout_scalar(stream *s, const sd_node *v)
{
    dlti_context *ctx = s->ctx;
    if (tag_is(v->tag, "!mlir")) {
        bool null;
        const dlti_attr *a = sd_scalar_attr(ctx, &s->types, v, s->source, &null, &s->scratch);
        if (!a || dlti_attr_get_kind(a) != DLTI_ATTR_DL_SPEC)
            return FALLBACK;
        s->out.dl_spec = a;
        return 0;
    }
    if ((v->tag && !tag_is(v->tag, SD_TAG_STR)) || v->len == 0)
        return FALLBACK;
    const dlti_attr *str = dlti_string_new(ctx, v->u.text, v->len);
    if (!str)
        return FALLBACK;
    dlti_attr_get_string(str, &s->out.data_layout, NULL, NULL);
    if (sd_import_data_layout(ctx, v->u.text, &s->out.dl_spec, &s->scratch) < 0)
        return FALLBACK;
    return 0;
}

static int on_scalar(stream *s, const sd_node *n)
{
    if (s->nframes == 0)
        return FALLBACK;       /* a scalar as the whole document */
    sframe *p = &s->frames[s->nframes - 1];
    if (p->role != R_SEQ && p->want_key)
        return on_key(s, p, n);
    if (p->role == R_SYSTEM) {
        if (!p->dl_key)
            return FALLBACK;   /* a device must be a mapping */
        if (data_layout_scalar(s, n) < 0)
            return FALLBACK;
        return deliver(s, NULL);
    }
    bool null;
    const dlti_attr *a = sd_scalar_attr(s->ctx, &s->types, n, s->source, &null, &s->scratch);
    if (!a && !null)
        return FALLBACK;
    return deliver(s, a);
}

static int on_start(stream *s, const sd_node *n)
{
    bool mapping = n->kind == SD_MAPPING;
    const char *tag = n->tag;
    sframe f = {.want_key = true, .kind = DLTI_ATTR_MAP};
    if (s->nframes == 0) {
        if (!mapping || (tag && !tag_is(tag, SD_TAG_MAP)))
            return FALLBACK;
        f.role = R_SYSTEM;
        f.kind = DLTI_ATTR_SYSTEM_SPEC;
    } else {
        sframe *p = &s->frames[s->nframes - 1];
        if (p->role != R_SEQ && p->want_key)
            return FALLBACK;   /* a collection as a key */
        if (!mapping) {
            if (p->role == R_SYSTEM || (tag && !tag_is(tag, SD_TAG_SEQ)))
                return FALLBACK;
            f.role = R_SEQ;
        } else if (p->role == R_SYSTEM && !p->dl_key) {
            if (tag && !tag_is(tag, SD_TAG_MAP))
                return FALLBACK;
            f.role = R_DEVICE;
            f.kind = DLTI_ATTR_DEVICE_SPEC;
        } else {
            /* map_kind(): a data_layout mapping is a dl_spec whatever its
             * known tag; any other mapping a map unless tagged !dl_spec. */
            f.role = R_MAP;
            if (!tag || tag_is(tag, SD_TAG_MAP) || tag_is(tag, "!map"))
                f.kind = DLTI_ATTR_MAP;
            else if (tag_is(tag, "!dl_spec"))
                f.kind = DLTI_ATTR_DL_SPEC;
            else
                return FALLBACK;
            if (p->role == R_SYSTEM)
                f.kind = DLTI_ATTR_DL_SPEC;
        }
    }
    f.start = f.role == R_SEQ ? s->nelems : s->nentries;
    if (dlti_grow((void **)&s->frames, &s->frames_cap, s->nframes + 1, sizeof(*s->frames)))
        return FALLBACK;
    s->frames[s->nframes++] = f;
    return 0;
}

static int on_end(void *user)
{
    stream *s = user;
    sframe f = s->frames[--s->nframes];
    const dlti_attr *a;
    if (f.role == R_SEQ) {
        /* an empty sequence may come before any element: no array yet */
        a = dlti_array_new(s->ctx, s->elems ? s->elems + f.start : NULL, s->nelems - f.start);
        s->nelems = f.start;
    } else {
        if (has_duplicates(s, f.start))
            return FALLBACK;
        size_t kept = f.start;
        for (size_t i = f.start; i < s->nentries; i++)
            if (s->entries[i].value)
                s->entries[kept++] = s->entries[i];
        if (f.role == R_SYSTEM && kept == f.start)
            return FALLBACK;   /* no device */
        a = dlti_container_new(s->ctx, f.kind, s->entries ? s->entries + f.start : NULL,
                               kept - f.start, &s->scratch);
        s->nentries = f.start;
    }
    if (!a)
        return FALLBACK;
    if (s->nframes == 0) {
        s->out.spec = a;
        s->root_done = true;
        return 0;
    }
    sframe *p = &s->frames[s->nframes - 1];
    if (p->role == R_SYSTEM && p->dl_key) {
        s->out.dl_spec = a;
        return deliver(s, NULL);
    }
    return deliver(s, a);
}

static int on_node(void *user, const sd_node *n, const char *anchor)
{
    (void)anchor;   /* without aliases an anchor changes nothing */
    return n->kind == SD_SCALAR ? on_scalar(user, n) : on_start(user, n);
}

static int on_alias(void *user, const char *anchor, int line, int column)
{
    (void)user, (void)anchor, (void)line, (void)column;
    return FALLBACK;           /* the tree shares the anchored node */
}

int sd_stream_load(dlti_context *ctx, const char *text, size_t len, const char *source,
                   const sysdesc_yaml_options *opts, sysdesc_system *out)
{
    static const sd_event_sink sink = {on_node, on_end, on_alias};
    stream s = {.ctx = ctx, .source = source};
    int rc = sd_events_parse(text, len, source, opts, &sink, &s, &s.scratch);
    free(s.frames);
    free(s.entries);
    free(s.elems);
    free(s.seen);
    if (rc < 0 || !s.root_done)
        return SD_STREAM_FALLBACK;
    *out = s.out;
    return 0;
}
