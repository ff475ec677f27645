/* sysdesc_attach (sysdesc/attach.h): a system's DLTI attributes onto the
 * top-level module of a real MLIR file, as a list of text edits so that
 * every byte outside them stays as it was. */
#include "sysdesc_private.h"

#include "sysdesc/attach.h"

#include <stdlib.h>
#include <string.h>

/* One replacement of text[start, end) by the `len` bytes at buf + at. */
typedef struct edit {
    size_t start, end;
    size_t at, len;
} edit;

typedef struct attacher {
    const char *text;
    size_t len;
    const dlti_scope *top;
    dlti_scope_source src;
    const char *nl;       /* the file's line end: "\r\n" when it uses them */
    unsigned flags;
    bs_buf out;         /* the replacement texts, one after another */
    edit *edits;          /* one per attribute set, at most */
    size_t num_edits, cap_edits;
    size_t append_at;     /* where new attributes go in an existing dictionary */
    bool dict_empty;
    bool new_dict_open;   /* an `attributes {` was started for new ones */
} attacher;

static bool name_is(const char *name, const char *s)
{
    return strcmp(name, s) == 0;
}

/* `name = value` into the output buffer; pretty values are indented one
 * level below the module's own line. */
static void put_attr(attacher *a, const char *name, const dlti_attr *value)
{
    bs_buf_puts(&a->out, name);
    bs_buf_puts(&a->out, " = ");
    if (!(a->flags & SYSDESC_ATTACH_PRETTY)) {
        dlti_print_attr(&a->out, value, false);
        return;
    }
    size_t from = a->out.len;
    dlti_print_attr_pretty(&a->out, value, 1);
    if (a->nl[0] == '\r' && !a->out.failed) {
        /* the printer writes "\n": give the file's own line ends */
        bs_buf tmp = {0};
        for (size_t i = from; i < a->out.len; i++) {
            if (a->out.data[i] == '\n')
                bs_buf_putc(&tmp, '\r');
            bs_buf_putc(&tmp, a->out.data[i]);
        }
        a->out.len = from;
        if (tmp.data)
            bs_buf_put(&a->out, tmp.data, tmp.len);
        a->out.failed |= tmp.failed;
        free(tmp.data);
    }
}

static void add_edit(attacher *a, size_t start, size_t end, size_t at)
{
    if (a->num_edits == a->cap_edits) {
        size_t cap = a->cap_edits ? 2 * a->cap_edits : 8;
        edit *e = realloc(a->edits, cap * sizeof(*e));
        if (!e) {
            a->out.failed = true; /* out of memory, as the buffer says it */
            return;
        }
        a->edits = e;
        a->cap_edits = cap;
    }
    a->edits[a->num_edits++] = (edit){start, end, at, a->out.len - at};
}

/* Sets attribute `name` = `value`: replaces the attribute at index `old`
 * (SIZE_MAX: none) where it stands, or adds it. */
static void set_attr(attacher *a, size_t old, const char *name, const dlti_attr *value)
{
    size_t at = a->out.len;
    if (old != SIZE_MAX) {
        size_t s, e;
        dlti_scope_attr_source(a->top, old, &s, &e);
        /* MLIR head's generic form holds `dlti` among the properties
         * <{...}>, before the region: there it can only stay `dlti`. */
        if (a->src.generic && s < a->src.body_open)
            name = "dlti";
        put_attr(a, name, value);
        add_edit(a, s, e, at);
        return;
    }
    if (a->src.dict_open != SIZE_MAX) {
        if (!a->dict_empty)
            bs_buf_puts(&a->out, ", ");
        a->dict_empty = false;
        put_attr(a, name, value);
        add_edit(a, a->append_at, a->append_at, at);
        return;
    }
    /* no dictionary: one new `attributes {...}` after `module [@name]`
     * (generic form: `{...}` after the region), its entries gathered into a
     * single edit.  After an anonymous `module `, whose blank the op's
     * name ends after, it goes before the body's blank instead of after. */
    bool blank_before = !a->src.generic && !a->src.implicit && a->src.name_end > 0 &&
                        strchr(" \t\r\n", a->text[a->src.name_end - 1]);
    const char *close = blank_before ? "} " : "}";
    if (a->out.failed) {
        return; /* out of memory: nothing of it is used */
    } else if (!a->new_dict_open) {
        bs_buf_puts(&a->out, a->src.generic ? " {" : blank_before ? "attributes {" : " attributes {");
        a->new_dict_open = true;
    } else {
        a->num_edits--;
        at = a->edits[a->num_edits].at;
        a->out.len -= strlen(close);
        bs_buf_puts(&a->out, ", ");
    }
    put_attr(a, name, value);
    bs_buf_puts(&a->out, close);
    add_edit(a, a->src.name_end, a->src.name_end, at);
}

