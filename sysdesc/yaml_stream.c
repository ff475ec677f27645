/* The YAML loader's one builder: libyaml's events (yaml_events.c) straight
 * to DLTI attributes, `base:` merged in place, no document tree.
 *
 * A device whose first key is `base:` starts as a copy of the base device
 * (yaml_load.c resolves it) and its own keys are merged over it as they come:
 * an untagged mapping over an inherited mapping of the same kind merges into
 * it, key by key, at any depth; null removes a key (docs/yaml.md, "Reuse").
 * The two things that need nodes again are kept as a small tree (yaml_tree.c):
 * anchored nodes, which an alias replays through the same handlers, and dense
 * arrays (`!array:T`), read whole.  A `base:` after other keys of its device
 * (rare: the catalog writes it first) restarts the load from the whole tree,
 * replayed: each device is then known whole and its base resolved first.
 *
 * Errors come in the order docs/yaml.md gives, as if the file were read
 * whole first: YAML syntax and limits (the event loop, aliases) over meaning;
 * within a mapping, its base first, then its keys (the first bad key, then
 * the first repeated one), then its values in order.  The first error found
 * is kept and the parse goes on without building, checking only the keys
 * that could still come first: those of the mappings that hold it. */
#include "sysdesc_private.h"

#include <stdlib.h>
#include <string.h>

/* A collection's role; a mapping's is the level its keys are checked at. */
enum role {
    R_SYSTEM = SD_LEVEL_SYSTEM, /* the root mapping: device id -> device */
    R_DEVICE = SD_LEVEL_DEVICE,
    R_MAP = SD_LEVEL_MAP,       /* a nested mapping (or the data_layout mapping) */
    R_SEQ,                      /* a sequence: an array */
    R_DENSE,                    /* a dense array: the tree reads it whole */
    R_SKIP                      /* content that builds nothing */
};

/* What the value after a mapping key is. */
enum pending { V_PLAIN, V_DATA_LAYOUT, V_BASE, V_SKIP };

/* Where an error stands in its mapping, before its values. */
enum phase { PH_NONE, PH_BASE, PH_KEY, PH_DUP };

/* Entry flags: a null value, an entry that is no key of the result. */
#define E_NULL 1u
#define E_DROP 2u
#define NO_MATCH SIZE_MAX

typedef struct sframe {
    uint8_t role, pending;
    bool want_key;          /* mappings: the next node is a key */
    bool bases_done;        /* devices: base resolved at the start (known whole) */
    bool module_layout;     /* the data_layout mapping: a module's rules apply */
    bool dropped;           /* an entry that is no key of the result */
    dlti_attr_kind kind;    /* mappings: the container kind */
    int line, column;
    size_t start;           /* first entry (mappings) or element (sequences) */
    size_t nbase;           /* entries inherited from the base, before its own */
    const dlti_attr *base;  /* what they were inherited from */
    size_t next_at;         /* where the next own key is looked for among them */
} sframe;

/* What an entry's key was, for its errors and the merge. */
typedef struct emeta {
    int line, column;
    unsigned flags;
    const char *text;       /* a type key's text as written; NULL: the key's string */
    size_t at;              /* the inherited entry it overrides, or NO_MATCH */
} emeta;

struct walk {
    const sd_node *node;
    size_t next;            /* the child to replay next */
};

typedef struct stream {
    const sd_file *f;
    dlti_context *ctx;
    sd_types *types;
    const char *source;
    sframe *frames;
    size_t nframes, frames_cap;
    dlti_entry *entries;    /* open mappings' entries: inherited, then own */
    emeta *meta;
    size_t nentries, entries_cap, meta_cap;
    const dlti_attr **elems;
    size_t nelems, elems_cap;
    struct walk *walk;      /* replay's stack */
    size_t walk_cap;
    sd_tree kept;           /* anchored nodes and dense arrays */
    sd_value_memo memo;     /* the last device's keys and values, by place */
    bs_arena texts;       /* type keys' text */
    dlti_error_t *err;      /* syntax, limits, memory: the parse stops */
    dlti_error_t scratch;   /* what a rule reports, before it is weighed */
    dlti_error_t first;     /* the error that comes first so far */
    bool failed;
    size_t fail_depth;      /* the first error is in the values of frames below this */
    uint8_t fail_phase;     /* or in frame fail_depth's base, keys or repeats */
    bool restart;           /* a late `base:`: load again from the tree */
    sysdesc_system out;
    bool root_done;
} stream;

