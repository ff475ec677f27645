/* Size and alignment of builtin types, as mlir::detail::getDefault* and
 * LLVMPointerType, LLVMStructType and LLVMArrayType compute them in MLIR 22,
 * with overflow reported instead of wrapping. */
#include "dlti_private.h"

#include <string.h>

static int overflow(const dlti_type *t, dlti_error_t *err)
{
    bs_error_set(err, DLTI_ERROR_RANGE, "the size of %s does not fit in 64 bits", t->text);
    return -1;
}

static bool mul_ok(uint64_t a, uint64_t b, uint64_t *r)
{
    if (a && b > UINT64_MAX / a)
        return false;
    *r = a * b;
    return true;
}

/* llvm::PowerOf2Ceil (0 stays 0); false when the result needs 65 bits. */
static bool pow2ceil(uint64_t x, uint64_t *r)
{
    if (x > (UINT64_C(1) << 63))
        return false;
    uint64_t p = 1;
    while (p < x)
        p <<= 1;
    *r = x ? p : 0;
    return true;
}

static uint64_t bytes_of(uint64_t bits)
{
    return bits / 8 + (bits % 8 != 0);
}

static void int_layout(const dlti_layout *L, uint64_t w, dlti_type_layout *out)
{
    memset(out, 0, sizeof(*out));
    out->bitsize = w;
    out->size = bytes_of(w);
    if (L->num_ints == 0) {
        uint64_t p2 = 0;
        pow2ceil(out->size, &p2); /* size <= 2^61: fits */
        out->abi_alignment = w < 64 ? p2 : 4;
        out->preferred_alignment = p2;
        return;
    }
    /* findEntryForIntegerType: the narrowest entry at least as wide, else the widest. */
    size_t lo = 0, hi = L->num_ints;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (L->ints[mid].width < w)
            lo = mid + 1;
        else
            hi = mid;
    }
    const dlti_int_entry *e = &L->ints[lo < L->num_ints ? lo : L->num_ints - 1];
    out->abi_alignment = e->abi / 8;
    out->preferred_alignment = e->pref / 8;
}

static void float_layout(const dlti_layout *L, const dlti_type *t, dlti_type_layout *out)
{
    memset(out, 0, sizeof(*out));
    out->bitsize = t->width;
    out->size = bytes_of(t->width);
    const dlti_attr *e = t->float_kind >= 0 && t->float_kind < DLTI_FLOAT_KIND_COUNT
                             ? L->floats[t->float_kind]
                             : NULL;
    uint64_t abi, pref;
    if (e && dlti_dense_u64(e, 0, &abi) && dlti_dense_u64(e, dlti_dense_len(e) - 1, &pref)) {
        out->abi_alignment = abi / 8;
        out->preferred_alignment = pref / 8;
        return;
    }
    out->abi_alignment = 0;
    pow2ceil(out->size, &out->abi_alignment);
    out->preferred_alignment = out->abi_alignment;
}

static void ptr_layout(const dlti_layout *L, uint64_t as, dlti_type_layout *out)
{
    memset(out, 0, sizeof(*out));
    const dlti_ptr_entry *e = NULL;
    for (size_t i = 0; i < L->num_ptrs && !e; i++)
        if (L->ptrs[i].as == as)
            e = &L->ptrs[i];
    if (!e && as != 0) {
        /* Other spaces without an entry take the default space's layout. */
        ptr_layout(L, 0, out);
        return;
    }
    out->bitsize = e ? e->size : 64;
    out->size = bytes_of(out->bitsize);
    out->abi_alignment = e ? e->abi / 8 : 8;
    out->preferred_alignment = e ? e->pref / 8 : 8;
    out->index_bitwidth = e ? e->idx : 64;
}

/* The #ptr.spec entry of exactly the pointer type `t` (its memory space
 * attribute, not an address space number, decides). */
static bool ptr_spec_entry(const dlti_layout *L, const dlti_type *t, uint32_t v[4])
{
    for (size_t i = 0; i < L->n; i++)
        if (L->entries[i].key->type == t)
            return dlti_ptr_spec_values(L->entries[i].value, v);
    return false;
}

/* Whether `t`, a !ptr.ptr, points into memory space `space`: the text
 * between `!ptr.ptr<` and its last '>' is the space's canonical text. */
static bool ptr_points_into(const dlti_type *t, const dlti_attr *space)
{
    size_t n = space->u.str.len;
    return t->text_len == 9 + n + 1 && memcmp(t->text + 9, space->u.str.s, n) == 0;
}

