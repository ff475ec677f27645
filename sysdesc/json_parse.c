/* Strict JSON (RFC 8259) -> a tree of the YAML layer's sd_node, for the
 * typed JSON reader (json_load.c).
 *
 * Strict: one value and nothing after it but blanks; UTF-8 strings with
 * JSON's escapes only (a lone surrogate is an error: it has no UTF-8); no
 * control character in a string; numbers as RFC 8259 spells them; no
 * comments, single quotes or trailing commas.  A UTF-8 byte-order mark at
 * the start is skipped.  Objects are SD_MAPPING (keys and values
 * interleaved), arrays SD_SEQUENCE, strings SD_SCALAR with `plain` false
 * (their bytes, escapes decoded), numbers, true, false and null SD_SCALAR
 * with `plain` true (their text).  Positions are 1-based lines and columns
 * in characters, as the YAML reader counts them. */
#include "sysdesc_private.h"

#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *text;
    size_t len, pos;
    const char *source;
    dlti_error_t *err;
    sd_doc *doc;
    unsigned max_depth;
    /* where() moves forward from the last position it was asked for, so
     * that a long line costs its length once, not once per value */
    size_t bom; /* 3 after a byte-order mark, which counts no column */
    size_t mark_pos;
    int mark_line, mark_col;
    sd_node **stack; /* children of the open objects and arrays */
    size_t nstack, stack_cap;
    bs_buf scratch;
} parser;

static void where(parser *p, size_t at, int *line, int *col)
{
    if (at < p->mark_pos) {
        p->mark_pos = p->bom;
        p->mark_line = 1;
        p->mark_col = 1;
    }
    for (size_t i = p->mark_pos; i < at; i++) {
        unsigned char c = (unsigned char)p->text[i];
        if (c == '\n') {
            p->mark_line++;
            p->mark_col = 1;
        } else if ((c & 0xC0) != 0x80) {
            p->mark_col++; /* a character: every byte but UTF-8's continuations */
        }
    }
    p->mark_pos = at;
    *line = p->mark_line;
    *col = p->mark_col;
}

static int fail(parser *p, size_t at, dlti_error_code code, const char *what)
{
    int line, col;
    where(p, at, &line, &col);
    bs_error_set_at(p->err, code, p->source, line, col, "JSON: %s", what);
    return -1;
}

static int nomem(parser *p)
{
    return sd_nomem(NULL, p->err, p->source);
}

static void skip_blanks(parser *p)
{
    while (p->pos < p->len) {
        char c = p->text[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        p->pos++;
    }
}

static sd_node *new_node(parser *p, sd_node_kind kind, bool plain, size_t at)
{
    sd_node *n = bs_arena_alloc(&p->doc->arena, sizeof(*n));
    if (!n) {
        nomem(p);
        return NULL;
    }
    memset(n, 0, sizeof(*n));
    n->kind = (uint8_t)kind;
    n->plain = plain;
    where(p, at, &n->line, &n->column);
    n->weight = 1;
    return n;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (d > 15)
            return -1;
        v = v * 16 + d;
    }
    *out = v;
    return 0;
}

static void put_utf8(bs_buf *b, unsigned cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | cp >> 12);
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | cp >> 18);
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    bs_buf_put(b, u, n);
}