/* ---- errors, weighed ---- */

static bool keys_matter(const stream *s, size_t frame)
{
    return !s->failed || frame < s->fail_depth ||
           (frame == s->fail_depth && s->fail_phase == PH_DUP);
}

/* s->scratch, found in `phase` of frame `frame` (PH_NONE: a value of the
 * innermost open frame): kept when it comes before the error kept so far.
 * -1 (stop) for memory. */
static int weigh(stream *s, enum phase phase, size_t frame)
{
    if (s->scratch.code == DLTI_ERROR_NOMEM) {
        *s->err = s->scratch;
        return -1;
    }
    bool first = !s->failed;
    if (phase != PH_NONE && s->failed)
        first = frame < s->fail_depth ||
                (frame == s->fail_depth && s->fail_phase != PH_NONE && phase < s->fail_phase);
    if (first) {
        s->first = s->scratch;
        s->failed = true;
        s->fail_depth = phase == PH_NONE ? s->nframes : frame;
        s->fail_phase = (uint8_t)phase;
    }
    return 0;
}

static int value_error(stream *s)
{
    return weigh(s, PH_NONE, 0);
}

static int nomem(stream *s)
{
    return sd_nomem(s->ctx, s->err, s->source);
}

/* ---- frames and entries ---- */

static int push(stream *s, const sd_node *n, uint8_t role, dlti_attr_kind kind)
{
    if (s->nframes == s->frames_cap &&
        bs_grow((void **)&s->frames, &s->frames_cap, s->nframes + 1, sizeof(*s->frames)))
        return nomem(s);
    s->frames[s->nframes++] = (sframe){
        .role = role, .want_key = true, .kind = kind, .line = n->line, .column = n->column,
        .start = role == R_SEQ ? s->nelems : s->nentries};
    return 0;
}

/* A value nothing is built of: a collection's content is passed over. */
static int skip(stream *s, const sd_node *n)
{
    return n->kind == SD_SCALAR ? 0 : push(s, n, R_SKIP, DLTI_ATTR_MAP);
}

static int room(stream *s, size_t n)
{
    if (n > s->entries_cap &&
        bs_grow((void **)&s->entries, &s->entries_cap, n, sizeof(*s->entries)))
        return nomem(s);
    if (n > s->meta_cap && bs_grow((void **)&s->meta, &s->meta_cap, n, sizeof(*s->meta)))
        return nomem(s);
    return 0;
}

/* Copies the entries of `from` (a device or map) into frame `p`, before the
 * `own` entries it already has. */
static int inherit(stream *s, sframe *p, const dlti_attr *from, size_t own)
{
    size_t n = dlti_attr_size(from);
    if (room(s, s->nentries + n) < 0)
        return -1;
    size_t at = p->start;
    memmove(s->entries + at + n, s->entries + at, own * sizeof(*s->entries));
    memmove(s->meta + at + n, s->meta + at, own * sizeof(*s->meta));
    for (size_t i = 0; i < n; i++) {
        s->entries[at + i] = (dlti_entry){dlti_attr_entry_key(from, i),
                                          dlti_attr_entry_value(from, i)};
        s->meta[at + i] = (emeta){.at = NO_MATCH};
    }
    s->nentries += n;
    p->nbase = n;
    p->base = from;
    return 0;
}

/* ---- bases ---- */

static int take_base(stream *s, sframe *p, const sd_node *n, size_t own)
{
    const dlti_attr *dev = sd_base_resolve(s->f, n, &s->scratch);
    if (!dev)
        return weigh(s, PH_BASE, (size_t)(p - s->frames));
    return inherit(s, p, dev, own);
}

/* A device known whole (replayed): its base, the last `base:` key's, first. */
static int base_of_whole(stream *s, sframe *p, const sd_node *dev)
{
    const sd_node *base = NULL;
    for (size_t i = 0; i < dev->len; i++)
        if (sd_is_plain_word(dev->u.items[2 * i], "base"))
            base = dev->u.items[2 * i + 1];
    p->bases_done = true;
    return base ? take_base(s, p, base, 0) : 0;
}

/* ---- keys ---- */

/* Whether the node being read is inside a device (its keys and values are
 * the memo's): every key there is one sd_key() takes at any level below a
 * system's, and a scalar means what it means anywhere. */
static bool in_device(const stream *s)
{
    return s->nframes >= 2 && s->frames[1].role == R_DEVICE;
}