/* !ptr.ptr<SPACE> as MLIR 22's PtrType answers: its own #ptr.spec (the
 * alignments in whole bytes; no `index`: the size); else, when the scope's
 * `dlti.default_memory_space` is another memory space, the pointer into
 * that space (its spec, or the defaults); else the ptr dialect's defaults,
 * 64 bits aligned at 1 byte (its default alignment of 8 is read as bits). */
static void ptr_dialect_layout(const dlti_layout *L, const dlti_type *t, dlti_type_layout *out)
{
    memset(out, 0, sizeof(*out));
    uint32_t v[4];
    bool found = ptr_spec_entry(L, t, v);
    const dlti_attr *def = L->props[DLTI_LAYOUT_DEFAULT_MEMORY_SPACE];
    if (!found && dlti_is_memory_space(def) && !ptr_points_into(t, def)) {
        for (size_t i = 0; i < L->n && !found; i++) {
            const dlti_type *k = L->entries[i].key->type;
            if (k && strncmp(k->text, "!ptr.ptr<", 9) == 0 && ptr_points_into(k, def))
                found = dlti_ptr_spec_values(L->entries[i].value, v);
        }
    }
    if (!found) {
        v[0] = 64, v[1] = v[2] = 8, v[3] = 64;
    }
    out->bitsize = v[0];
    out->size = bytes_of(v[0]);
    out->abi_alignment = v[1] / 8;
    out->preferred_alignment = v[2] / 8;
    out->index_bitwidth = v[3] == UINT32_MAX ? v[0] : v[3];
}

static int vector_layout(const dlti_layout *L, const dlti_type *t, dlti_type_layout *out,
                         dlti_error_t *err)
{
    if (t->rank <= 0) {
        /* shape().back() of a 0-d vector: mlir-opt-22 crashes. */
        bs_error_set(err, DLTI_ERROR_UNSUPPORTED,
                     "0-d vector %s has no data layout (its innermost dimension is undefined)",
                     t->text);
        return -1;
    }
    dlti_type_layout elem;
    if (dlti_layout_query(L, t->elem, &elem, err) != 0)
        return -1;
    uint64_t outer = 1, inner = (uint64_t)t->dims[t->rank - 1], inner2, bits;
    bool scalable = false;
    for (int i = 0; i < t->rank; i++) {
        scalable = scalable || (t->scalable && t->scalable[i]);
        if (i + 1 < t->rank && !mul_ok(outer, (uint64_t)t->dims[i], &outer))
            return overflow(t, err);
    }
    /* getNumElements() is an int64_t product in MLIR. */
    uint64_t num;
    if (!mul_ok(outer, inner, &num) || num > (uint64_t)INT64_MAX)
        return overflow(t, err);
    if (!pow2ceil(inner, &inner2) || !mul_ok(outer, inner2, &bits) ||
        !mul_ok(bits, elem.size, &bits) || !mul_ok(bits, 8, &bits))
        return overflow(t, err);
    memset(out, 0, sizeof(*out));
    out->bitsize = bits;
    out->size = bytes_of(bits);
    out->scalable = scalable;
    if (!pow2ceil(out->size, &out->abi_alignment))
        return overflow(t, err);
    out->preferred_alignment = out->abi_alignment;
    return 0;
}

/* getDefault* called with the complex type's (empty) entry list: integers
 * and the ABI alignment of floats ignore the spec, everything else asks the
 * layout. */
static int noparams_layout(const dlti_layout *L, const dlti_type *t, dlti_type_layout *out,
                           dlti_error_t *err)
{
    switch (t->kind) {
    case DLTI_TYPE_INTEGER: {
        memset(out, 0, sizeof(*out));
        out->bitsize = t->width;
        out->size = bytes_of(t->width);
        uint64_t p2 = 0;
        pow2ceil(out->size, &p2);
        out->abi_alignment = t->width < 64 ? p2 : 4;
        out->preferred_alignment = p2;
        return 0;
    }
    case DLTI_TYPE_FLOAT: {
        dlti_type_layout full;
        float_layout(L, t, &full);
        memset(out, 0, sizeof(*out));
        out->bitsize = t->width;
        out->size = bytes_of(t->width);
        out->abi_alignment = 0;
    pow2ceil(out->size, &out->abi_alignment);
        out->preferred_alignment = full.abi_alignment;
        return 0;
    }
    case DLTI_TYPE_INDEX:
        int_layout(L, 64, out);
        return 0;
    case DLTI_TYPE_COMPLEX: {
        dlti_type_layout e;
        if (noparams_layout(L, t->elem, &e, err) != 0)
            return -1;
        uint64_t align = e.preferred_alignment * 8, bits = e.bitsize;
        if (align > 1 && bits % align)
            bits += align - bits % align;
        if (bits > UINT64_MAX - e.bitsize)
            return overflow(t, err);
        memset(out, 0, sizeof(*out));
        out->bitsize = bits + e.bitsize;
        out->size = bytes_of(out->bitsize);
        out->abi_alignment = e.abi_alignment;
        out->preferred_alignment = e.preferred_alignment;
        return 0;
    }
    default:
        return dlti_layout_query(L, t, out, err);
    }
}