/* setDlti's rules on the entries of a container (DLTI.cpp, tested by
 * query-op-interface.mlir): an entry whose key is already there replaces
 * it in place, a new key is appended. */
static const dlti_attr *merge(dlti_context *ctx, const dlti_attr *old, const dlti_attr *add,
                              dlti_error_t *err)
{
    size_t n = dlti_attr_size(old), num_add = dlti_attr_size(add), cap = n + num_add;
    dlti_entry *v = malloc((cap ? cap : 1) * sizeof(*v));
    if (!v) {
        bs_nomem(err);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = (dlti_entry){dlti_attr_entry_key(old, i), dlti_attr_entry_value(old, i)};
    for (size_t j = 0; j < num_add; j++) {
        dlti_entry e = {dlti_attr_entry_key(add, j), dlti_attr_entry_value(add, j)};
        size_t i = 0;
        while (i < n && v[i].key != e.key)
            i++;
        if (i < n)
            v[i].value = e.value;
        else
            v[n++] = e;
    }
    const dlti_attr *r = dlti_container_build_entries(ctx, dlti_attr_get_kind(old), v, n, err, NULL);
    free(v);
    return r;
}

/* SPEC's DLTI when it is no system spec (a lenient load: a #dlti.map under a
 * name of its own, arrays of device specs), each attribute under its name:
 * one of that name already there is replaced where it stands, or with
 * --merge merged by setDlti's rules when both are maps.  The data layout
 * is the caller's (sys->dl_spec, as for a system).  0; -1 with `err` (a
 * merge's, to be placed in IN); -2 when SPEC's attribute has no name to go
 * under. */
static int set_other_dlti(dlti_context *ctx, attacher *a, const sysdesc_system *sys, size_t dl_at,
                          unsigned *did, dlti_error_t *err)
{
    const dlti_scope *from = sys->module;
    for (size_t i = 0; from && i < dlti_scope_num_attrs(from); i++) {
        const char *name = dlti_scope_attr_name(from, i);
        const dlti_attr *v = dlti_scope_attr_value(from, i);
        if (!sysdesc_is_dlti_value(v) || v == sys->dl_spec)
            continue;
        if (sd_dlti_name_misfit(name, v)) {
            bs_error_set(err, DLTI_ERROR_UNSUPPORTED,
                         "SPEC is one attribute alone that no module attribute name holds "
                         "('%s' holds its own kind): write it in a module under a name of "
                         "yours first",
                         name);
            return -2; /* SPEC's, not IN's: no place in IN */
        }
        size_t old = SIZE_MAX;
        for (size_t k = 0; k < dlti_scope_num_attrs(a->top) && old == SIZE_MAX; k++)
            if (name_is(dlti_scope_attr_name(a->top, k), name) && k != dl_at)
                old = k;
        const dlti_attr *prev = old != SIZE_MAX ? dlti_scope_attr_value(a->top, old) : NULL;
        if (prev && (a->flags & SYSDESC_ATTACH_MERGE) &&
            dlti_attr_get_kind(prev) == DLTI_ATTR_MAP && dlti_attr_get_kind(v) == DLTI_ATTR_MAP) {
            if (!(v = merge(ctx, prev, v, err)))
                return -1;
            *did |= SYSDESC_ATTACHED_MERGED_DLTI;
        } else if (prev) {
            *did |= SYSDESC_ATTACHED_REPLACED_DLTI;
        }
        set_attr(a, old, name, v);
    }
    return 0;
}

/* The file's line end: CRLF when its first line ends so. */
static const char *line_end(const char *text, size_t len)
{
    const char *nl = memchr(text, '\n', len);
    return nl && nl > text && nl[-1] == '\r' ? "\r\n" : "\n";
}

static int cmp_edit(const void *x, const void *y)
{
    const edit *a = x, *b = y;
    return (a->start > b->start) - (a->start < b->start);
}

/* The text with the edits applied (and, for an implicit module, the ops
 * wrapped); NULL when out of memory. */
static char *apply(attacher *a, size_t *out_len)
{
    bs_buf r = {0};
    qsort(a->edits, a->num_edits, sizeof(edit), cmp_edit);
    size_t pos = 0;
    if (a->src.implicit) {
        /* `module attributes {...} {` before the first op, `}` after the
         * last; the ops keep their bytes (and their indentation). */
        bs_buf_put(&r, a->text, a->src.body_open);
        bs_buf_puts(&r, "module");
        for (size_t i = 0; i < a->num_edits; i++)
            bs_buf_put(&r, a->out.data + a->edits[i].at, a->edits[i].len);
        bs_buf_puts(&r, " {");
        bs_buf_puts(&r, a->nl);
        bs_buf_put(&r, a->text + a->src.body_open, a->src.body_close - a->src.body_open);
        bs_buf_puts(&r, a->nl);
        bs_buf_putc(&r, '}');
        pos = a->src.body_close;
        if (pos == a->len)
            bs_buf_puts(&r, a->nl);
    } else {
        for (size_t i = 0; i < a->num_edits; i++) {
            const edit *e = &a->edits[i];
            bs_buf_put(&r, a->text + pos, e->start - pos);
            bs_buf_put(&r, a->out.data + e->at, e->len);
            pos = e->end;
        }
    }
    bs_buf_put(&r, a->text + pos, a->len - pos);
    if (r.failed || !r.data) {
        free(r.data);
        return NULL;
    }
    *out_len = r.len;
    return r.data;
}

char *sysdesc_attach(dlti_context *ctx, const char *text, size_t len, const char *source,
                     const sysdesc_system *sys, const dlti_attr *llvm_target, unsigned flags,
                     unsigned *what, size_t *out_len, dlti_error_t *err)
{
    bs_error_clear(err);
    unsigned did = 0;
    if (what)
        *what = 0;
    const dlti_scope *top = dlti_parse(ctx, text, len, source, err);
    if (!top)
        return NULL;
    attacher a = {.text = text, .len = len, .top = top, .flags = flags};
    if (dlti_scope_get_source(top, &a.src) != 0) {
        bs_error_set_at(err, DLTI_ERROR_UNSUPPORTED, source, 0, 0,
                        "the file is one bare attribute, not a module: nothing to attach to");
        return NULL;
    }
    if (a.src.implicit && a.src.interleaved) {
        bs_error_set_at(err, DLTI_ERROR_UNSUPPORTED, source, 0, 0,
                        "the file's top-level operations are not in a module and alias "
                        "definitions lie between them: wrap them in `module { ... }` first");
        return NULL;
    }
    if (a.src.implicit && a.src.body_open == a.src.body_close) {
        bs_error_set_at(err, DLTI_ERROR_UNSUPPORTED, source, 0, 0,
                        "the file holds no operation: nothing to attach to");
        return NULL;
    }
    a.nl = line_end(text, len);
    /* The roles already filled, by attribute index. */
    size_t spec_at = SIZE_MAX, dl_at = SIZE_MAX, target_at = SIZE_MAX;
    size_t n = dlti_scope_num_attrs(top);
    a.dict_empty = n == 0;
    a.append_at = a.src.dict_open != SIZE_MAX ? a.src.dict_open + 1 : SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const char *name = dlti_scope_attr_name(top, i);
        dlti_attr_kind kind = dlti_attr_get_kind(dlti_scope_attr_value(top, i));
        size_t s, e;
        dlti_scope_attr_source(top, i, &s, &e);
        if (e > a.append_at || a.append_at == SIZE_MAX)
            a.append_at = e;
        if (kind == DLTI_ATTR_SYSTEM_SPEC &&
            (name_is(name, "dlti.target_system_spec") || name_is(name, "dlti")))
            spec_at = i;
        else if (kind == DLTI_ATTR_DL_SPEC)
            dl_at = i;
        else if (name_is(name, "llvm.target"))
            target_at = i;
    }
    /* One inherent `dlti` per op: a map or dl_spec there already leaves
     * no room for the system spec in the head's form. */
    for (size_t i = 0; (flags & SYSDESC_ATTACH_INHERENT) && i < n; i++)
        if (i != spec_at && name_is(dlti_scope_attr_name(top, i), "dlti")) {
            bs_error_set_at(err, DLTI_ERROR_UNSUPPORTED, source, 0, 0,
                            "the module's inherent `dlti` attribute holds another DLTI "
                            "attribute: attach without --inherent-dlti");
            free(a.edits);
            return NULL;
        }
    int rc;
    if (sys->spec) {
        const dlti_attr *spec = sys->spec;
        if (spec_at != SIZE_MAX && (flags & SYSDESC_ATTACH_MERGE)) {
            spec = merge(ctx, dlti_scope_attr_value(top, spec_at), sys->spec, err);
            if (!spec) {
                bs_error_place(err, source, 0, 0);
                free(a.edits);
                return NULL;
            }
            did |= SYSDESC_ATTACHED_MERGED_SPEC;
        } else if (spec_at != SIZE_MAX) {
            did |= SYSDESC_ATTACHED_REPLACED_SPEC;
        }
        set_attr(&a, spec_at,
                 (flags & SYSDESC_ATTACH_INHERENT) ? "dlti" : "dlti.target_system_spec", spec);
    } else if ((rc = set_other_dlti(ctx, &a, sys, dl_at, &did, err)) != 0) {
        if (rc == -1)
            bs_error_place(err, source, 0, 0);
        free(a.out.data);
        free(a.edits);
        return NULL;
    }
    if (sys->dl_spec) {
        did |= dl_at != SIZE_MAX ? SYSDESC_ATTACHED_REPLACED_DL_SPEC : 0;
        set_attr(&a, dl_at, "dlti.dl_spec", sys->dl_spec);
    }
    if (llvm_target) {
        did |= target_at != SIZE_MAX ? SYSDESC_ATTACHED_REPLACED_TARGET : 0;
        set_attr(&a, target_at, "llvm.target", llvm_target);
    }
    if (a.src.implicit)
        did |= SYSDESC_ATTACHED_WRAPPED;
    char *r = a.out.failed ? NULL : apply(&a, out_len);
    free(a.out.data);
    free(a.edits);
    if (!r) {
        bs_nomem(err);
        return NULL;
    }
    /* What we write, we read back: the result must parse, with the spec. */
    dlti_error_t again;
    const dlti_scope *check = dlti_parse(ctx, r, *out_len, source, &again);
    if (!check && (again.code == DLTI_ERROR_NOMEM || again.code == DLTI_ERROR_LIMIT)) {
        *err = again; /* the budget, not the text, stopped the read */
        free(r);
        return NULL;
    }
    if (!check) {
        bs_error_set(err, DLTI_ERROR_VERIFY, "attach made a file it cannot read (%s:%d:%d: %s)",
                     source, again.line, again.column, again.text);
        free(r);
        return NULL;
    }
    if (what)
        *what = did;
    return r;
}

char *sysdesc_attach_file(dlti_context *ctx, const char *path, const sysdesc_system *sys,
                          const dlti_attr *llvm_target, unsigned flags, unsigned *what,
                          size_t *out_len, dlti_error_t *err)
{
    bs_error_clear(err);
    size_t len;
    char *text = bs_read_file(path, dlti_context_get_limits(ctx).max_input_bytes, &len, err);
    if (!text)
        return NULL;
    char *r = sysdesc_attach(ctx, text, len, strcmp(path, "-") ? path : "<stdin>", sys,
                             llvm_target, flags, what, out_len, err);
    free(text);
    return r;
}