/* A string at p->pos (the opening quote): its decoded bytes as a node. */
static sd_node *string(parser *p)
{
    size_t start = p->pos++;
    bs_buf *b = &p->scratch;
    b->len = 0;
    for (;;) {
        size_t run = p->pos;
        while (p->pos < p->len && p->text[p->pos] != '"' && p->text[p->pos] != '\\' &&
               (unsigned char)p->text[p->pos] >= 0x20)
            p->pos++;
        bs_buf_put(b, p->text + run, p->pos - run);
        if (p->pos >= p->len) {
            fail(p, start, DLTI_ERROR_SYNTAX, "string without its closing quote");
            return NULL;
        }
        char c = p->text[p->pos];
        if (c == '"')
            break;
        if (c != '\\') {
            fail(p, p->pos, DLTI_ERROR_SYNTAX,
                 "control character in a string (write it as \\u00XX)");
            return NULL;
        }
        size_t esc = p->pos++;
        char e = p->pos < p->len ? p->text[p->pos++] : '\0';
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            static const char decoded[] = "\"\\/\b\f\n\r\t";
            bs_buf_putc(b, decoded[simple - "\"\\/bfnrt"]);
            continue;
        }
        unsigned cp;
        if (e != 'u' || p->len - p->pos < 4 || hex4(p->text + p->pos, &cp) < 0) {
            fail(p, esc, DLTI_ERROR_SYNTAX,
                 "invalid escape (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
            return NULL;
        }
        p->pos += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) { /* a pair: \uD83D\uDE00 */
            unsigned lo;
            if (p->len - p->pos < 6 || p->text[p->pos] != '\\' || p->text[p->pos + 1] != 'u' ||
                hex4(p->text + p->pos + 2, &lo) < 0 || lo < 0xDC00 || lo > 0xDFFF) {
                fail(p, esc, DLTI_ERROR_SYNTAX,
                     "a lone UTF-16 surrogate in \\u escapes (it is no character)");
                return NULL;
            }
            p->pos += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail(p, esc, DLTI_ERROR_SYNTAX,
                 "a lone UTF-16 surrogate in \\u escapes (it is no character)");
            return NULL;
        }
        put_utf8(b, cp);
    }
    p->pos++; /* the closing quote */
    if (b->failed) {
        nomem(p);
        return NULL;
    }
    if (!bs_utf8_valid(b->data ? b->data : "", b->len)) {
        fail(p, start, DLTI_ERROR_SYNTAX, "string is not UTF-8");
        return NULL;
    }
    sd_node *n = new_node(p, SD_SCALAR, false, start);
    if (!n)
        return NULL;
    char *text = bs_arena_alloc(&p->doc->arena, b->len + 1);
    if (!text) {
        nomem(p);
        return NULL;
    }
    if (b->len)
        memcpy(text, b->data, b->len);
    text[b->len] = '\0';
    n->u.text = text;
    n->len = b->len;
    return n;
}

static bool digit(parser *p)
{
    return p->pos < p->len && p->text[p->pos] >= '0' && p->text[p->pos] <= '9';
}

/* A number, true, false or null: its text as a plain scalar. */
static sd_node *word(parser *p)
{
    size_t start = p->pos;
    const char *t = p->text + start;
    size_t left = p->len - start;
    if ((left >= 4 && (memcmp(t, "true", 4) == 0 || memcmp(t, "null", 4) == 0)) ||
        (left >= 5 && memcmp(t, "false", 5) == 0)) {
        p->pos += t[0] == 'f' ? 5 : 4;
    } else {
        if (p->pos < p->len && p->text[p->pos] == '-')
            p->pos++;
        if (!digit(p))
            goto bad;
        if (p->text[p->pos] == '0')
            p->pos++;
        else
            while (digit(p))
                p->pos++;
        if (p->pos < p->len && p->text[p->pos] == '.') {
            p->pos++;
            if (!digit(p))
                goto bad;
            while (digit(p))
                p->pos++;
        }
        if (p->pos < p->len && (p->text[p->pos] == 'e' || p->text[p->pos] == 'E')) {
            p->pos++;
            if (p->pos < p->len && (p->text[p->pos] == '+' || p->text[p->pos] == '-'))
                p->pos++;
            if (!digit(p))
                goto bad;
            while (digit(p))
                p->pos++;
        }
    }
    /* a word runs on into letters or digits: "truex", "01", "1x" */
    if (p->pos < p->len && (dlti_is_id_char((unsigned char)p->text[p->pos]) ||
                            p->text[p->pos] == '-' || p->text[p->pos] == '+'))
        goto bad;
    sd_node *n = new_node(p, SD_SCALAR, true, start);
    if (!n)
        return NULL;
    /* the word and a NUL: the input may end right after it */
    char *text = bs_arena_alloc(&p->doc->arena, p->pos - start + 1);
    if (!text) {
        nomem(p);
        return NULL;
    }
    memcpy(text, t, p->pos - start);
    text[p->pos - start] = '\0';
    n->u.text = text;
    n->len = p->pos - start;
    return n;
bad:
    if (start < p->len && p->text[start] == '\0')
        fail(p, start, DLTI_ERROR_SYNTAX, "unexpected NUL byte in input");
    else
        fail(p, start, DLTI_ERROR_SYNTAX,
             "expected a value (an object, array, string, number, true, false or null)");
    return NULL;
}