static uint64_t align_to(uint64_t x, uint64_t a, bool *ok)
{
    if (a <= 1 || x % a == 0)
        return x;
    if (x > UINT64_MAX - (a - x % a))
        *ok = false;
    return x + (a - x % a);
}

/* The alignment (bytes) the !llvm.struct<()> entry sets: its ABI value, or
 * its preferred one when it gives one (getStructDataLayoutEntry). */
static uint64_t struct_entry_align(const dlti_layout *L, bool preferred)
{
    uint64_t v = 0;
    const dlti_attr *e = L->llvm_struct;
    size_t n = e ? dlti_dense_len(e) : 0;
    if (n && !dlti_dense_u64(e, preferred && n > 1 ? 1 : 0, &v))
        v = 0;
    return v / 8;
}

/* LLVMStructType and LLVMArrayType's DataLayoutTypeInterface in MLIR 22:
 * members at their ABI alignment (1 when packed), the size padded to the
 * struct's own; an array is its element's padded size times the count. */
static int llvm_aggregate_layout(const dlti_layout *L, const dlti_type *t, dlti_type_layout *out,
                                 dlti_error_t *err)
{
    dlti_type_layout m;
    bool ok = true;
    memset(out, 0, sizeof(*out));
    if (t->llvm_aggregate == DLTI_LLVM_ARRAY) {
        if (dlti_layout_query(L, t->elem, &m, err) != 0)
            return -1;
        uint64_t size;
        if (!mul_ok(align_to(m.size, m.abi_alignment, &ok), t->array_len, &size) || !ok ||
            !mul_ok(size, 8, &out->bitsize))
            return overflow(t, err);
        out->size = size;
        out->abi_alignment = m.abi_alignment;
        out->preferred_alignment = m.preferred_alignment;
        return 0;
    }
    uint64_t size = 0, packing = 1, strictest = 1;
    for (size_t i = 0; i < t->num_members; i++) {
        if (dlti_layout_query(L, t->members[i], &m, err) != 0)
            return -1;
        uint64_t a = t->packed ? 1 : m.abi_alignment;
        size = align_to(size, a, &ok);
        if (size > UINT64_MAX - m.size)
            ok = false;
        size += m.size;
        packing = a > packing ? a : packing;
        strictest = m.abi_alignment > strictest ? m.abi_alignment : strictest;
    }
    size = align_to(size, packing, &ok);
    if (!ok || !mul_ok(size, 8, &out->bitsize))
        return overflow(t, err);
    out->size = size;
    uint64_t abi = struct_entry_align(L, false), pref = struct_entry_align(L, true);
    out->abi_alignment = t->packed ? 1 : abi > strictest ? abi : strictest;
    out->preferred_alignment = pref > strictest ? pref : strictest;
    return 0;
}

int dlti_layout_compute(const dlti_layout *L, const dlti_type *t, dlti_type_layout *out,
                        dlti_error_t *err)
{
    uint64_t as;
    switch (t->kind) {
    case DLTI_TYPE_INTEGER:
        int_layout(L, t->width, out);
        return 0;
    case DLTI_TYPE_INDEX:
        int_layout(L, L->index_bits, out);
        out->index_bitwidth = L->index_bits;
        return 0;
    case DLTI_TYPE_FLOAT:
        float_layout(L, t, out);
        return 0;
    case DLTI_TYPE_VECTOR:
        return vector_layout(L, t, out, err);
    case DLTI_TYPE_COMPLEX:
        return noparams_layout(L, t, out, err);
    case DLTI_TYPE_DIALECT:
        if (dlti_llvm_ptr_space(t, &as)) {
            ptr_layout(L, as, out);
            return 0;
        }
        if (t->llvm_aggregate)
            return llvm_aggregate_layout(L, t, out, err);
        if (strncmp(t->text, "!ptr.ptr<", 9) == 0) {
            ptr_dialect_layout(L, t, out);
            return 0;
        }
        break;
    default:
        break;
    }
    bs_error_set(err, DLTI_ERROR_UNSUPPORTED,
                 "neither the scoping op nor the type class provide data layout information "
                 "for %s",
                 t->text);
    return -1;
}
