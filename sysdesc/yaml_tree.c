/* libyaml events (yaml_events.c) -> a tree of sd_node, under the alias limit:
 * a whole document for the key locator (check_locate.c) and for a file whose
 * `base:` comes after other keys of its device (yaml_stream.c replays it),
 * or, fed by the loader, only the anchored nodes an alias may repeat and the
 * dense arrays it reads whole.
 *
 * Children collect on one shared stack and are copied into the arena when
 * their collection ends, so a node costs one arena block plus its text.
 * Aliases share the anchored node instead of copying it; every node knows
 * its expanded size (`weight`), so the cost an alias adds is known in O(1)
 * and the billion-laughs guard needs no walk. */
#include "sysdesc_private.h"

#include <stdlib.h>
#include <string.h>

struct sd_tree_frame {
    sd_node *node;
    size_t first_child;   /* index into the child stack */
    const char *anchor;   /* arena copy, registered when the collection ends */
};

struct sd_anchor_slot {
    const char *name;
    sd_node *node;
};

typedef sd_tree builder;
typedef struct sd_anchor_slot anchor_slot;

static int nomem(builder *b)
{
    return sd_nomem(NULL, b->err, b->source);
}

/* libyaml NUL-terminates every tag, anchor and value: copies keep the NUL. */
static const char *arena_copy(builder *b, const char *s, size_t len)
{
    return bs_arena_memdup(&b->doc.arena, s, len + 1);
}

static anchor_slot *anchor_find(builder *b, const char *name)
{
    if (!b->anchors_cap)
        return NULL;
    size_t mask = b->anchors_cap - 1;
    for (size_t i = bs_hash_bytes(name, strlen(name)) & mask;; i = (i + 1) & mask) {
        if (!b->anchors[i].name || strcmp(b->anchors[i].name, name) == 0)
            return &b->anchors[i];
    }
}

static int anchor_set(builder *b, const char *name, sd_node *node)
{
    if ((b->nanchors + 1) * 2 > b->anchors_cap) {
        size_t cap = b->anchors_cap ? b->anchors_cap * 2 : 16;
        anchor_slot *old = b->anchors;
        size_t old_cap = b->anchors_cap;
        b->anchors = calloc(cap, sizeof(*b->anchors));
        if (!b->anchors) {
            b->anchors = old;
            return nomem(b);
        }
        b->anchors_cap = cap;
        b->nanchors = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].name) {
                *anchor_find(b, old[i].name) = old[i];
                b->nanchors++;
            }
        free(old);
    }
    anchor_slot *s = anchor_find(b, name);
    if (!s->name)
        b->nanchors++;
    /* YAML lets a later anchor of the same name replace an earlier one. */
    s->name = name;
    s->node = node;
    return 0;
}

static int push_child(builder *b, sd_node *n)
{
    if (b->nframes == 0) {
        b->doc.root = n;
        return 0;
    }
    if (bs_grow((void **)&b->children, &b->children_cap, b->nchildren + 1, sizeof(*b->children)))
        return nomem(b);
    b->children[b->nchildren++] = n;
    b->frames[b->nframes - 1].node->weight += n->weight;
    return 0;
}

int sd_tree_node(sd_tree *b, const sd_node *header, const char *anchor)
{
    sd_node *n = bs_arena_alloc(&b->doc.arena, sizeof(*n));
    if (!n)
        return nomem(b);
    *n = *header;
    if (n->tag && !(n->tag = arena_copy(b, n->tag, strlen(n->tag))))
        return nomem(b);
    if (anchor && !(anchor = arena_copy(b, anchor, strlen(anchor))))
        return nomem(b);
    if (n->kind == SD_SCALAR) {
        if (!(n->u.text = arena_copy(b, n->u.text, n->len)))
            return nomem(b);
        if (anchor && anchor_set(b, anchor, n) < 0)
            return -1;
        return push_child(b, n);
    }
    if (bs_grow((void **)&b->frames, &b->frames_cap, b->nframes + 1, sizeof(*b->frames)))
        return nomem(b);
    b->frames[b->nframes++] = (struct sd_tree_frame){n, b->nchildren, anchor};
    return 0;
}

int sd_tree_end(sd_tree *b, const sd_node **done)
{
    struct sd_tree_frame f = b->frames[--b->nframes];
    sd_node *n = f.node;
    size_t count = b->nchildren - f.first_child;
    n->len = n->kind == SD_MAPPING ? count / 2 : count;
    n->u.items = bs_arena_alloc(&b->doc.arena, (count ? count : 1) * sizeof(sd_node *));
    if (!n->u.items)
        return nomem(b);
    if (count)
        memcpy(n->u.items, b->children + f.first_child, count * sizeof(sd_node *));
    b->nchildren = f.first_child;
    if (f.anchor && anchor_set(b, f.anchor, n) < 0)
        return -1;
    *done = n;
    return push_child(b, n);
}

const sd_node *sd_tree_alias(sd_tree *b, const char *name, int line, int column)
{
    anchor_slot *s = anchor_find(b, name);
    if (!s || !s->name) {
        for (size_t i = 0; i < b->nframes; i++)
            if (b->frames[i].anchor && strcmp(b->frames[i].anchor, name) == 0) {
                bs_error_set_at(b->err, DLTI_ERROR_SYNTAX, b->source, line, column,
                         "alias '*%s' refers to a node that contains it", name);
                return NULL;
            }
        bs_error_set_at(b->err, DLTI_ERROR_SYNTAX, b->source, line, column,
                 "undefined alias '*%s'", name);
        return NULL;
    }
    b->alias_nodes += s->node->weight;
    if (b->alias_nodes > b->opts->max_alias_nodes) {
        bs_error_set_at(b->err, DLTI_ERROR_LIMIT, b->source, line, column,
                 "aliases expand to more than the limit of %zu nodes", b->opts->max_alias_nodes);
        return NULL;
    }
    return push_child(b, s->node) < 0 ? NULL : s->node;
}

void sd_tree_init(sd_tree *t, const char *source, const sysdesc_yaml_options *opts,
                  dlti_error_t *err)
{
    memset(t, 0, sizeof(*t));
    t->source = source;
    t->opts = opts;
    t->err = err;
}

static void free_stacks(sd_tree *t)
{
    free(t->frames);
    free(t->children);
    free(t->anchors);
}

void sd_tree_free(sd_tree *t)
{
    free_stacks(t);
    sd_doc_free(&t->doc);
}

static int on_node(void *user, const sd_node *n, const char *anchor)
{
    return sd_tree_node(user, n, anchor);
}

static int on_end(void *user)
{
    const sd_node *done;
    return sd_tree_end(user, &done);
}

static int on_alias(void *user, const char *name, int line, int column)
{
    return sd_tree_alias(user, name, line, column) ? 0 : -1;
}

int sd_doc_parse(sd_doc *doc, const char *text, size_t len, const char *source,
                 const sysdesc_yaml_options *opts, dlti_error_t *err)
{
    static const sd_event_sink sink = {on_node, on_end, on_alias};
    sd_tree t;
    sd_tree_init(&t, source, opts, err);
    int rc = sd_events_parse(text, len, source, opts, &sink, &t, err);
    free_stacks(&t);
    if (rc < 0)
        sd_doc_free(&t.doc);
    *doc = t.doc;
    return rc;
}

void sd_doc_free(sd_doc *doc)
{
    bs_arena_release(&doc->arena);
    doc->root = NULL;
}