static int push(parser *p, sd_node *n)
{
    if (bs_grow((void **)&p->stack, &p->stack_cap, p->nstack + 1, sizeof(*p->stack)))
        return nomem(p);
    p->stack[p->nstack++] = n;
    return 0;
}

static sd_node *value(parser *p, unsigned depth);

/* An object or array at p->pos: its children collected on the stack, then
 * copied into the arena. */
static sd_node *collection(parser *p, unsigned depth)
{
    bool object = p->text[p->pos] == '{';
    char close = object ? '}' : ']';
    size_t start = p->pos++;
    if (depth > p->max_depth) {
        char what[96];
        snprintf(what, sizeof what, "nesting deeper than the limit of %u levels", p->max_depth);
        fail(p, start, DLTI_ERROR_LIMIT, what);
        return NULL;
    }
    sd_node *n = new_node(p, object ? SD_MAPPING : SD_SEQUENCE, false, start);
    if (!n)
        return NULL;
    size_t first = p->nstack;
    skip_blanks(p);
    if (p->pos < p->len && p->text[p->pos] == close) {
        p->pos++;
    } else {
        for (;;) {
            skip_blanks(p);
            if (object) {
                if (p->pos >= p->len || p->text[p->pos] != '"') {
                    fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected a member name (a string)");
                    return NULL;
                }
                sd_node *k = string(p);
                if (!k || push(p, k) < 0)
                    return NULL;
                skip_blanks(p);
                if (p->pos >= p->len || p->text[p->pos] != ':') {
                    fail(p, p->pos, DLTI_ERROR_SYNTAX, "expected ':' after a member name");
                    return NULL;
                }
                p->pos++;
            }
            sd_node *v = value(p, depth + 1);
            if (!v || push(p, v) < 0)
                return NULL;
            n->weight += v->weight;
            skip_blanks(p);
            if (p->pos < p->len && p->text[p->pos] == ',') {
                p->pos++;
                continue;
            }
            if (p->pos < p->len && p->text[p->pos] == close) {
                p->pos++;
                break;
            }
            fail(p, p->pos, DLTI_ERROR_SYNTAX,
                 object ? "expected ',' or '}' after an object member"
                        : "expected ',' or ']' after an array element");
            return NULL;
        }
    }
    size_t count = p->nstack - first;
    n->len = object ? count / 2 : count;
    n->u.items = bs_arena_alloc(&p->doc->arena, (count ? count : 1) * sizeof(sd_node *));
    if (!n->u.items) {
        nomem(p);
        return NULL;
    }
    if (count)
        memcpy(n->u.items, p->stack + first, count * sizeof(sd_node *));
    p->nstack = first;
    return n;
}

static sd_node *value(parser *p, unsigned depth)
{
    skip_blanks(p);
    if (p->pos >= p->len) {
        fail(p, p->pos, DLTI_ERROR_SYNTAX, "unexpected end of input: expected a value");
        return NULL;
    }
    char c = p->text[p->pos];
    if (c == '{' || c == '[')
        return collection(p, depth);
    if (c == '"')
        return string(p);
    return word(p);
}

int sd_json_parse(sd_doc *doc, const char *text, size_t len, const char *source,
                  unsigned max_depth, dlti_error_t *err)
{
    memset(doc, 0, sizeof(*doc));
    parser p = {.text = text, .len = len, .source = source, .err = err, .doc = doc,
                .max_depth = max_depth, .mark_line = 1, .mark_col = 1};
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p.pos = p.bom = p.mark_pos = 3;
    doc->root = value(&p, 1);
    if (doc->root) {
        skip_blanks(&p);
        if (p.pos < p.len) {
            fail(&p, p.pos, DLTI_ERROR_SYNTAX,
                 text[p.pos] == '\0' ? "unexpected NUL byte in input"
                                     : "unexpected text after the JSON value");
            doc->root = NULL;
        }
    }
    free(p.stack);
    free(p.scratch.data);
    if (!doc->root) {
        sd_doc_free(doc);
        return -1;
    }
    return 0;
}
