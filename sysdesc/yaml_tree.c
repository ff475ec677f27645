/* libyaml events -> a tree of sd_node, under the depth and alias limits.
 *
 * One pass over the events; children collect on one shared stack and are
 * copied into the arena when their collection ends, so a node costs one
 * arena block plus its text.  Aliases share the anchored node instead of
 * copying it; every node knows its expanded size (`weight`), so the cost an
 * alias adds is known in O(1) and the billion-laughs guard needs no walk. */
#include "sysdesc_private.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct frame {
    sd_node *node;
    size_t first_child;   /* index into the child stack */
    const char *anchor;   /* arena copy, registered when the collection ends */
} frame;

typedef struct anchor_slot {
    const char *name;
    sd_node *node;
} anchor_slot;

typedef struct builder {
    sd_doc *doc;
    const char *text;      /* the input, to place reader errors */
    size_t len;
    const char *source;
    dlti_error_t *err;
    sysdesc_yaml_options opts;
    frame *frames;
    size_t nframes, frames_cap;
    sd_node **children;
    size_t nchildren, children_cap;
    anchor_slot *anchors;  /* open addressing, power-of-two capacity */
    size_t nanchors, anchors_cap;
    size_t alias_nodes;
} builder;

static int nomem(builder *b)
{
    dlti_error_set_at(b->err, DLTI_ERROR_NOMEM, b->source, 0, 0, "out of memory");
    return -1;
}

/* libyaml NUL-terminates every tag, anchor and value: copies keep the NUL. */
static const char *arena_copy(builder *b, const yaml_char_t *s, size_t len)
{
    return dlti_arena_memdup(&b->doc->arena, s, len + 1);
}

static anchor_slot *anchor_find(builder *b, const char *name)
{
    if (!b->anchors_cap)
        return NULL;
    size_t mask = b->anchors_cap - 1;
    for (size_t i = dlti_hash_bytes(name, strlen(name)) & mask;; i = (i + 1) & mask) {
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
        b->doc->root = n;
        return 0;
    }
    if (dlti_grow((void **)&b->children, &b->children_cap, b->nchildren + 1, sizeof(*b->children)))
        return nomem(b);
    b->children[b->nchildren++] = n;
    b->frames[b->nframes - 1].node->weight += n->weight;
    return 0;
}

static sd_node *new_node(builder *b, sd_node_kind kind, yaml_mark_t mark, const yaml_char_t *tag)
{
    sd_node *n = dlti_arena_alloc(&b->doc->arena, sizeof(*n));
    if (!n)
        return NULL;
    memset(n, 0, sizeof(*n));
    n->kind = (uint8_t)kind;
    n->line = (int)mark.line + 1;
    n->column = (int)mark.column + 1;
    n->weight = 1;
    if (tag) {
        n->tag = arena_copy(b, tag, strlen((const char *)tag));
        if (!n->tag)
            return NULL;
    }
    return n;
}

static int on_scalar(builder *b, const yaml_event_t *ev)
{
    sd_node *n = new_node(b, SD_SCALAR, ev->start_mark, ev->data.scalar.tag);
    if (!n)
        return nomem(b);
    n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    /* A plain scalar with the non-specific tag "!" is a string by YAML's rules. */
    if (n->tag && strcmp(n->tag, "!") == 0) {
        n->tag = NULL;
        n->plain = false;
    }
    n->len = ev->data.scalar.length;
    n->u.text = arena_copy(b, ev->data.scalar.value, n->len);
    if (!n->u.text)
        return nomem(b);
    if (ev->data.scalar.anchor) {
        const yaml_char_t *anchor = ev->data.scalar.anchor;
        const char *a = arena_copy(b, anchor, strlen((const char *)anchor));
        if (!a || anchor_set(b, a, n) < 0)
            return nomem(b);
    }
    return push_child(b, n);
}

static int on_start(builder *b, const yaml_event_t *ev, sd_node_kind kind)
{
    const yaml_char_t *tag = kind == SD_MAPPING ? ev->data.mapping_start.tag
                                                : ev->data.sequence_start.tag;
    const yaml_char_t *anchor = kind == SD_MAPPING ? ev->data.mapping_start.anchor
                                                   : ev->data.sequence_start.anchor;
    if (b->nframes >= b->opts.max_depth) {
        dlti_error_set_at(b->err, DLTI_ERROR_LIMIT, b->source, (int)ev->start_mark.line + 1,
                 (int)ev->start_mark.column + 1,
                 "nesting deeper than the limit of %u levels", b->opts.max_depth);
        return -1;
    }
    sd_node *n = new_node(b, kind, ev->start_mark, tag);
    if (!n)
        return nomem(b);
    if (n->tag && strcmp(n->tag, "!") == 0)
        n->tag = NULL;
    if (dlti_grow((void **)&b->frames, &b->frames_cap, b->nframes + 1, sizeof(*b->frames)))
        return nomem(b);
    frame *f = &b->frames[b->nframes++];
    f->node = n;
    f->first_child = b->nchildren;
    f->anchor = NULL;
    if (anchor) {
        f->anchor = arena_copy(b, anchor, strlen((const char *)anchor));
        if (!f->anchor)
            return nomem(b);
    }
    return 0;
}

static int on_end(builder *b)
{
    frame f = b->frames[--b->nframes];
    sd_node *n = f.node;
    size_t count = b->nchildren - f.first_child;
    n->len = n->kind == SD_MAPPING ? count / 2 : count;
    n->u.items = dlti_arena_alloc(&b->doc->arena, (count ? count : 1) * sizeof(sd_node *));
    if (!n->u.items)
        return nomem(b);
    if (count)
        memcpy(n->u.items, b->children + f.first_child, count * sizeof(sd_node *));
    b->nchildren = f.first_child;
    if (f.anchor && anchor_set(b, f.anchor, n) < 0)
        return -1;
    return push_child(b, n);
}