/* The place of `key` among the entries frame `p` inherited, NO_MATCH when
 * it has none: own keys mostly come in the base's order, so the place after
 * the last one found is tried first; else the base's own index says whether
 * it is there at all before its entries are searched. */
static size_t inherited_at(const stream *s, sframe *p, dlti_key key)
{
    const dlti_entry *e = s->entries + p->start;
    size_t i = p->next_at < p->nbase ? p->next_at : 0;
    if (e[i].key != key) {
        if (!dlti_attr_lookup(p->base, key))
            return NO_MATCH;
        for (i = 0; i < p->nbase && e[i].key != key; i++)
            ;
        if (i == p->nbase)
            return NO_MATCH;
    }
    p->next_at = i + 1;
    return i;
}

static int on_key(stream *s, sframe *p, const sd_node *k)
{
    size_t j = (size_t)(p - s->frames);
    p->want_key = false;
    p->pending = V_SKIP;
    if (!keys_matter(s, j)) {
        /* after a bad key of this device, its base still comes first */
        if (p->role == R_DEVICE && !p->bases_done && s->fail_depth == j &&
            sd_is_plain_word(k, "base")) {
            s->restart = true;
            return -1;
        }
        return skip(s, k);
    }
    /* inside a device, the key the device before had at this place */
    size_t slot = SIZE_MAX;
    dlti_key key = in_device(s) ? sd_value_memo_find(&s->memo, k, true, &slot) : NULL;
    if (!key) {
        key = sd_key(s->ctx, s->types, k, (sd_level)p->role, s->source, &s->scratch);
        sd_value_memo_keep(&s->memo, slot, k, true, key);
    }
    if (!key) {
        if (weigh(s, PH_KEY, j) < 0)
            return -1;
        return skip(s, k);
    }
    if (s->nentries == s->entries_cap || s->nentries == s->meta_cap)
        if (room(s, s->nentries + 1) < 0)
            return -1;
    emeta *m = &s->meta[s->nentries];
    *m = (emeta){.line = k->line, .column = k->column, .at = NO_MATCH};
    if (k->tag && !(m->text = bs_arena_memdup(&s->texts, k->u.text, k->len + 1)))
        return nomem(s);
    s->entries[s->nentries++] = (dlti_entry){key, NULL};
    p->pending = V_PLAIN;
    if (p->role == R_SYSTEM && sd_is_plain_word(k, "data_layout")) {
        p->pending = V_DATA_LAYOUT;
        m->flags = E_DROP;
    } else if (p->role == R_DEVICE && sd_is_plain_word(k, "base")) {
        m->flags = E_DROP;
        p->pending = V_SKIP;
        if (!p->bases_done) {
            /* first: merged in place; after other keys, or twice (the last
             * counts): the base must come first, from the whole tree */
            if (s->nentries - p->start > 1 || p->nbase) {
                s->restart = true;
                return -1;
            }
            p->pending = V_BASE;
        }
    } else if (p->nbase && !s->failed) {
        m->at = inherited_at(s, p, key);
    }
    p->dropped |= m->flags != 0;
    return 0;
}

/* 1 with the error in s->scratch when an own key of mapping frame `f`
 * repeats an earlier one, 0 when none does, -1 when out of memory. */
static int repeats(stream *s, const sframe *f)
{
    size_t own = f->start + f->nbase, n = s->nentries - own, dup, first;
    if (n < 2)
        return 0;
    int r = sd_key_repeat(s->entries + own, n, &s->f->L->keys, &dup, &first);
    if (r <= 0)
        return r < 0 ? nomem(s) : 0;
    const emeta *k = &s->meta[own + dup], *k0 = &s->meta[own + first];
    bs_error_set_at(&s->scratch, DLTI_ERROR_SYNTAX, s->source, k->line, k->column,
                    "duplicate key '%s' (first at line %d, column %d)",
                    k->text ? k->text : dlti_key_str(s->entries[own + dup].key, NULL),
                    k0->line, k0->column);
    return 1;
}

/* ---- values ---- */

