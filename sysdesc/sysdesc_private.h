/*
 * sysdesc_private.h - the one private header of the description layer
 * (sysdesc/: YAML and JSON, the catalog, composition, overrides).  Not
 * installed.  Its base (arena, buffer, errors, files) is the core's, from
 * dlti_private.h.
 */
#ifndef SYSDESC_PRIVATE_H
#define SYSDESC_PRIVATE_H

#include "sysdesc/sysdesc.h"
#include "dlti_private.h"

#include <stdarg.h>
#include <stdint.h>

/* ---- options ---- */

/* `given` (may be NULL) with every zero limit replaced by its default: what
 * the loader hands to everything below it. */
void sd_yaml_options_fill(sysdesc_yaml_options *opts, const sysdesc_yaml_options *given);

/* ---- the document tree ---- */

typedef enum sd_node_kind { SD_SCALAR, SD_SEQUENCE, SD_MAPPING } sd_node_kind;

/* One YAML node.  Aliases are not nodes: an alias is the anchored node
 * itself, shared, so the tree is a DAG. */
typedef struct sd_node {
    uint8_t kind;
    bool plain;              /* scalar written without quotes (resolution applies) */
    int line, column;        /* 1-based */
    const char *tag;         /* full tag ("!i32", "tag:yaml.org,2002:str") or NULL */
    size_t len;              /* scalar bytes, or number of children */
    union {
        const char *text;            /* scalar, NUL-terminated */
        struct sd_node **items;      /* sequence items; mapping keys and values interleaved */
    } u;
    size_t weight;           /* nodes in the expanded subtree, aliases expanded */
} sd_node;

/* ---- libyaml events (yaml_events.c), read by the tree and the fast path ---- */

/* What a builder does with the events of one document.  Each handler
 * returns 0 to go on or -1 to stop the parse (having set its error, if it
 * reports one). */
typedef struct sd_event_sink {
    /* A scalar, or the start of a sequence or mapping (no children: `len`
     * 0).  Tag and text point into the event: a builder copies what it
     * keeps.  `anchor` is NULL when the node has none. */
    int (*node)(void *user, const sd_node *n, const char *anchor);
    /* The end of the innermost open sequence or mapping. */
    int (*end)(void *user);
    int (*alias)(void *user, const char *anchor, int line, int column);
} sd_event_sink;

/* Parses `len` bytes of `text`, handing the node events to `sink`.  0 at
 * the end of the stream; -1 when the sink stopped, or with `err` set at its
 * place in `source` for a YAML syntax error, a second document, the input
 * size or nesting limit of `opts` (defaults filled), or out of memory. */
int sd_events_parse(const char *text, size_t len, const char *source,
                    const sysdesc_yaml_options *opts, const sd_event_sink *sink, void *user,
                    dlti_error_t *err);

typedef struct sd_doc {
    dlti_arena arena;        /* the core's arena, released with the document */
    sd_node *root;           /* NULL for an empty document */
} sd_doc;

/* Parses `text` into `doc` under the limits of `opts` (defaults filled); 0
 * or -1 with err located. */
int sd_doc_parse(sd_doc *doc, const char *text, size_t len, const char *source,
                 const sysdesc_yaml_options *opts, dlti_error_t *err);
void sd_doc_free(sd_doc *doc);

/* ---- the fast path (yaml_stream.c) ---- */

#define SD_STREAM_FALLBACK 1
/* Loads `text` straight from parser events when it needs no tree and has no
 * error: 0 with `out` set, or SD_STREAM_FALLBACK (nothing set, no error
 * reported) when the tree path must load it.  `opts` has its defaults
 * filled; the input size limit is the caller's. */
/* Tests only (tests/test_yaml.c): true makes sysdesc_yaml_load() skip the
 * fast path, so that both paths can be compared on the same input. */
extern bool sd_yaml_force_tree;

int sd_stream_load(dlti_context *ctx, const char *text, size_t len, const char *source,
                   const sysdesc_yaml_options *opts, sysdesc_system *out);

/* ---- scalars ---- */

/* Types one load keeps asking for ("i64" of every plain integer, "f64", the
 * type of a tag like !i32): the core parses and interns the name on each
 * request, so a load remembers the answers.  Only successes are kept; the
 * pointers are the context's interned types, valid while it lives (one
 * load: a dlti_context_reset() invalidates them).  Zero-initialise. */
typedef struct sd_types {
    const dlti_type *i64, *f64;
    struct {
        char text[40];
        size_t len;
        const dlti_type *type;
    } slot[16];
    unsigned next;
} sd_types;

/* dlti_type_parse() through the cache (`tc` may be NULL: no cache). */
const dlti_type *sd_type_parse(dlti_context *ctx, sd_types *tc, const char *text, size_t len,
                               dlti_error_t *err);

/* What a scalar means. `*is_null` is set for a null (no attribute).  `tc`
 * may be NULL. */
const dlti_attr *sd_scalar_attr(dlti_context *ctx, sd_types *tc, const sd_node *n,
                                const char *source, bool *is_null, dlti_error_t *err);
/* 0 when the text of scalar `n` (a string value or key) fits the core's
 * string limit (dlti_context_get_limits().max_string_bytes) as the MLIR
 * string literal it prints as, escapes included, so that what a YAML file
 * loads always prints as MLIR the parser reads back; else -1 with a
 * DLTI_ERROR_LIMIT error at the node. */
int sd_string_check(dlti_context *ctx, const sd_node *n, const char *source, dlti_error_t *err);
/* How a plain scalar resolves, used by the printer to decide on quotes. */
typedef enum sd_plain_kind { SD_PLAIN_STRING, SD_PLAIN_NULL, SD_PLAIN_BOOL, SD_PLAIN_INT,
                             SD_PLAIN_FLOAT } sd_plain_kind;
sd_plain_kind sd_plain_classify(const char *s, size_t len);

#define SD_TAG_STR "tag:yaml.org,2002:str"
#define SD_TAG_INT "tag:yaml.org,2002:int"
#define SD_TAG_FLOAT "tag:yaml.org,2002:float"
#define SD_TAG_BOOL "tag:yaml.org,2002:bool"
#define SD_TAG_NULL "tag:yaml.org,2002:null"
#define SD_TAG_MAP "tag:yaml.org,2002:map"
#define SD_TAG_SEQ "tag:yaml.org,2002:seq"

/* ---- printing helpers (yaml_util.c), on the core's dlti_buf ---- */

/* Appends `len` bytes as a double-quoted string: \" \\ \n \t escaped,
 * other control bytes as `control_fmt` (JSON "\\u%04X", YAML "\\x%02X"). */
void sd_buf_put_quoted(dlti_buf *b, const char *s, size_t len, const char *control_fmt);
/* Finishes: the NUL-terminated text, or NULL (and freed) after a failure. */
char *sd_buf_finish(dlti_buf *b, size_t *len);

/* Shortest "%.*g" text of `v` that reads back to the same double. */
void sd_format_double(char *out, size_t size, double v);

/* ---- data layouts ---- */

/* The `data_layout:` key: an LLVM data layout string or a target triple
 * becomes a #dlti.dl_spec through the layout importer (sysdesc/layout.h). */
/* Sets *dl_spec from `text` (NUL-terminated): a triple of the built-in table
 * (exact or same architecture) or else an LLVM data layout string.  Returns
 * 0, or -1 with `err` filled (no position) when the string is malformed. */
int sd_import_data_layout(dlti_context *ctx, const char *text, const dlti_attr **dl_spec,
                          dlti_error_t *err);

#endif /* SYSDESC_PRIVATE_H */
