/*
 * sysdesc_private.h - the one private header of the description layer
 * (sysdesc/: YAML and JSON, the catalog, composition, overrides).  Not
 * installed.  Its base (arena, buffer, errors, files, growable arrays) is
 * base/base_private.h, and what it uses of the core beyond the public API
 * is dlti_internal.h (functions only); nothing here implements another.  Of the
 * public headers it brings only sysdesc/load.h (options and systems): each
 * file includes the topics it implements or calls, so what a file can call
 * shows in its includes.
 */
#ifndef SYSDESC_PRIVATE_H
#define SYSDESC_PRIVATE_H

#include "sysdesc/load.h"
#include "sysdesc/print.h"
#include "base_private.h"
#include "dlti_internal.h"

#include <stdint.h>
#include <string.h>

/* ---- errors ---- */

/* A failed allocation while building in `ctx` (NULL: none), in `source`,
 * without a position: the context's reason (its memory budget, or out of
 * memory; dlti_context_nomem); returns -1 for `return sd_nomem(...)`. */
static inline int sd_nomem(const dlti_context *ctx, dlti_error_t *err, const char *source)
{
    dlti_context_nomem(ctx, err);
    bs_error_place(err, source, 0, 0);
    return -1;
}

/* ---- YAML nodes ---- */

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

#define SD_TAG_STR "tag:yaml.org,2002:str"
#define SD_TAG_INT "tag:yaml.org,2002:int"
#define SD_TAG_FLOAT "tag:yaml.org,2002:float"
#define SD_TAG_BOOL "tag:yaml.org,2002:bool"
#define SD_TAG_NULL "tag:yaml.org,2002:null"
#define SD_TAG_MAP "tag:yaml.org,2002:map"
#define SD_TAG_SEQ "tag:yaml.org,2002:seq"

/* ---- libyaml events (yaml_events.c), read by the loader and the tree ---- */

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

/* ---- the document tree (yaml_tree.c) ---- */

typedef struct sd_doc {
    bs_arena arena;        /* the core's arena, released with the document */
    sd_node *root;           /* NULL for an empty document */
} sd_doc;

/* A tree built from events one at a time, under the alias limit: the whole
 * document (sd_doc_parse()), or only what the loader may need again later
 * (yaml_stream.c: anchored nodes, which an alias repeats, and dense arrays,
 * which are read whole).  Zero-initialise through sd_tree_init(). */
typedef struct sd_tree {
    sd_doc doc;
    const char *source;
    dlti_error_t *err;
    const sysdesc_yaml_options *opts;
    struct sd_tree_frame *frames;
    size_t nframes, frames_cap;
    sd_node **children;
    size_t nchildren, children_cap;
    struct sd_anchor_slot *anchors;  /* open addressing, power-of-two capacity */
    size_t nanchors, anchors_cap;
    size_t alias_nodes;
} sd_tree;
void sd_tree_init(sd_tree *t, const char *source, const sysdesc_yaml_options *opts,
                  dlti_error_t *err);
/* A scalar, or the start of a collection; 0 or -1 with err set. */
int sd_tree_node(sd_tree *t, const sd_node *header, const char *anchor);
/* The end of the innermost open collection, into *done. */
int sd_tree_end(sd_tree *t, const sd_node **done);
/* The node alias `name` repeats, counted against the alias limit (and a
 * child of the open collection, if any); NULL with err at the alias. */
const sd_node *sd_tree_alias(sd_tree *t, const char *name, int line, int column);
/* Whether a collection is open: then every event belongs to the tree. */
static inline bool sd_tree_open(const sd_tree *t)
{
    return t->nframes > 0;
}
/* Frees the builder and its nodes. */
void sd_tree_free(sd_tree *t);

/* Parses `text` into `doc` under the limits of `opts` (defaults filled); 0
 * or -1 with err located. */
int sd_doc_parse(sd_doc *doc, const char *text, size_t len, const char *source,
                 const sysdesc_yaml_options *opts, dlti_error_t *err);
