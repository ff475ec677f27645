/* Skipping operations sysdesc does not model (func.func, gpu.module, generic
 * "foo.bar"() ({...}) ops, ...) in a module body or at the top of a file.
 *
 * MLIR has no op terminator: each op's own parser knows where it ends.  We
 * do not know their grammars, so an op ends where, at bracket depth 0, the
 * region closes (`}`) or a new line starts with something only an op can
 * start with: a result `%`, a generic name `"`, a dotted op name
 * (`func.func`), `module`, or at the top of a file an alias definition or
 * `{-#` metadata.  Strings, `//` comments and ( [ { < brackets are followed,
 * so braces in strings and the regions of functions never end an op early.
 *
 * Everything inside a skipped op is opaque, except that a `#dlti.` attribute
 * or a `dlti.*` name there is noted (dlti_at): parse_op.c reads such an op
 * again, or it is named as an op sysdesc could not place, never a silently
 * ignored (wrong) answer. */
#include "dlti_private.h"

#include <stdlib.h>
#include <string.h>

static bool at_word(const dlti_parser *p, size_t at, const char *w)
{
    size_t n = strlen(w);
    return p->len - at >= n && memcmp(p->text + at, w, n) == 0 &&
           (p->len - at == n || !dlti_is_id_char((unsigned char)p->text[at + n]));
}

bool dlti_at_module_op(const dlti_parser *p, size_t at)
{
    return at_word(p, at, "module") || at_word(p, at, "builtin.module");
}

/* `#name =` or `!name =`: an alias definition (top of a file only). */
bool dlti_at_alias_def(const dlti_parser *p, size_t at)
{
    if (at >= p->len || (p->text[at] != '#' && p->text[at] != '!'))
        return false;
    size_t i = at + 1;
    if (i >= p->len || !dlti_is_id_start((unsigned char)p->text[i]))
        return false;
    while (i < p->len && dlti_is_id_char((unsigned char)p->text[i]))
        i++;
    while (i < p->len && (p->text[i] == ' ' || p->text[i] == '\t'))
        i++;
    return i < p->len && p->text[i] == '=' && (i + 1 >= p->len || p->text[i + 1] != '=');
}

bool dlti_at_metadata(const dlti_parser *p, size_t at)
{
    return p->len - at >= 3 && memcmp(p->text + at, "{-#", 3) == 0;
}

/* Whether the token at `at`, first on its line, can only start an op. */
bool dlti_op_starts(const dlti_parser *p, size_t at, bool top)
{
    unsigned char c = (unsigned char)p->text[at];
    if (c == '%' || c == '"')
        return true;
    if (top && (dlti_at_alias_def(p, at) || dlti_at_metadata(p, at)))
        return true;
    if (!dlti_is_id_start(c))
        return false;
    size_t i = at;
    bool dotted = false;
    while (i < p->len && dlti_is_id_char((unsigned char)p->text[i]))
        dotted |= p->text[i++] == '.';
    return dotted || dlti_at_module_op(p, at);
}

/* The op's name for messages: the generic "name", the bare name, or the
 * name after `%results =`. */
static void op_name(const dlti_parser *p, size_t at, const char **name, size_t *len)
{
    const char *t = p->text;
    size_t i = at, n = p->len;
    if (t[i] == '%') {
        while (i < n && t[i] != '=' && t[i] != '\n')
            i++;
        i++;
        while (i < n && (t[i] == ' ' || t[i] == '\t'))
            i++;
    }
    size_t s = i;
    if (i < n && t[i] == '"') {
        s = ++i;
        while (i < n && t[i] != '"' && t[i] != '\n')
            i++;
    } else {
        while (i < n && (dlti_is_id_char((unsigned char)t[i]) || t[i] == '#' || t[i] == '!' ||
                         t[i] == '{' || t[i] == '-'))
            i++;
    }
    if (i == s) /* nothing we can name: show the first character */
        i = s < n ? s + 1 : s;
    *name = t + s;
    *len = i - s > 60 ? 60 : i - s;
}

int dlti_skip_string(dlti_parser *p)
{
    size_t start = p->pos++;
    while (p->pos < p->len) {
        char c = p->text[p->pos];
        if (c == '"') {
            p->pos++;
            return 0;
        }
        if (c == '\n' || c == '\r' || c == '\0')
            break;
        p->pos += c == '\\' && p->pos + 1 < p->len ? 2 : 1;
    }
    dlti_parser_fail(p, start, DLTI_ERROR_SYNTAX, "expected '\"' in string literal");
    return -1;
}

