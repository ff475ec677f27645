/* A strict RFC 8259 validator for what sysdesc prints as JSON: one value,
 * whitespace around it, UTF-8 only (no overlong forms, no surrogates, nothing
 * above U+10FFFF), control characters escaped, \u escapes with paired
 * surrogates, numbers in JSON's grammar, no duplicate keys in an object (RFC
 * 8259 says SHOULD; many readers keep the last one silently, so sysdesc must
 * never print one).  Written for the fuzz targets: short, no allocation
 * beyond the duplicate-key check, depth bounded. */
#include "json_strict.h"

#include "utf8.h" /* the library's own check (base/) */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct jp {
    const unsigned char *s;
    size_t n, i;
    int depth;
    const char *why;
} jp;

static bool fail(jp *p, const char *why)
{
    if (!p->why)
        p->why = why;
    return false;
}

static void ws(jp *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' ||
                           p->s[p->i] == '\r'))
        p->i++;
}

static int hex4(const unsigned char *s)
{
    int v = 0;
    for (int k = 0; k < 4; k++) {
        int c = s[k], d = c >= '0' && c <= '9' ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* A string; its raw span (between the quotes) goes to start and len, for the key checks. */
static bool string(jp *p, size_t *start, size_t *len)
{
    if (p->i >= p->n || p->s[p->i] != '"')
        return fail(p, "expected a string");
    p->i++;
    *start = p->i;
    while (p->i < p->n) {
        unsigned char c = p->s[p->i];
        if (c == '"') {
            *len = p->i - *start;
            p->i++;
            return true;
        }
        if (c < 0x20)
            return fail(p, "unescaped control character in a string");
        if (c == '\\') {
            if (p->i + 1 >= p->n)
                return fail(p, "truncated escape");
            unsigned char e = p->s[p->i + 1];
            if (strchr("\"\\/bfnrt", e) && e) {
                p->i += 2;
                continue;
            }
            if (e != 'u' || p->i + 6 > p->n)
                return fail(p, "invalid escape");
            int u = hex4(p->s + p->i + 2);
            if (u < 0)
                return fail(p, "invalid \\u escape");
            p->i += 6;
            if (u >= 0xdc00 && u <= 0xdfff)
                return fail(p, "lone low surrogate escape");
            if (u >= 0xd800 && u <= 0xdbff) {
                if (p->i + 6 > p->n || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u')
                    return fail(p, "high surrogate escape without its pair");
                int lo = hex4(p->s + p->i + 2);
                if (lo < 0xdc00 || lo > 0xdfff)
                    return fail(p, "high surrogate escape without its pair");
                p->i += 6;
            }
            continue;
        }
        size_t l = bs_utf8_len(p->s + p->i, p->n - p->i, 0);
        if (l == 0)
            return fail(p, "bytes that are not UTF-8");
        p->i += l;
    }
    return fail(p, "unterminated string");
}

static bool digits(jp *p)
{
    size_t k = p->i;
    while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
        p->i++;
    return p->i > k;
}

static bool number(jp *p)
{
    if (p->i < p->n && p->s[p->i] == '-')
        p->i++;
    if (p->i < p->n && p->s[p->i] == '0')
        p->i++;
    else if (!digits(p))
        return fail(p, "invalid number");
    if (p->i < p->n && p->s[p->i] == '.') {
        p->i++;
        if (!digits(p))
            return fail(p, "invalid fraction");
    }
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        p->i++;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
            p->i++;
        if (!digits(p))
            return fail(p, "invalid exponent");
    }
    return true;
}

static bool literal(jp *p, const char *w)
{
    size_t l = strlen(w);
    if (p->n - p->i < l || memcmp(p->s + p->i, w, l) != 0)
        return fail(p, "invalid literal");
    p->i += l;
    return true;
}

static bool value(jp *p);

typedef struct span {
    size_t start, len;
} span;

static bool object(jp *p)
{
    p->i++; /* '{' */
    span *keys = NULL;
    size_t nkeys = 0, cap = 0;
    bool ok = false;
    ws(p);
    if (p->i < p->n && p->s[p->i] == '}') {
        p->i++;
        return true;
    }
    for (;;) {
        ws(p);
        span k;
        if (!string(p, &k.start, &k.len))
            break;
        /* The raw spans compare equal exactly when the keys are equal
         * because sysdesc's printer escapes one way; a different escape of
         * the same key would slip through, which is acceptable here. */
        for (size_t j = 0; j < nkeys; j++)
            if (keys[j].len == k.len && memcmp(p->s + keys[j].start, p->s + k.start, k.len) == 0) {
                fail(p, "duplicate key in an object");
                goto out;
            }
        if (nkeys == cap) {
            size_t nc = cap ? cap * 2 : 16;
            span *nk = realloc(keys, nc * sizeof(*nk));
            if (!nk) {
                fail(p, "out of memory");
                goto out;
            }
            keys = nk;
            cap = nc;
        }
        keys[nkeys++] = k;
        ws(p);
        if (p->i >= p->n || p->s[p->i] != ':') {
            fail(p, "expected ':'");
            goto out;
        }
        p->i++;
        if (!value(p))
            goto out;
        ws(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == '}') {
            p->i++;
            ok = true;
        } else {
            fail(p, "expected ',' or '}'");
        }
        break;
    }
out:
    free(keys);
    return ok;
}

static bool array(jp *p)
{
    p->i++; /* '[' */
    ws(p);
    if (p->i < p->n && p->s[p->i] == ']') {
        p->i++;
        return true;
    }
    for (;;) {
        if (!value(p))
            return false;
        ws(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == ']') {
            p->i++;
            return true;
        }
        return fail(p, "expected ',' or ']'");
    }
}

static bool value(jp *p)
{
    ws(p);
    if (p->i >= p->n)
        return fail(p, "expected a value");
    if (++p->depth > 1000)
        return fail(p, "nesting deeper than 1000");
    bool ok;
    size_t a, b;
    switch (p->s[p->i]) {
    case '{': ok = object(p); break;
    case '[': ok = array(p); break;
    case '"': ok = string(p, &a, &b); break;
    case 't': ok = literal(p, "true"); break;
    case 'f': ok = literal(p, "false"); break;
    case 'n': ok = literal(p, "null"); break;
    default: ok = number(p); break;
    }
    p->depth--;
    return ok;
}

const char *sysdesc_json_strict_check(const char *text, size_t len, size_t *offset)
{
    jp p = {.s = (const unsigned char *)text, .n = len};
    if (value(&p)) {
        ws(&p);
        if (p.i != p.n)
            fail(&p, "text after the value");
    }
    if (offset)
        *offset = p.i;
    return p.why;
}
