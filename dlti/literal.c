/* Integer literals of any width: MLIR's buildAttributeAPInt, and decimal printing. */
#include "dlti_private.h"

#include <stdlib.h>
#include <string.h>

/* Magnitude of a decimal or 0x-hex literal as little-endian words (malloc'ed).
 * Arithmetic runs on 32-bit limbs so that no 128-bit type is needed. */
static uint64_t *parse_magnitude(const char *s, size_t n, bool hex, size_t *nwords)
{
    size_t digits = hex ? n - 2 : n;
    size_t limbs = digits * 4 / 32 + 2;
    uint32_t *l = calloc(limbs, sizeof(uint32_t));
    if (!l)
        return NULL;
    size_t used = 1;
    unsigned mul = hex ? 16 : 10;
    for (size_t i = hex ? 2 : 0; i < n; i++) {
        char c = s[i];
        uint64_t carry = (c >= '0' && c <= '9')   ? (uint64_t)(c - '0')
                         : (c >= 'a' && c <= 'f') ? (uint64_t)(c - 'a' + 10)
                                                  : (uint64_t)(c - 'A' + 10);
        for (size_t k = 0; k < used; k++) {
            uint64_t v = (uint64_t)l[k] * mul + carry;
            l[k] = (uint32_t)v;
            carry = v >> 32;
        }
        if (carry && used < limbs)
            l[used++] = (uint32_t)carry;
    }
    size_t nw = (used + 1) / 2;
    uint64_t *w = calloc(nw, sizeof(uint64_t));
    if (w)
        for (size_t k = 0; k < used; k++)
            w[k / 2] |= (uint64_t)l[k] << (32 * (k % 2));
    free(l);
    *nwords = nw;
    return w;
}

static size_t significant_bits(const uint64_t *w, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (w[i])
            return i * 64 + 64 - (size_t)__builtin_clzll(w[i]);
    return 0;
}

static void negate(uint64_t *w, size_t n)
{
    uint64_t carry = 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = ~w[i] + carry;
        carry = carry && v == 0;
        w[i] = v;
    }
}

/* Decimal literals of up to 19 digits fit a uint64_t: no bignum needed. */
static bool small_decimal(const char *s, size_t n, uint64_t *v)
{
    if (n > 19 || (n > 1 && s[1] == 'x'))
        return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++)
        x = x * 10 + (uint64_t)(s[i] - '0');
    *v = x;
    return true;
}

int dlti_int_literal_small(const char *s, size_t n, bool negative, unsigned width, bool is_signed,
                           uint64_t *out)
{
    uint64_t mag;
    if (width == 0 || width > 64 || !small_decimal(s, n, &mag))
        return DLTI_LIT_NOMEM; /* not handled here: use dlti_int_literal */
    uint64_t mask = width == 64 ? UINT64_MAX : (((uint64_t)1 << width) - 1);
    if (mag & ~mask)
        return DLTI_LIT_RANGE;
    uint64_t sign = (uint64_t)1 << (width - 1);
    if (negative) {
        uint64_t v = (0 - mag) & mask;
        if (!(v & sign)) /* MLIR: the negated value must have its sign bit set */
            return DLTI_LIT_RANGE;
        *out = v;
    } else {
        if (is_signed && (mag & sign))
            return DLTI_LIT_RANGE;
        *out = mag;
    }
    return DLTI_LIT_OK;
}

int dlti_int_literal(const char *s, size_t n, bool negative, unsigned width, bool is_signed,
                     uint64_t **out, size_t *out_words)
{
    bool hex = n > 1 && s[1] == 'x';
    size_t mw;
    uint64_t *mag = parse_magnitude(s, n, hex, &mw);
    if (!mag)
        return DLTI_LIT_NOMEM;
    size_t nw = width <= 64 ? 1 : ((size_t)width + 63) / 64;
    if (significant_bits(mag, mw) > width) {
        free(mag);
        return DLTI_LIT_RANGE;
    }
    uint64_t *w = calloc(nw, sizeof(uint64_t));
    if (!w) {
        free(mag);
        return DLTI_LIT_NOMEM;
    }
    memcpy(w, mag, (mw < nw ? mw : nw) * sizeof(uint64_t));
    free(mag);
    bool sign_set = width > 0 && ((w[(width - 1) / 64] >> ((width - 1) % 64)) & 1);
    if (width == 0) {
        if (negative) {
            free(w);
            return DLTI_LIT_RANGE;
        }
    } else if (negative) {
        negate(w, nw);
        if (width % 64)
            w[nw - 1] &= ((uint64_t)1 << (width % 64)) - 1;
        /* MLIR: the negated value must have its sign bit set (so -0 is rejected). */
        if (!((w[(width - 1) / 64] >> ((width - 1) % 64)) & 1)) {
            free(w);
            return DLTI_LIT_RANGE;
        }
    } else if (is_signed && sign_set) {
        free(w);
        return DLTI_LIT_RANGE;
    }
    *out = w;
    *out_words = nw;
    return DLTI_LIT_OK;
}

void dlti_print_words(bs_buf *b, const uint64_t *words, size_t nwords, unsigned width,
                      bool is_signed)
{
    if (nwords == 1 && width <= 64) {
        uint64_t v = words[0];
        if (!is_signed || width == 0) {
            bs_buf_put_u64(b, v);
            return;
        }
        if (width < 64 && ((v >> (width - 1)) & 1))
            v |= ~(((uint64_t)1 << width) - 1); /* sign-extend */
        bs_buf_put_i64(b, (int64_t)v);
        return;
    }
    uint64_t *w = malloc(nwords * sizeof(uint64_t));
    char *digits = malloc(nwords * 20 + 2);
    if (!w || !digits) {
        free(w);
        free(digits);
        b->failed = true;
        return;
    }
    memcpy(w, words, nwords * sizeof(uint64_t));
    bool neg = is_signed && width > 0 && ((w[(width - 1) / 64] >> ((width - 1) % 64)) & 1);
    if (neg) {
        if (width % 64)
            w[nwords - 1] |= ~(((uint64_t)1 << (width % 64)) - 1);
        negate(w, nwords);
    }
    /* Repeated division by 10^9 on 32-bit limbs: each step yields 9 digits. */
    size_t nl = nwords * 2, nd = 0;
    uint32_t *l = malloc(nl * sizeof(uint32_t));
    if (!l) {
        free(w);
        free(digits);
        b->failed = true;
        return;
    }
    for (size_t k = 0; k < nl; k++)
        l[k] = (uint32_t)(w[k / 2] >> (32 * (k % 2)));
    size_t top = nl;
    while (top > 0 && l[top - 1] == 0)
        top--;
    do {
        uint64_t rem = 0;
        for (size_t i = top; i-- > 0;) {
            uint64_t cur = (rem << 32) | l[i];
            l[i] = (uint32_t)(cur / 1000000000u);
            rem = cur % 1000000000u;
        }
        while (top > 0 && l[top - 1] == 0)
            top--;
        for (int k = 0; k < 9; k++) {
            digits[nd++] = (char)('0' + rem % 10);
            rem /= 10;
            if (top == 0 && rem == 0)
                break;
        }
    } while (top > 0);
    free(l);
    if (neg)
        bs_buf_putc(b, '-');
    while (nd > 0)
        bs_buf_putc(b, digits[--nd]);
    free(w);
    free(digits);
}