static char closer_of(char open)
{
    return open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : '>';
}

int dlti_skip_op(dlti_parser *p, bool top, dlti_skipped_op *out)
{
    dlti_skip_ws(p);
    size_t at = p->pos;
    const char *name;
    size_t name_len;
    op_name(p, at, &name, &name_len);
    out->offset = at;
    out->name = name;
    out->name_len = name_len;
    out->dlti_at = SIZE_MAX;
    /* Open brackets: '<' may be a comparison in an op's custom syntax, so a
     * closer that does not match drops the '<'s above its opener. */
    size_t cap = 0, depth = 0;
    char *stack = NULL;
    bool first = true, newline = false, gap = false;
    size_t end = at; /* after the op's last token: blanks and comments stay out */
    int rc = 0;
    while (p->pos < p->len) {
        if (!gap)
            end = p->pos;
        char c = p->text[p->pos];
        if (c == '\n' || c == ' ' || c == '\t' || c == '\r') {
            newline |= c == '\n';
            gap = true;
            p->pos++;
            continue;
        }
        if (c == '/' && p->pos + 1 < p->len && p->text[p->pos + 1] == '/') {
            gap = true;
            while (p->pos < p->len && p->text[p->pos] != '\n')
                p->pos++;
            continue;
        }
        if (c == '\0') {
            dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "unexpected NUL byte in input");
            rc = -1;
            break;
        }
        if (depth == 0 && !first && (c == '}' || (newline && dlti_op_starts(p, p->pos, top))))
            break;
        first = newline = gap = false;
        if (c == '"') {
            if (dlti_skip_string(p) != 0) {
                rc = -1;
                break;
            }
            continue;
        }
        if (c == '#' && p->len - p->pos >= 6 && memcmp(p->text + p->pos, "#dlti.", 6) == 0) {
            /* the op is read again by parse_op.c, which knows where its
             * attributes and regions are (or says it cannot) */
            if (out->dlti_at == SIZE_MAX)
                out->dlti_at = p->pos;
            p->pos += 6;
            continue;
        }
        bool open = c == '(' || c == '[' || c == '{' ||
                    (c == '<' && !(p->pos + 1 < p->len && p->text[p->pos + 1] == '='));
        if (open) {
            if (depth >= p->ctx->limits.max_depth) {
                dlti_parser_fail(p, p->pos, DLTI_ERROR_LIMIT, "nesting deeper than the limit of %u",
                                 p->ctx->limits.max_depth);
                rc = -1;
                break;
            }
            if (bs_grow((void **)&stack, &cap, depth + 1, 1) != 0) {
                dlti_parser_nomem(p, p->pos);
                rc = -1;
                break;
            }
            stack[depth++] = c;
            p->pos++;
            continue;
        }
        if (c == '>') {
            bool arrow = p->pos > 0 && p->text[p->pos - 1] == '-';
            if (!arrow && depth && stack[depth - 1] == '<')
                depth--;
            p->pos++;
            continue;
        }
        if (c == ')' || c == ']' || c == '}') {
            size_t d = depth;
            while (d && stack[d - 1] == '<')
                d--;
            if (!d || closer_of(stack[d - 1]) != c) {
                dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX,
                                 "unbalanced '%c' in operation '%.*s'", c, (int)name_len, name);
                rc = -1;
                break;
            }
            depth = d - 1;
            p->pos++;
            continue;
        }
        if (dlti_is_id_start((unsigned char)c)) {
            /* A `dlti.*` attribute name (not a value's or type's name) is for
             * the DLTI dialect to verify, whatever its value: read again. */
            char before = p->pos > 0 ? p->text[p->pos - 1] : ' ';
            if (out->dlti_at == SIZE_MAX && p->len - p->pos > 5 &&
                memcmp(p->text + p->pos, "dlti.", 5) == 0 &&
                !dlti_is_id_char((unsigned char)before) && !strchr("%^@#!.$", before))
                out->dlti_at = p->pos;
            while (p->pos < p->len && dlti_is_id_char((unsigned char)p->text[p->pos]))
                p->pos++;
            continue;
        }
        p->pos++;
    }
    if (rc == 0 && depth) {
        size_t d = depth;
        while (d > 1 && stack[d - 1] == '<')
            d--;
        dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX,
                         "operation '%.*s' is not closed: expected '%c' before the end of the input",
                         (int)name_len, name, closer_of(stack[d - 1]));
        rc = -1;
    }
    out->end = gap ? end : p->pos;
    free(stack);
    return rc;
}
