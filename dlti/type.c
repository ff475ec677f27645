/* Builtin and dialect types: the ones the library makes, and their
 * accessors (parse_type.c reads them from text). */
#include "dlti_private.h"

#include <stdio.h>
#include <string.h>

/* The builtin types the library makes itself, interned as the parser
 * interns their spelling. */
const dlti_type *dlti_type_integer(dlti_context *ctx, unsigned width, dlti_signedness s)
{
    if (width > DLTI_MAX_INT_WIDTH)
        return NULL;
    char name[24];
    snprintf(name, sizeof(name), "%s%u", s == DLTI_SIGNED ? "si" : s == DLTI_UNSIGNED ? "ui" : "i",
             width);
    dlti_type proto = {.kind = DLTI_TYPE_INTEGER, .sign = s, .width = width, .float_kind = -1};
    return dlti_type_intern(ctx, &proto, name, strlen(name));
}

const dlti_type *dlti_type_index(dlti_context *ctx)
{
    dlti_type proto = {.kind = DLTI_TYPE_INDEX, .float_kind = -1};
    return dlti_type_intern(ctx, &proto, "index", 5);
}

const dlti_type *dlti_type_f64(dlti_context *ctx)
{
    return ctx->f64;
}

const char *dlti_type_str(const dlti_type *type)
{
    return type->text;
}

dlti_type_kind dlti_type_get_kind(const dlti_type *type)
{
    return type->kind;
}

unsigned dlti_type_int_width(const dlti_type *type)
{
    return type->kind == DLTI_TYPE_INTEGER ? type->width : 0;
}

dlti_signedness dlti_type_int_signedness(const dlti_type *type)
{
    return type->sign;
}

int dlti_type_float_format(const dlti_type *type)
{
    return type->kind == DLTI_TYPE_FLOAT ? type->float_kind : -1;
}

unsigned dlti_type_float_width(const dlti_type *type)
{
    return type->kind == DLTI_TYPE_FLOAT ? type->width : 0;
}

const dlti_type *dlti_type_element(const dlti_type *type)
{
    return type->elem;
}

int dlti_type_rank(const dlti_type *type)
{
    return type->rank;
}

int64_t dlti_type_dim(const dlti_type *type, int i)
{
    return (i >= 0 && i < type->rank) ? type->dims[i] : 0;
}

bool dlti_type_dim_scalable(const dlti_type *type, int i)
{
    return i >= 0 && i < type->rank && type->scalable && type->scalable[i];
}

size_t dlti_dense_num_elements(const dlti_type *t)
{
    if (t->rank < 0)
        return 0;
    size_t n = 1;
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return 0;
        if (t->dims[i] && n > SIZE_MAX / (size_t)t->dims[i])
            return 0;
        n *= (size_t)t->dims[i];
    }
    return n;
}

bool dlti_llvm_ptr_space(const dlti_type *t, uint64_t *as)
{
    /* parse_dialect_type canonicalised the pointer and kept its space in width. */
    if (t->kind != DLTI_TYPE_DIALECT || t->text_len < 9 || memcmp(t->text, "!llvm.ptr", 9) != 0 ||
        (t->text[9] != '\0' && t->text[9] != '<'))
        return false;
    *as = t->width;
    return true;
}
