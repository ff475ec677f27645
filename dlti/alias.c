/* Attribute and type aliases (`#name = attribute`, `!name = type` at the
 * top of a file), resolved where they are used as MLIR resolves them: a
 * definition before its uses, each name defined once.
 *
 * A definition whose value sysdesc does not model (`#loc = loc(...)`,
 * `#set = affine_set<...>`) is no error while nothing uses it: the file
 * may hold it for ops sysdesc steps over.  A DLTI attribute that uses it
 * gets the reason. */
#include "dlti_private.h"

#include <stdlib.h>
#include <string.h>

struct dlti_alias {
    const char *name; /* in the source text, `len` bytes, without '#'/'!' */
    size_t len;
    bool is_type;
    const dlti_attr *attr;
    const dlti_type *type;
    const char *why; /* not modelled: the parser's reason; else NULL */
};

static dlti_alias *find(const dlti_parser *p, const char *name, size_t len, bool is_type)
{
    for (size_t i = 0; i < p->num_aliases; i++)
        if (p->aliases[i].is_type == is_type && p->aliases[i].len == len &&
            memcmp(p->aliases[i].name, name, len) == 0)
            return &p->aliases[i];
    return NULL;
}

int dlti_alias_define(dlti_parser *p)
{
    size_t at = p->pos;
    bool is_type = p->text[at] == '!';
    p->pos++;
    size_t id, n = dlti_bare_id(p, &id);
    const char *kind = is_type ? "type" : "attribute";
    if (find(p, p->text + id, n, is_type)) {
        dlti_parser_fail(p, at, DLTI_ERROR_SYNTAX, "redefinition of %s alias id '%.*s'", kind,
                         (int)n, p->text + id);
        return -1;
    }
    if (dlti_expect(p, '=') != 0)
        return -1;
    dlti_alias a = {p->text + id, n, is_type, NULL, NULL, NULL};
    /* The value's own errors stand, except "not modelled", kept for a use. */
    dlti_error_t local, *outer = p->err;
    memset(&local, 0, sizeof(local));
    p->err = &local;
    size_t value_at = (dlti_skip_ws(p), p->pos);
    if (is_type)
        a.type = dlti_parse_type(p);
    else
        a.attr = dlti_parse_attr(p);
    p->err = outer;
    if ((a.type || a.attr) && p->failed) { /* the value read, then a NUL byte after it */
        if (outer)
            *outer = local;
        return -1;
    }
    if (!a.type && !a.attr) {
        if (local.code != DLTI_ERROR_UNSUPPORTED) {
            if (outer)
                *outer = local;
            return -1;
        }
        char *why = bs_arena_alloc(&p->ctx->arena, strlen(local.text) + 1);
        if (!why) {
            p->failed = false;
            dlti_parser_nomem(p, at);
            return -1;
        }
        strcpy(why, local.text);
        a.why = why;
        p->failed = false;
        p->pos = value_at;
        dlti_skipped_op skipped;
        if (dlti_skip_op(p, true, &skipped) != 0)
            return -1;
    }
    if (bs_grow((void **)&p->aliases, &p->cap_aliases, p->num_aliases + 1,
                sizeof(*p->aliases)) != 0) {
        dlti_parser_nomem(p, at);
        return -1;
    }
    p->aliases[p->num_aliases++] = a;
    return 0;
}

/* The alias `name` of `len` bytes, used where its identifier ends at the
 * cursor; fails with MLIR's message (at that end) when it is undefined. */
static const dlti_alias *use(dlti_parser *p, const char *name, size_t len, bool is_type)
{
    const dlti_alias *a = find(p, name, len, is_type);
    if (!a) {
        dlti_parser_fail(p, p->pos, DLTI_ERROR_SYNTAX, "undefined symbol alias id '%.*s'",
                         (int)len, name);
        return NULL;
    }
    if (a->why) {
        dlti_parser_fail(p, p->pos, DLTI_ERROR_UNSUPPORTED, "alias %c%.*s is not supported: %s",
                         is_type ? '!' : '#', (int)len, name, a->why);
        return NULL;
    }
    return a;
}

const dlti_attr *dlti_alias_attr(dlti_parser *p, const char *name, size_t len)
{
    const dlti_alias *a = use(p, name, len, false);
    return a ? a->attr : NULL;
}

const dlti_type *dlti_alias_type(dlti_parser *p, const char *name, size_t len)
{
    const dlti_alias *a = use(p, name, len, true);
    return a ? a->type : NULL;
}

void dlti_alias_free(dlti_parser *p)
{
    free(p->aliases);
    p->aliases = NULL;
    p->num_aliases = p->cap_aliases = 0;
}