/* Hands a finished value (NULL: a null) to the collection around it. */
static int deliver(stream *s, const dlti_attr *value, const sd_node *n)
{
    if (s->nframes == 0) {
        s->out.spec = value;
        s->root_done = true;
        return 0;
    }
    sframe *p = &s->frames[s->nframes - 1];
    if (p->role == R_SEQ) {
        if (!value) {
            bs_error_set_at(&s->scratch, DLTI_ERROR_SYNTAX, s->source, n->line, n->column,
                            "null in a sequence: an array element needs a value");
            return value_error(s);
        }
        if (s->nelems == s->elems_cap &&
            bs_grow((void **)&s->elems, &s->elems_cap, s->nelems + 1, sizeof(*s->elems)))
            return nomem(s);
        s->elems[s->nelems++] = value;
        return 0;
    }
    if (p->role == R_SYSTEM && p->pending == V_DATA_LAYOUT) {
        s->out.dl_spec = value;
        return 0;
    }
    s->entries[s->nentries - 1].value = value;
    if (!value) {
        s->meta[s->nentries - 1].flags |= E_NULL;
        p->dropped = true;
    }
    return 0;
}

/* The value `n` of the key pending in mapping `p`: its inherited value. */
static const dlti_attr *inherited(const stream *s, const sframe *p)
{
    if (p->role == R_SEQ || !p->nbase)
        return NULL;
    size_t at = s->meta[s->nentries - 1].at;
    return at == NO_MATCH ? NULL : s->entries[p->start + at].value;
}

static int open_mapping(stream *s, sframe *p, const sd_node *n)
{
    const dlti_attr *base = inherited(s, p);
    dlti_attr_kind bk = base ? dlti_attr_get_kind(base) : DLTI_ATTR_MAP;
    if (bk != DLTI_ATTR_MAP && bk != DLTI_ATTR_DL_SPEC)
        bk = DLTI_ATTR_MAP;
    dlti_attr_kind kind;
    if (sd_map_kind(n, bk, &kind, s->source, &s->scratch) < 0) {
        if (value_error(s) < 0)
            return -1;
        return skip(s, n);
    }
    if (push(s, n, R_MAP, kind) < 0)
        return -1;
    /* an untagged mapping over an inherited one of its kind merges into it */
    if (base && !n->tag && dlti_attr_get_kind(base) == kind)
        return inherit(s, &s->frames[s->nframes - 1], base, 0);
    return 0;
}

static int open_sequence(stream *s, const sd_node *n, bool whole)
{
    if (sd_is_dense_tag(n->tag)) {
        if (!whole)
            return push(s, n, R_DENSE, DLTI_ATTR_MAP); /* read at its end */
        const dlti_attr *a = sd_dense_array(s->ctx, s->types, n, s->source, &s->scratch);
        if (a ? deliver(s, a, n) < 0 : value_error(s) < 0)
            return -1;
        return skip(s, n);
    }
    if (sd_seq_check(n, s->source, &s->scratch) < 0) {
        if (value_error(s) < 0)
            return -1;
        return skip(s, n);
    }
    return push(s, n, R_SEQ, DLTI_ATTR_MAP);
}

/* A device, the value of the system's pending key. */
static int open_device(stream *s, const sd_node *n, bool whole)
{
    const char *id = dlti_key_str(s->entries[s->nentries - 1].key, NULL);
    if (sd_device_check(n, id, s->source, &s->scratch) < 0) {
        if (value_error(s) < 0)
            return -1;
        return skip(s, n);
    }
    if (push(s, n, R_DEVICE, DLTI_ATTR_DEVICE_SPEC) < 0)
        return -1;
    sd_value_memo_device(&s->memo);
    return whole ? base_of_whole(s, &s->frames[s->nframes - 1], n) : 0;
}

static int data_layout(stream *s, const sd_node *n)
{
    if (n->kind == SD_MAPPING) {
        dlti_attr_kind tagged; /* whatever its known tag, a dl_spec */
        if (sd_map_kind(n, DLTI_ATTR_DL_SPEC, &tagged, s->source, &s->scratch) < 0) {
            if (value_error(s) < 0)
                return -1;
            return skip(s, n);
        }
        if (push(s, n, R_MAP, DLTI_ATTR_DL_SPEC) < 0)
            return -1;
        s->frames[s->nframes - 1].module_layout = true;
        return 0;
    }
    if (sd_data_layout_value(s->ctx, s->types, n, s->source, &s->out, &s->scratch) < 0 &&
        value_error(s) < 0)
        return -1;
    return skip(s, n);
}

/* A node: a key, a value, or content of something not built.  `whole`: `n`
 * is a tree node with its children (replayed), not an event's header. */
