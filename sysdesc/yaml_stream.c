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
 * tests/sysdesc/test_yaml.c checks both paths against each other.  Attributes built
 * before a fallback stay in the context, unreferenced, as after any failed
 * load (sysdesc/load.h). */
#include "sysdesc_private.h"

#include <stdlib.h>
#include <string.h>

/* A mapping's role is the level its keys are checked at (yaml_rules.c). */
enum role {
    R_SYSTEM = SD_LEVEL_SYSTEM, /* the root mapping: device id -> device */
    R_DEVICE = SD_LEVEL_DEVICE, /* a device: no `base:` (the tree merges it) */
    R_MAP = SD_LEVEL_MAP,       /* a nested mapping (or the data_layout mapping) of `kind` */
    R_SEQ                       /* a sequence: an array */
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
    sd_key_set keys;        /* duplicate checks of big mappings */
    sysdesc_system out;
    bool root_done;
} stream;

/* Returned by the event handlers: give up, let the tree path decide. */
#define FALLBACK (-1)

/* Hands a finished value to the collection around it. */
static int deliver(stream *s, const dlti_attr *value)
{
    sframe *p = &s->frames[s->nframes - 1];
    if (p->role == R_SEQ) {
        if (!value)
            return FALLBACK;   /* null in a sequence */
        if (s->nelems == s->elems_cap &&
            dlti_grow((void **)&s->elems, &s->elems_cap, s->nelems + 1, sizeof(*s->elems)))
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
    if (p->role == R_DEVICE && sd_is_plain_word(k, "base"))
        return FALLBACK;       /* a merge: the tree path does it */
    dlti_key key = sd_key(s->ctx, &s->types, k, (sd_level)p->role, s->source, &s->scratch);
    if (!key)
        return FALLBACK;
    if (p->role == R_SYSTEM)
        p->dl_key = sd_is_plain_word(k, "data_layout");
    if (s->nentries == s->entries_cap &&
        dlti_grow((void **)&s->entries, &s->entries_cap, s->nentries + 1, sizeof(*s->entries)))
        return FALLBACK;
    s->entries[s->nentries].key = key;
    s->entries[s->nentries].value = NULL;
    s->nentries++;
    p->want_key = false;
    return 0;
}

/* The id of the device whose value comes next, for sd_device_check(). */
static const char *pending_id(const stream *s)
{
    return dlti_key_str(s->entries[s->nentries - 1].key, NULL);
}

static int on_scalar(stream *s, const sd_node *n)
{
    if (s->nframes == 0) {
        sd_root_check(n, s->source, &s->scratch);
        return FALLBACK;       /* a scalar as the whole document */
    }
    sframe *p = &s->frames[s->nframes - 1];
    if (p->role != R_SEQ && p->want_key)
        return on_key(s, p, n);
    if (p->role == R_SYSTEM) {
        if (!p->dl_key) {
            sd_device_check(n, pending_id(s), s->source, &s->scratch);
            return FALLBACK;   /* a device must be a mapping */
        }
        if (sd_data_layout_value(s->ctx, &s->types, n, s->source, &s->out, &s->scratch) < 0)
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
    sframe f = {.want_key = true, .kind = DLTI_ATTR_MAP};
    if (s->nframes == 0) {
        if (sd_root_check(n, s->source, &s->scratch) < 0)
            return FALLBACK;
        f.role = R_SYSTEM;
        f.kind = DLTI_ATTR_SYSTEM_SPEC;
    } else {
        sframe *p = &s->frames[s->nframes - 1];
        if (p->role != R_SEQ && p->want_key)
            return FALLBACK;   /* a collection as a key */
        if (p->role == R_SYSTEM && !p->dl_key) {
            if (sd_device_check(n, pending_id(s), s->source, &s->scratch) < 0)
                return FALLBACK;
            f.role = R_DEVICE;
            f.kind = DLTI_ATTR_DEVICE_SPEC;
        } else if (n->kind == SD_SEQUENCE) {
            if (p->role == R_SYSTEM)
                return FALLBACK; /* data_layout: a sequence */
            if (sd_seq_check(n, s->source, &s->scratch) < 0)
                return FALLBACK; /* a dense array (!array:T) too: the tree builds it */
            f.role = R_SEQ;
        } else {
            f.role = R_MAP;
            if (sd_map_kind(n, DLTI_ATTR_MAP, &f.kind, s->source, &s->scratch) < 0)
                return FALLBACK;
            if (p->role == R_SYSTEM)
                f.kind = DLTI_ATTR_DL_SPEC; /* data_layout: whatever its known tag */
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
        /* A repeated key fails dlti_container_new() below (the core rejects
         * it): only pairs about to be dropped (a null value, data_layout)
         * need looking at first. */
        size_t n = s->nentries - f.start, dup, first, kept = s->nentries;
        for (size_t i = f.start; i < s->nentries; i++) {
            if (!s->entries[i].value) {
                kept = i;
                break;
            }
        }
        if (kept < s->nentries) {
            if (n > 1 && sd_key_repeat(s->entries + f.start, n, &s->keys, &dup, &first) != 0)
                return FALLBACK;
            for (size_t i = kept; i < s->nentries; i++)
                if (s->entries[i].value)
                    s->entries[kept++] = s->entries[i];
        }
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
    free(s.keys.slots);
    if (rc < 0 || !s.root_done)
        return SD_STREAM_FALLBACK;
    *out = s.out;
    return 0;
}
