/* The one libyaml event loop, run by both builders (yaml_tree.c and the fast
 * path, yaml_stream.c).
 *
 * What the events alone decide is decided here, once: YAML syntax errors and
 * where they are, the input size and nesting limits, one document per file,
 * and what a node's header says (position, tag, plain or quoted).  So the
 * fast path cannot read a document differently from the tree it falls back
 * to. */
#include "sysdesc_private.h"

#include <string.h>
#include <yaml.h>

/* "!" is YAML's non-specific tag: the node keeps its kind's default. */
static const char *specific_tag(const yaml_char_t *tag)
{
    return tag && strcmp((const char *)tag, "!") != 0 ? (const char *)tag : NULL;
}

static void header(sd_node *n, sd_node_kind kind, const yaml_event_t *ev)
{
    memset(n, 0, sizeof(*n));
    n->kind = (uint8_t)kind;
    n->line = (int)ev->start_mark.line + 1;
    n->column = (int)ev->start_mark.column + 1;
    n->weight = 1;
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

static void syntax_error(const yaml_parser_t *p, const char *text, size_t len, const char *source,
                         dlti_error_t *err)
{
    if (p->error == YAML_MEMORY_ERROR) {
        sd_nomem(NULL, err, source);
        return;
    }
    const char *problem = p->problem ? p->problem : "invalid YAML";
    int line = (int)p->problem_mark.line + 1, column = (int)p->problem_mark.column + 1;
    if (p->error == YAML_READER_ERROR && !p->problem_mark.line && !p->problem_mark.column &&
        !p->problem_mark.index) {
        /* UTF-16 input: the offset does not count UTF-8 bytes; no position. */
        line = column = 0;
        if (p->encoding != YAML_UTF16LE_ENCODING && p->encoding != YAML_UTF16BE_ENCODING)
            reader_position(text, len, p->problem_offset, &line, &column);
    }
    if (p->context)
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, line, column, "%s %s", problem,
                        p->context);
    else
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, line, column, "%s", problem);
}

/* One event to the sink; `depth` counts the open collections. */
static int dispatch(const yaml_event_t *ev, const char *source, const sysdesc_yaml_options *opts,
                    const sd_event_sink *sink, void *user, unsigned *depth, int *documents,
                    dlti_error_t *err)
{
    sd_node n;
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++*documents == 1)
            return 0;
        bs_error_set_at(err, DLTI_ERROR_SYNTAX, source, (int)ev->start_mark.line + 1,
                        (int)ev->start_mark.column + 1,
                        "a second YAML document: a file holds one system");
        return -1;
    case YAML_SCALAR_EVENT:
        header(&n, SD_SCALAR, ev);
        n.tag = specific_tag(ev->data.scalar.tag);
        /* `! 12` is the string "12": no plain-scalar resolution. */
        n.plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
                  (n.tag || !ev->data.scalar.tag);
        n.len = ev->data.scalar.length;
        n.u.text = (const char *)ev->data.scalar.value;
        return sink->node(user, &n, (const char *)ev->data.scalar.anchor);
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        bool mapping = ev->type == YAML_MAPPING_START_EVENT;
        if (*depth >= opts->max_depth) {
            bs_error_set_at(err, DLTI_ERROR_LIMIT, source, (int)ev->start_mark.line + 1,
                            (int)ev->start_mark.column + 1,
                            "nesting deeper than the limit of %u levels", opts->max_depth);
            return -1;
        }
        ++*depth;
        header(&n, mapping ? SD_MAPPING : SD_SEQUENCE, ev);
        n.tag = specific_tag(mapping ? ev->data.mapping_start.tag : ev->data.sequence_start.tag);
        return sink->node(user, &n,
                          (const char *)(mapping ? ev->data.mapping_start.anchor
                                                 : ev->data.sequence_start.anchor));
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        --*depth;
        return sink->end(user);
    case YAML_ALIAS_EVENT:
        return sink->alias(user, (const char *)ev->data.alias.anchor,
                           (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1);
    default:
        return 0;
    }
}

int sd_events_parse(const char *text, size_t len, const char *source,
                    const sysdesc_yaml_options *opts, const sd_event_sink *sink, void *user,
                    dlti_error_t *err)
{
    if (len > opts->max_input_bytes) {
        bs_error_set_at(err, DLTI_ERROR_LIMIT, source, 0, 0,
                        "input is larger than the limit of %zu bytes", opts->max_input_bytes);
        return -1;
    }
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return sd_nomem(NULL, err, source);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    unsigned depth = 0;
    int documents = 0, rc;
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            syntax_error(&parser, text, len, source, err);
            rc = -1;
            break;
        }
        bool end = ev.type == YAML_STREAM_END_EVENT;
        rc = dispatch(&ev, source, opts, sink, user, &depth, &documents, err);
        yaml_event_delete(&ev);
        if (rc < 0 || end)
            break;
    }
    yaml_parser_delete(&parser);
    return rc;
}