static int on_node(stream *s, const sd_node *n, bool whole)
{
    if (s->nframes == 0) {
        if (sd_root_check(n, s->source, &s->scratch) < 0) {
            if (value_error(s) < 0)
                return -1;
            return skip(s, n);
        }
        return push(s, n, R_SYSTEM, DLTI_ATTR_SYSTEM_SPEC);
    }
    sframe *p = &s->frames[s->nframes - 1];
    if (p->role >= R_DENSE)
        return skip(s, n);
    if (p->role != R_SEQ && p->want_key)
        return on_key(s, p, n);
    uint8_t pending = p->role == R_SEQ ? V_PLAIN : p->pending;
    p->want_key = true;
    if (s->failed || pending == V_SKIP)
        return skip(s, n);
    if (pending == V_BASE) {
        p->pending = V_SKIP;
        if (take_base(s, p, n, 1) < 0)
            return -1;
        return skip(s, n);
    }
    if (pending == V_DATA_LAYOUT)
        return data_layout(s, n);
    if (p->role == R_SYSTEM)
        return open_device(s, n, whole);
    if (n->kind == SD_MAPPING)
        return open_mapping(s, p, n);
    if (n->kind == SD_SEQUENCE)
        return open_sequence(s, n, whole);
    size_t slot = SIZE_MAX;
    const dlti_attr *a = in_device(s) ? sd_value_memo_find(&s->memo, n, false, &slot) : NULL;
    if (a)
        return deliver(s, a, n);
    bool null;
    a = sd_scalar_attr(s->ctx, s->types, n, s->source, &null, &s->scratch);
    if (!a && !null)
        return value_error(s);
    sd_value_memo_keep(&s->memo, slot, n, false, a);
    return deliver(s, a, n);
}

/* The mapping of frame `f`, its entries merged: own values over inherited
 * ones, nulls and reserved keys out. */
static const dlti_attr *build_mapping(stream *s, const sframe *f)
{
    dlti_entry *e = s->entries;
    size_t kept = f->start, end = s->nentries;
    if (f->nbase || f->dropped) {
        for (size_t i = f->start + f->nbase; i < end; i++) {
            if (s->meta[i].at != NO_MATCH) {
                e[f->start + s->meta[i].at].value = e[i].value;
                e[i].value = NULL;
            }
        }
        for (size_t i = f->start; i < end; i++)
            if (e[i].value)
                e[kept++] = e[i];
    } else {
        kept = end;
    }
    size_t n = kept - f->start;
    if (f->role == R_SYSTEM && n == 0) {
        bs_error_set_at(&s->scratch, DLTI_ERROR_VERIFY, s->source, f->line, f->column,
                        "a system needs at least one device");
        return NULL;
    }
    /* A #dlti.dl_spec below the module is read as MLIR's parser reads it
     * there; the module's own (data_layout:) gets a module's rules. */
    const dlti_attr *a;
    if (f->kind == DLTI_ATTR_DL_SPEC) {
        a = dlti_container_build_entries(s->ctx, f->kind, e + f->start, n, &s->scratch, NULL);
        if (a && f->module_layout)
            a = sd_module_dl_spec(s->ctx, a, &s->scratch);
    } else {
        a = dlti_container_new(s->ctx, f->kind, e + f->start, n, &s->scratch);
    }
    if (!a)
        bs_error_place(&s->scratch, s->source, f->line, f->column);
    return a;
}

static int on_end(stream *s, const sd_node *done)
{
    sframe f = s->frames[--s->nframes];
    size_t j = s->nframes;
    bool mapping = f.role <= R_MAP;
    /* Repeated keys, where they could come first.  A mapping that builds
     * has none (the core refuses them) unless some of its entries drop. */
    int r = 0;
    if (mapping && keys_matter(s, j) && (s->failed || f.nbase || f.dropped) &&
        (r = repeats(s, &f)) != 0 && (r < 0 || weigh(s, PH_DUP, j) < 0))
        return -1;
    if (s->failed && s->fail_depth >= j) {
        s->fail_depth = j;  /* frame j's error is now in a value of frame j - 1 */
        s->fail_phase = PH_NONE;
    }
    const dlti_attr *a = NULL;
    if (!s->failed && f.role != R_SKIP) {
        if (f.role == R_SEQ) {
            /* an empty sequence before any element: no array of them yet */
            a = dlti_array_build(s->ctx, s->nelems > f.start ? s->elems + f.start : NULL,
                                 s->nelems - f.start, &s->scratch);
            if (!a)
                bs_error_place(&s->scratch, s->source, f.line, f.column);
        } else if (f.role == R_DENSE) {
            a = sd_dense_array(s->ctx, s->types, done, s->source, &s->scratch);
        } else if (!(a = build_mapping(s, &f)) && !f.nbase && !f.dropped &&
                   repeats(s, &f) < 0) {
            return -1;  /* a repeat the core refused: the reader's words for it */
        }
        if (!a && value_error(s) < 0)
            return -1;
    }
    if (f.role == R_SEQ)
        s->nelems = f.start;
    else if (mapping)
        s->nentries = f.start;
    if (!a)
        return 0;
    if (j == 0) {
        s->root_done = true;
        s->out.spec = a;
        return 0;
    }
    return deliver(s, a, NULL);
}