void sd_doc_free(sd_doc *doc);

/* ---- scalars (yaml_scalar.c) ---- */

/* What one load keeps asking the context for: types ("i64" of every plain
 * integer, "f64", the type of a tag like !i32: the core parses and interns
 * the name on each request) and the string limit.  Only successes are kept;
 * the pointers are the context's interned types, valid while it lives (one
 * load: a dlti_context_reset() invalidates them).  Zero-initialise. */
typedef struct sd_types {
    const dlti_type *i64, *f64;
    size_t max_string;       /* dlti_limits.max_string_bytes; 0: not read yet */
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

/* The type of a `!type TYPE` scalar (a value or a key); NULL with `err` at
 * `n` when TYPE is no MLIR type. */
const dlti_type *sd_type_scalar(dlti_context *ctx, sd_types *tc, const sd_node *n,
                                const char *source, dlti_error_t *err);
/* What the scalars of the device before meant, by their place in it
 * (yaml_memo.c): a key or value written as the one at the same place was
 * is taken again, not built.  Zeroed to start; sd_value_memo_free. */
#define SD_MEMO_TEXT 52
typedef struct sd_value_memo {
    struct sd_memo_slot *slots; /* made with the first look */
    size_t next;                /* the place of the next scalar */
} sd_value_memo;
/* A device starts: its first scalar is compared with the last device's. */
void sd_value_memo_device(sd_value_memo *m);
/* The key (`key`) or value built for the scalar at the place of `n` in the
 * device before, when it was written as `n` is; else NULL.  *slot says
 * where sd_value_memo_keep() keeps what is built now (SIZE_MAX: nowhere, a
 * tagged or long scalar). */
const void *sd_value_memo_find(sd_value_memo *m, const sd_node *n, bool key, size_t *slot);
void sd_value_memo_keep(sd_value_memo *m, size_t slot, const sd_node *n, bool key,
                        const void *built);
void sd_value_memo_free(sd_value_memo *m);
/* What a scalar means. `*is_null` is set for a null (no attribute).  `tc`
 * may be NULL. */
const dlti_attr *sd_scalar_attr(dlti_context *ctx, sd_types *tc, const sd_node *n,
                                const char *source, bool *is_null, dlti_error_t *err);
/* 0 when the text of scalar `n` (a string value or key) fits the core's
 * string limit (dlti_context_get_limits().max_string_bytes) as the MLIR
 * string literal it prints as, escapes included, so that what a YAML file
 * loads always prints as MLIR the parser reads back; else -1 with a
 * DLTI_ERROR_LIMIT error at the node. */
int sd_string_check(dlti_context *ctx, sd_types *tc, const sd_node *n, const char *source,
                    dlti_error_t *err);
/* The attribute of MLIR text `text` as a value (`!mlir '...'`, typed JSON's
 * {"type": "mlir", ...}): read as MLIR's parser reads it inside a module,
 * not as a module's bare attribute (a #dlti.dl_spec value is no module's
 * layout).  NULL with `err` (no position; the column within `text`). */
const dlti_attr *sd_parse_mlir_value(dlti_context *ctx, const char *text, size_t len,
                                     const char *source, dlti_error_t *err);
/* `a`, a #dlti.dl_spec, checked as a module's data layout (data_layout:):
 * the equal attribute, or NULL with `err` (no position). */
const dlti_attr *sd_module_dl_spec(dlti_context *ctx, const dlti_attr *a, dlti_error_t *err);
/* How a plain scalar resolves, used by the printer to decide on quotes. */
typedef enum sd_plain_kind { SD_PLAIN_STRING, SD_PLAIN_NULL, SD_PLAIN_BOOL, SD_PLAIN_INT,
                             SD_PLAIN_FLOAT } sd_plain_kind;
sd_plain_kind sd_plain_classify(const char *s, size_t len);
/* Dense arrays: `!array:T [...]` (docs/yaml.md).  The tag's prefix: */
#define SD_TAG_DENSE "!array:"
/* Whether `tag` (may be NULL) is a dense array's tag. */
bool sd_is_dense_tag(const char *tag);
/* The dense array `array<T: ...>` of sequence `n` tagged !array:T; NULL with
 * `err` at the node or element at fault. */
const dlti_attr *sd_dense_array(dlti_context *ctx, sd_types *tc, const sd_node *n,
                                const char *source, dlti_error_t *err);

/* ---- the format's rules, shared by both builders (yaml_rules.c) ---- */

/* Inline: both builders ask these of nearly every key. */
static inline bool sd_tag_is(const sd_node *n, const char *tag)
{
    return n->tag && strcmp(n->tag, tag) == 0;
}

/* An untagged plain scalar spelling `word` (`base`, `data_layout`, `<<`). */
static inline bool sd_is_plain_word(const sd_node *n, const char *word)
{
    return n->kind == SD_SCALAR && n->plain && !n->tag && n->u.text[0] == word[0] &&
           strcmp(n->u.text, word) == 0;
}

/* Where a mapping key stands: what it may be depends on it. */
typedef enum sd_level { SD_LEVEL_SYSTEM, SD_LEVEL_DEVICE, SD_LEVEL_MAP } sd_level;
/* The DLTI key of mapping key `k` at `level`: a non-empty string within the
 * string limit, or (below devices) '!type TYPE'; NULL with `err` at `k`. */
dlti_key sd_key(dlti_context *ctx, sd_types *tc, const sd_node *k, sd_level level,
                const char *source, dlti_error_t *err);

/* Memory that duplicate checks of big mappings reuse.  Zero-initialise;
 * free(slots) when done. */
typedef struct sd_key_set {
    size_t *slots;
    size_t cap;
} sd_key_set;
/* Whether one of the `n` keys of `entries` repeats an earlier one: 1 with
 * the first such key's index in *dup and the earlier one's in *first, 0
 * when all differ, -1 when out of memory. */
int sd_key_repeat(const dlti_entry *entries, size_t n, sd_key_set *set, size_t *dup,
                  size_t *first);

/* The container kind of mapping `n`: `dflt` when untagged (or !!map), else
 * its tag's (!map, !dl_spec); -1 with `err` for any other tag. */
int sd_map_kind(const sd_node *n, dlti_attr_kind dflt, dlti_attr_kind *kind, const char *source,
                dlti_error_t *err);
/* 0 when sequence `n` is untagged (or !!seq); else -1 with `err`. */
int sd_seq_check(const sd_node *n, const char *source, dlti_error_t *err);
/* 0 when `root` (NULL: an empty document) can be a system: a mapping. */
int sd_root_check(const sd_node *root, const char *source, dlti_error_t *err);
/* 0 when `v`, the value of device `id`, can be a device: a mapping. */
int sd_device_check(const sd_node *v, const char *id, const char *source, dlti_error_t *err);

/* ---- data layouts (yaml_layout.c) ---- */

/* The value of `data_layout:` unless it is a mapping (built as a !dl_spec):
 * a target triple or LLVM data layout string (sets out->data_layout and
 * out->dl_spec, through the importer of sysdesc/layout.h) or !mlir
 * '#dlti.dl_spec<...>' (sets out->dl_spec).  0, or -1 with `err` at `v`. */
int sd_data_layout_value(dlti_context *ctx, sd_types *tc, const sd_node *v, const char *source,
                         sysdesc_system *out, dlti_error_t *err);

/* ---- loading (yaml_load.c) ---- */

/* `given` (may be NULL) with every zero limit replaced by its default: what
 * the loader hands to everything below it. */
void sd_yaml_options_fill(sysdesc_yaml_options *opts, const sysdesc_yaml_options *given);

/* bs_read_file() under the input size limit of `opts` (may be NULL). */
char *sd_read_input(const char *path, const sysdesc_yaml_options *opts, size_t *len,
                    dlti_error_t *err);

/* Finds the file of a `base:` name that is not a path ("nvidia/h100-sxm"):
 * malloc'ed, or NULL with `err` filled (the loader reports "base 'NAME':
 * TEXT" at the name, with err's code).  The loader knows no catalog: its
 * callers pass one (catalog.c: sd_catalog_resolver()). */
typedef struct sd_resolver {
    char *(*find)(const void *user, const char *name, dlti_error_t *err);
    const void *user;
} sd_resolver;

/* sysdesc_yaml_load() and sysdesc_yaml_load_file() with the resolver for
 * `base:` names given (NULL: such a name is an error). */
int sd_yaml_load(dlti_context *ctx, const char *text, size_t len, const char *source,
                 const sysdesc_yaml_options *opts, const sd_resolver *resolver,
                 sysdesc_system *out, dlti_error_t *err);
int sd_yaml_load_file(dlti_context *ctx, const char *path, const sysdesc_yaml_options *opts,
                      const sd_resolver *resolver, sysdesc_system *out, dlti_error_t *err);

/* One load: what the file being read and every base it names share
 * (yaml_load.c keeps the bases it loaded, `bases`). */
typedef struct sd_loader {
    dlti_context *ctx;
    sysdesc_yaml_options opts;     /* defaults filled */
    const sd_resolver *resolver;   /* names that are not paths; NULL: none */
    sd_types types;
    sd_key_set keys;               /* duplicate checks of big mappings */
    struct sd_bases *bases;
} sd_loader;

/* The files being loaded, innermost first, for base cycles. */
typedef struct sd_chain {
    const char *path;              /* realpath */
    const struct sd_chain *up;
} sd_chain;

/* One file of a load: the one named, or a base it names (`depth` deep). */
typedef struct sd_file {
    sd_loader *L;
    const char *source;
    const sd_chain *chain;
    unsigned depth;
} sd_file;

/* Builds the system of `text` straight from the parser's events
 * (yaml_stream.c): `base:` merged in place, errors as docs/yaml.md orders
 * them.  0, or -1 with err located. */
int sd_yaml_build(const sd_file *f, const char *text, size_t len, sysdesc_system *out,
                  dlti_error_t *err);
/* The device `base:` value `n` names in file `f` (yaml_load.c): NULL with
 * err at `n`, or the base file's own error. */
const dlti_attr *sd_base_resolve(const sd_file *f, const sd_node *n, dlti_error_t *err);

/* ---- the catalog (catalog.c) ---- */

/* The resolver that looks `base:` names up along `search_path` (NULL: the
 * default path, sysdesc_catalog_path()), as sysdesc_catalog_find() does.
 * The string must outlive the loads that use the resolver. */
sd_resolver sd_catalog_resolver(const char *search_path);
/* "did you mean 'nvidia/h100-nvl', 'nvidia/h100-pcie' or 'nvidia/h100-sxm'?"
 * for a catalog name that is not there: the entries along `search_path`
 * (NULL: the default) that `name` begins or nearly spells.  0 with the text
 * in `out`, -1 when none is near. */
int sd_catalog_suggest(const char *name, const char *search_path, char *out, size_t size);
/* One catalog device claiming a PCI id; a product and its partition
 * profiles fit in SD_PCI_CANDIDATES_MAX. */
#define SD_PCI_CANDIDATES_MAX 16
typedef struct sd_pci_candidate {
    const dlti_attr *device;
    char name[256];
    bool variant; /* declared "# variant-of:" (a MIG or CPX profile) */
} sd_pci_candidate;
/* The catalog devices that claim PCI id vendor:device, in name order,
 * declared variants included (marked): at most `max` into `out`, their
 * count in *n.  0, or -1 with err when an entry cannot be loaded. */
int sd_catalog_pci_candidates(dlti_context *ctx, unsigned vendor_id, unsigned device_id,
                              const char *search_path, sd_pci_candidate *out, size_t max,
                              size_t *n, dlti_error_t *err);

/* ---- printing helpers (yaml_util.c), on the core's bs_buf ---- */

/* Appends `len` bytes as a double-quoted string: \" \\ \n \t escaped,
 * other control bytes as `control_fmt` (JSON "\\u%04X", YAML "\\x%02X"),
 * and the characters of sd_escaped_char() as \uXXXX. */
void sd_buf_put_quoted(bs_buf *b, const char *s, size_t len, const char *control_fmt);
/* The length of the UTF-8 character at `s` when it is one that only an
 * escape carries through a YAML reader, else 0: libyaml refuses the C1
 * controls U+0080-U+009F (but U+0085) and U+FFFE/U+FFFF in its input, folds
 * U+0085, U+2028 and U+2029 (line breaks) into spaces even inside quotes,
 * and takes U+FEFF for a byte-order mark.  (C0 controls and DEL are
 * escaped as bytes; tab, LF and CR included.) */
size_t sd_escaped_char(const char *s, size_t len);
/* The longest key the YAML emitter writes as a simple key ("KEY: value"):
 * libyaml forgets a simple key 1024 characters after its start, so longer
 * keys are written as explicit keys ("? KEY" and ": value"). */
#define SD_YAML_SIMPLE_KEY_MAX 512
/* The one rule of what the YAML and JSON emitters may print: 0 when
 * `format` with `flags` (SYSDESC_PRINT_TYPED) holds every key and value of
 * `sys` so that it reads back equal (plain JSON: as JSON), else -1 with
 * `err` naming the first one it cannot hold and why. */
int sd_format_check(const sysdesc_system *sys, sysdesc_format format, unsigned flags,
                    dlti_error_t *err);
/* The same rule for one value printed alone as plain JSON
 * (sysdesc_value_json): 0, or -1 with DLTI_ERROR_UNSUPPORTED naming the key
 * or string that is not UTF-8, its path starting with `where`. */
int sd_value_json_check(const dlti_attr *value, const char *where, dlti_error_t *err);
/* `"name": value` as plain JSON, the value's lines indented `indent` more
 * (json_emit.c; print_dlti.c writes DLTI that is no system spec with it). */
void sd_json_put_named(bs_buf *b, const char *name, const dlti_attr *value, int indent);
/* print_dlti.c: sysdesc_system_print_checked() of a system without a
 * system spec (a lenient load of other DLTI): the DLTI attributes of
 * sys->module as a module (mlir), the one of them bare (attr) or plain
 * JSON; YAML and typed JSON refuse it (DLTI_ERROR_UNSUPPORTED). */
char *sd_dlti_print(const sysdesc_system *sys, sysdesc_format format, unsigned flags,
                    size_t *len, dlti_error_t *err);

/* ---- typed JSON (json_emit.c writes it, json_parse.c and json_load.c read it) ---- */

/* The member that marks typed JSON, first in the top object, and its value:
 * JSON without it is plain JSON, which is not read (docs/yaml.md, "JSON"). */
#define SD_JSON_FORMAT_KEY "$format"
#define SD_JSON_FORMAT_TYPED "sysdesc typed JSON 1"
/* Whether typed JSON writes map `a` as {"type": "mlir", ...}: it has a type
 * key or a key that is not UTF-8, which no JSON member name can be. */
bool sd_json_map_as_mlir(const dlti_attr *a);
/* Parses strict JSON (RFC 8259) into `doc`: objects are SD_MAPPING, arrays
 * SD_SEQUENCE, strings SD_SCALAR with `plain` false (decoded), numbers,
 * true, false, null SD_SCALAR with `plain` true (their text); nesting
 * deeper than `max_depth` is an error.  0, or -1 with err located. */
int sd_json_parse(sd_doc *doc, const char *text, size_t len, const char *source,
                  unsigned max_depth, dlti_error_t *err);
/* Loads typed JSON into `out` (json_load.c has the rules); plain JSON is
 * refused, DLTI_ERROR_UNSUPPORTED with the hint.  Limits of `opts` (may be
 * NULL): max_input_bytes, and twice max_depth (a typed value's object).
 * No schema check (load.c runs it).  0, or -1 with err located. */
int sd_json_load(dlti_context *ctx, const char *text, size_t len, const char *source,
                 const sysdesc_yaml_options *opts, sysdesc_system *out, dlti_error_t *err);
/* Finishes: the NUL-terminated text, or NULL (and freed) after a failure. */
char *sd_buf_finish(bs_buf *b, size_t *len);
/* Appends `sys` as MLIR (sysdesc_mlir_print) to `b`, which may stream. */
void sd_mlir_put(bs_buf *b, const sysdesc_system *sys, bool bare);

/* Shortest "%.*g" text of `v` that reads back to the same double. */
void sd_format_double(char *out, size_t size, double v);

/* ---- the device schema and its checker (schema*.c, check*.c) ---- */

#include "sysdesc/schema.h"

/* The most keys schema_keys.c may hold (schema.c indexes them in arrays). */
#define SD_SCHEMA_MAX_KEYS 1024 /* the vendor runtimes' views needed more than 256; measure's twins more than 512 */

/* The entry named `name` under entry `parent` (-1: the device's top level):
 * the parent's '*' entry when it has one; -1 when there is none. */
int sd_schema_child(int parent, const char *name, size_t len);
/* The parent entry of `entry` (-1 at the top level) and its last path component. */
int sd_schema_parent(int entry);
const char *sd_schema_name(int entry);
/* Whether `name` may be a child of map key `map` (its `names` list). */
bool sd_schema_name_allowed(const sysdesc_schema_key *map, const char *name, size_t len);
/* The keys `name` under `parent` (valid for `devices`) may have been meant,
 * quoted into `out` ("'num_compute_units'", "'fp32_vector' or
 * 'fp32_matrix'"): the nearest by edit distance, else the same name in
 * another map of the device, else the keys it begins; false for none. */
bool sd_schema_suggest_text(int parent, unsigned devices, const char *name, size_t len,
                            char *out, size_t size);
/* The name of map key `map`'s `names` list that `name` is but for case
 * ("l3" -> "L3"), into `out`; false for none. */
bool sd_schema_name_nocase(const sysdesc_schema_key *map, const char *name, size_t len,
                           char *out, size_t size);
/* The key of a device of type `devices` that does what key `path` of the
 * other type does ("memory_size_in_bytes" on a CPU: "memory.total_in_bytes"),
 * or NULL. */
const char *sd_schema_twin(const char *path, unsigned devices);
/* "write 65536 (bytes)" for the text "64KB" of a key in bytes (and the like
 * for every unit of the schema); 0, or -1 when the text is no number. */
int sd_unit_hint(const sysdesc_schema_key *key, const char *text, size_t len, char *out,
                 size_t size);
/* `d` as the YAML and MLIR readers take it back as an f64: "84.0", and
 * from 1e12 on in units of 1e12 as the catalog writes peaks: "989.4e12". */
void sd_float_text(double d, char *out, size_t size);

/* A sysdesc_problem_fn that keeps the first problem by position in `err`
 * (may be NULL) and counts them all. */
typedef struct sd_first_problem {
    dlti_error_t *err;
    long n;
    /* A load's options: what the schema does not know
     * (DLTI_ERROR_UNSUPPORTED) goes to opts->warn and is not counted,
     * unless SYSDESC_LOAD_STRICT.  NULL: every problem counts. */
    const sysdesc_yaml_options *opts;
} sd_first_problem;
int sd_keep_first(void *user, const dlti_error_t *problem);
/* The device type a device id names ("CPU", "CPU1", "GPU3", "ACCEL0", the
 * last component of "class0.GPU3"): SYSDESC_DEVICE_* or 0. */
unsigned sd_device_type_of_id(const char *id, size_t len);
/* sysdesc_system_check_located() for a load that reports one problem: the
 * count, and the first problem in the text (as `sysdesc check` lists them)
 * in `first`, whole; the others are counted and located, no text or hint
 * made for them.  What the schema does not know (DLTI_ERROR_UNSUPPORTED)
 * goes whole to opts->warn and is not counted, unless SYSDESC_LOAD_STRICT
 * (opts NULL: every problem counts).  -1 when out of memory. */
long sd_check_first(const sysdesc_system *sys, unsigned flags, const char *text, size_t len,
                    const char *source, const sysdesc_yaml_options *opts, dlti_error_t *first);
/* Appends " (and N-1 more problems: ...)" to the first of `n` problems. */
void sd_more_problems(dlti_error_t *err, long n);

/* select.c: which op of a parsed MLIR file (`root`, from `text`) a load
 * takes: opts->scope's, the top module's system spec, or with
 * SYSDESC_LOAD_LENIENT the one op holding a system spec (else other DLTI),
 * told to opts->warn when not the top module; `out` gets that op as its
 * module, its system spec (NULL: none, SYSDESC_LOAD_ANY_MODULE or a
 * lenient load of other DLTI) and the data layout and llvm.target in force
 * there.  0, or -1 with DLTI_ERROR_NOT_FOUND naming the candidates. */
int sd_mlir_select(const dlti_scope *root, const char *text, size_t len, const char *path,
                   const sysdesc_yaml_options *opts, sysdesc_system *out, dlti_error_t *err);
/* `name` when a module attribute of that name cannot hold `value` (the
 * DLTI dialect's names hold their own kind: a bare #dlti.target_device_spec
 * or array, read as the root's `dlti.map`, fits none), else NULL. */
const char *sd_dlti_name_misfit(const char *name, const dlti_attr *value);

/* What a description's text is (sniff.c): the one rule of
 * sysdesc_system_load() and _parse(), which the locator follows.  Its
 * content first, the extension of `path` (may be NULL) where the content
 * could be either. */
typedef enum sd_input_format { SD_INPUT_MLIR, SD_INPUT_YAML, SD_INPUT_JSON } sd_input_format;
sd_input_format sd_sniff(const char *path, const char *text, size_t len);
/* Whether `len` bytes, the start of a longer text, hold enough of its
 * first line of content that sd_sniff() of them is sd_sniff() of it all. */
bool sd_sniff_decided(const char *head, size_t len);
/* The format's name for messages: "MLIR", "YAML", "JSON". */
const char *sd_input_format_name(sd_input_format f);
/* Whether device id `key`, written plain as the first line of a YAML file
 * ("KEY:"), is told as YAML by sd_sniff(): the YAML emitter quotes it
 * otherwise. */
bool sd_yaml_first_key_plain_ok(const char *key, size_t len);

/* Locates key paths in YAML or MLIR text (check_locate.c). */
typedef struct sd_locator sd_locator;
sd_locator *sd_locator_new(const char *text, size_t len, const char *source);
void sd_locator_free(sd_locator *l);
/* MLIR: the system spec to locate in is the first one from byte `offset`
 * on (the one a load took from an op: sd_spec_offset()), not the file's
 * first. */
void sd_locator_from(sd_locator *l, size_t offset);
/* Where the system spec of `sys` is in the text its module was parsed
 * from: the offset of its attribute on sys->module, 0 when unknown. */
size_t sd_spec_offset(const sysdesc_system *sys);
/* The line and column of the deepest key of the path `keys` (device id
 * first) that the text holds, returning how many keys of the path it holds
 * (1..n); -1 when not even the device is found. */
int sd_locate(sd_locator *l, const char *const *keys, const size_t *lens, size_t n, int *line,
              int *column);

/* ---- the "cluster" device of a cluster spec (check_cluster.c, docs/cluster.md) ---- */
/* Receives one problem at cluster.k1[.k2] (k1 NULL: the device itself). */
typedef void (*sd_cluster_problem_fn)(void *user, const char *k1, const char *k2, size_t k2len,
                                      const char *message);
/* Checks `dev`, the device `id` of `spec` whose device_type is "cluster". */
void sd_check_cluster(const dlti_attr *spec, const char *id, size_t idlen, const dlti_attr *dev,
                      sd_cluster_problem_fn report, void *user);

#endif /* SYSDESC_PRIVATE_H */