static int on_alias(builder *b, const yaml_event_t *ev)
{
    const char *name = (const char *)ev->data.alias.anchor;
    anchor_slot *s = anchor_find(b, name);
    int line = (int)ev->start_mark.line + 1, column = (int)ev->start_mark.column + 1;
    if (!s || !s->name) {
        for (size_t i = 0; i < b->nframes; i++)
            if (b->frames[i].anchor && strcmp(b->frames[i].anchor, name) == 0) {
                dlti_error_set_at(b->err, DLTI_ERROR_SYNTAX, b->source, line, column,
                         "alias '*%s' refers to a node that contains it", name);
                return -1;
            }
        dlti_error_set_at(b->err, DLTI_ERROR_SYNTAX, b->source, line, column,
                 "undefined alias '*%s'", name);
        return -1;
    }
    b->alias_nodes += s->node->weight;
    if (b->alias_nodes > b->opts.max_alias_nodes) {
        dlti_error_set_at(b->err, DLTI_ERROR_LIMIT, b->source, line, column,
                 "aliases expand to more than the limit of %zu nodes", b->opts.max_alias_nodes);
        return -1;
    }
    return push_child(b, s->node);
}

/* The reader (bad UTF-8, control characters) has no mark, only the byte
 * offset of the bad character: count lines and columns up to it as libyaml's
 * marks do (1-based; columns in characters; \n, \r\n and \r end a line; a
 * byte-order mark is not a column). */
static void reader_position(const char *text, size_t len, size_t offset, int *line, int *column)
{
    size_t i = 0;
    *line = *column = 1;
    if (offset > len)
        offset = len;
    if (offset >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    for (; i < offset; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n' || (c == '\r' && !(i + 1 < len && text[i + 1] == '\n'))) {
            ++*line;
            *column = 1;
        } else if (c != '\r' && (c & 0xC0) != 0x80) {
            ++*column;
        }
    }
}

static void syntax_error(builder *b, const yaml_parser_t *p)
{
    if (p->error == YAML_MEMORY_ERROR) {
        nomem(b);
        return;
    }
    const char *problem = p->problem ? p->problem : "invalid YAML";
    int line = (int)p->problem_mark.line + 1, column = (int)p->problem_mark.column + 1;
    if (p->error == YAML_READER_ERROR && !p->problem_mark.line && !p->problem_mark.column &&
        !p->problem_mark.index) {
        /* UTF-16 input: the offset does not count UTF-8 bytes; no position. */
        line = column = 0;
        if (p->encoding != YAML_UTF16LE_ENCODING && p->encoding != YAML_UTF16BE_ENCODING)
            reader_position(b->text, b->len, p->problem_offset, &line, &column);
    }
    if (p->context)
        dlti_error_set_at(b->err, DLTI_ERROR_SYNTAX, b->source, line, column, "%s %s", problem, p->context);
    else
        dlti_error_set_at(b->err, DLTI_ERROR_SYNTAX, b->source, line, column, "%s", problem);
}

int sd_doc_parse(sd_doc *doc, const char *text, size_t len, const char *source,
                 const sysdesc_yaml_options *opts, dlti_error_t *err)
{
    memset(doc, 0, sizeof(*doc));
    builder b = {.doc = doc, .text = text, .len = len, .source = source, .err = err};
    if (opts)
        b.opts = *opts;
    if (!b.opts.max_depth)
        b.opts.max_depth = SYSDESC_YAML_DEFAULT_MAX_DEPTH;
    if (!b.opts.max_alias_nodes)
        b.opts.max_alias_nodes = SYSDESC_YAML_DEFAULT_MAX_ALIAS_NODES;
    if (!b.opts.max_input_bytes)
        b.opts.max_input_bytes = SYSDESC_YAML_DEFAULT_MAX_INPUT_BYTES;
    if (len > b.opts.max_input_bytes) {
        dlti_error_set_at(err, DLTI_ERROR_LIMIT, source, 0, 0,
                 "input is larger than the limit of %zu bytes", b.opts.max_input_bytes);
        return -1;
    }
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return nomem(&b);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    int rc = -1, documents = 0;
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            syntax_error(&b, &parser);
            break;
        }
        int r = 0;
        bool done = false;
        switch (ev.type) {
        case YAML_DOCUMENT_START_EVENT:
            if (++documents > 1) {
                dlti_error_set_at(err, DLTI_ERROR_SYNTAX, source, (int)ev.start_mark.line + 1,
                         (int)ev.start_mark.column + 1,
                         "a second YAML document: a file holds one system");
                r = -1;
            }
            break;
        case YAML_SCALAR_EVENT:
            r = on_scalar(&b, &ev);
            break;
        case YAML_SEQUENCE_START_EVENT:
            r = on_start(&b, &ev, SD_SEQUENCE);
            break;
        case YAML_MAPPING_START_EVENT:
            r = on_start(&b, &ev, SD_MAPPING);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            r = on_end(&b);
            break;
        case YAML_ALIAS_EVENT:
            r = on_alias(&b, &ev);
            break;
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
        if (r < 0)
            break;
        if (done) {
            rc = 0;
            break;
        }
    }
    yaml_parser_delete(&parser);
    free(b.frames);
    free(b.children);
    free(b.anchors);
    if (rc < 0)
        sd_doc_free(doc);
    return rc;
}

void sd_doc_free(sd_doc *doc)
{
    dlti_arena_release(&doc->arena);
    doc->root = NULL;
}