/* ---- events, live and replayed ---- */

/* Replays a node an alias repeats (or the whole document) through the same
 * handlers, depth first, without recursion: aliases can nest it deep. */
static int replay(stream *s, const sd_node *root)
{
    if (on_node(s, root, true) < 0)
        return -1;
    if (root->kind == SD_SCALAR)
        return 0;
    size_t depth = 0;
    if (bs_grow((void **)&s->walk, &s->walk_cap, 1, sizeof(*s->walk)))
        return nomem(s);
    s->walk[depth++] = (struct walk){root, 0};
    while (depth) {
        const sd_node *n = s->walk[depth - 1].node;
        size_t count = n->kind == SD_MAPPING ? 2 * n->len : n->len;
        if (s->walk[depth - 1].next == count) {
            depth--;
            if (on_end(s, n) < 0)
                return -1;
            continue;
        }
        const sd_node *c = n->u.items[s->walk[depth - 1].next++];
        if (on_node(s, c, true) < 0)
            return -1;
        if (c->kind == SD_SCALAR)
            continue;
        if (depth == s->walk_cap &&
            bs_grow((void **)&s->walk, &s->walk_cap, depth + 1, sizeof(*s->walk)))
            return nomem(s);
        s->walk[depth++] = (struct walk){c, 0};
    }
    return 0;
}

static int event_node(void *user, const sd_node *n, const char *anchor)
{
    stream *s = user;
    /* kept: anchored nodes (an alias may repeat them), dense arrays */
    if ((anchor || sd_tree_open(&s->kept) ||
         (n->kind == SD_SEQUENCE && sd_is_dense_tag(n->tag))) &&
        sd_tree_node(&s->kept, n, anchor) < 0)
        return -1;
    return on_node(s, n, false);
}

static int event_end(void *user)
{
    stream *s = user;
    const sd_node *done = NULL;
    if (sd_tree_open(&s->kept) && sd_tree_end(&s->kept, &done) < 0)
        return -1;
    return on_end(s, done);
}

static int event_alias(void *user, const char *anchor, int line, int column)
{
    stream *s = user;
    const sd_node *n = sd_tree_alias(&s->kept, anchor, line, column);
    return n ? replay(s, n) : -1;
}

static void stream_init(stream *s, const sd_file *f, dlti_error_t *err)
{
    memset(s, 0, sizeof(*s));
    s->f = f;
    s->ctx = f->L->ctx;
    s->types = &f->L->types;
    s->source = f->source;
    s->err = err;
    sd_tree_init(&s->kept, f->source, &f->L->opts, err);
}

static void stream_free(stream *s)
{
    free(s->frames);
    free(s->entries);
    free(s->meta);
    free(s->elems);
    free(s->walk);
    sd_tree_free(&s->kept);
    sd_value_memo_free(&s->memo);
    bs_arena_release(&s->texts);
}

int sd_yaml_build(const sd_file *f, const char *text, size_t len, sysdesc_system *out,
                  dlti_error_t *err)
{
    static const sd_event_sink sink = {event_node, event_end, event_alias};
    stream s;
    stream_init(&s, f, err);
    int rc = sd_events_parse(text, len, f->source, &f->L->opts, &sink, &s, err);
    if (s.restart) {
        stream_free(&s);
        stream_init(&s, f, err);
        sd_doc doc;
        rc = sd_doc_parse(&doc, text, len, f->source, &f->L->opts, err);
        if (rc == 0 && doc.root)
            rc = replay(&s, doc.root);
        sd_doc_free(&doc);
    }
    if (rc == 0 && s.failed) {
        *err = s.first;
        rc = -1;
    } else if (rc == 0 && !s.root_done) {
        rc = sd_root_check(NULL, f->source, err); /* an empty document */
    }
    if (rc == 0)
        *out = s.out;
    stream_free(&s);
    return rc;
}
