/* Floating point literals as MLIR 22 parses and prints them: a port of the parts of
 * llvm/lib/Support/APFloat.cpp (IEEEFloat) that MLIR's parser and printFloatValue use.
 *
 * Values are held the way APFloat holds them (category, sign, unbiased exponent and a
 * significand with an explicit integer bit), because MLIR's printer compares that
 * internal form, not bit patterns, and several results (x87 unnormals, formats without
 * infinities) only make sense in it. Decimal -> binary conversion is exact, using a small
 * bignum of 32-bit limbs; APFloat's own algorithm is correctly rounded too, so the two
 * agree on every value. */
#include "dlti_private.h"

#include <fenv.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(double) == 8, "IEEE binary64 double expected");

/* ---- semantics (APFloat's fltSemantics table) ---- */

enum { NF_IEEE754, NF_NAN_ONLY, NF_FINITE_ONLY };   /* fltNonfiniteBehavior */
enum { NAN_IEEE, NAN_ALL_ONES, NAN_NEGATIVE_ZERO }; /* fltNanEncoding */

typedef struct sem {
    const char *name;
    int max_exp, min_exp; /* 2^max_exp is representable; 2^min_exp is the least normal */
    unsigned precision;   /* significand bits, integer bit included */
    unsigned size_bits;
    unsigned char nonfinite, nan_enc;
    bool has_zero, has_signed;
    bool x87;  /* explicit integer bit, own bit layout */
    bool e8m0; /* exponent only: no significand field, bias -min_exp */
} sem;

/* clang-format off */
static const sem SEMS[DLTI_FLOAT_KIND_COUNT] = {
    /*                            name        max_exp min_exp prec bits  nonfinite       nan_enc     has_zero has_signed x87  e8m0 */
    [DLTI_FLOAT_F16]           = {"f16",           15,    -14,  11,  16, NF_IEEE754,     NAN_IEEE,          true,  true, false, false},
    [DLTI_FLOAT_BF16]          = {"bf16",         127,   -126,   8,  16, NF_IEEE754,     NAN_IEEE,          true,  true, false, false},
    [DLTI_FLOAT_F32]           = {"f32",          127,   -126,  24,  32, NF_IEEE754,     NAN_IEEE,          true,  true, false, false},
    [DLTI_FLOAT_F64]           = {"f64",         1023,  -1022,  53,  64, NF_IEEE754,     NAN_IEEE,          true,  true, false, false},
    [DLTI_FLOAT_F80]           = {"f80",        16383, -16382,  64,  80, NF_IEEE754,     NAN_IEEE,          true,  true, true,  false},
    [DLTI_FLOAT_F128]          = {"f128",       16383, -16382, 113, 128, NF_IEEE754,     NAN_IEEE,          true,  true, false, false},
    [DLTI_FLOAT_TF32]          = {"tf32",         127,   -126,  11,  19, NF_IEEE754,     NAN_IEEE,          true,  true, false, false},
    [DLTI_FLOAT_F8E5M2]        = {"f8E5M2",        15,    -14,   3,   8, NF_IEEE754,     NAN_IEEE,          true,  true, false, false},
    [DLTI_FLOAT_F8E4M3]        = {"f8E4M3",         7,     -6,   4,   8, NF_IEEE754,     NAN_IEEE,          true,  true, false, false},
    [DLTI_FLOAT_F8E4M3FN]      = {"f8E4M3FN",       8,     -6,   4,   8, NF_NAN_ONLY,    NAN_ALL_ONES,      true,  true, false, false},
    [DLTI_FLOAT_F8E5M2FNUZ]    = {"f8E5M2FNUZ",    15,    -15,   3,   8, NF_NAN_ONLY,    NAN_NEGATIVE_ZERO, true,  true, false, false},
    [DLTI_FLOAT_F8E4M3FNUZ]    = {"f8E4M3FNUZ",     7,     -7,   4,   8, NF_NAN_ONLY,    NAN_NEGATIVE_ZERO, true,  true, false, false},
    [DLTI_FLOAT_F8E4M3B11FNUZ] = {"f8E4M3B11FNUZ",  4,    -10,   4,   8, NF_NAN_ONLY,    NAN_NEGATIVE_ZERO, true,  true, false, false},
    [DLTI_FLOAT_F8E3M4]        = {"f8E3M4",         3,     -2,   5,   8, NF_IEEE754,     NAN_IEEE,          true,  true, false, false},
    [DLTI_FLOAT_F8E8M0FNU]     = {"f8E8M0FNU",    127,   -127,   1,   8, NF_NAN_ONLY,    NAN_ALL_ONES,      false, false, false, true},
    [DLTI_FLOAT_F6E2M3FN]      = {"f6E2M3FN",       2,      0,   4,   6, NF_FINITE_ONLY, NAN_IEEE,          true,  true, false, false},
    [DLTI_FLOAT_F6E3M2FN]      = {"f6E3M2FN",       4,     -2,   3,   6, NF_FINITE_ONLY, NAN_IEEE,          true,  true, false, false},
    [DLTI_FLOAT_F4E2M1FN]      = {"f4E2M1FN",       2,      0,   2,   4, NF_FINITE_ONLY, NAN_IEEE,          true,  true, false, false},
};
/* clang-format on */

static const sem *sem_of(dlti_float_kind kind)
{
    return (unsigned)kind < DLTI_FLOAT_KIND_COUNT ? &SEMS[kind] : NULL;
}

static bool nan_is_all_ones(const sem *s)
{
    return s->nonfinite == NF_NAN_ONLY && s->nan_enc == NAN_ALL_ONES;
}

static int exponent_nan(const sem *s)
{
    if (s->nonfinite == NF_NAN_ONLY) {
        if (s->nan_enc == NAN_NEGATIVE_ZERO)
            return s->min_exp - 1;
        if (s->has_signed)
            return s->max_exp;
    }
    return s->max_exp + 1;
}

/* ---- 128-bit patterns ---- */

typedef dlti_float_bits u128;

static u128 u128_mask(unsigned n) /* the low n bits set, n <= 128 */
{
    u128 r = {0, 0};
    if (n >= 128) {
        r.lo = r.hi = ~UINT64_C(0);
    } else if (n >= 64) {
        r.lo = ~UINT64_C(0);
        r.hi = n > 64 ? ~UINT64_C(0) >> (128 - n) : 0;
    } else if (n > 0) {
        r.lo = ~UINT64_C(0) >> (64 - n);
    }
    return r;
}

static u128 u128_and(u128 a, u128 b)
{
    return (u128){a.lo & b.lo, a.hi & b.hi};
}

static u128 u128_or(u128 a, u128 b)
{
    return (u128){a.lo | b.lo, a.hi | b.hi};
}

static u128 u128_shr(u128 a, unsigned n)
{
    if (n == 0)
        return a;
    if (n >= 128)
        return (u128){0, 0};
    if (n >= 64)
        return (u128){a.hi >> (n - 64), 0};
    return (u128){(a.lo >> n) | (a.hi << (64 - n)), a.hi >> n};
}

static u128 u128_shl(u128 a, unsigned n)
{
    if (n == 0)
        return a;
    if (n >= 128)
        return (u128){0, 0};
    if (n >= 64)
        return (u128){0, a.lo << (n - 64)};
    return (u128){a.lo << n, (a.hi << n) | (a.lo >> (64 - n))};
}

static bool u128_is_zero(u128 a)
{
    return (a.lo | a.hi) == 0;
}

/* ---- APFloat's IEEEFloat ---- */

enum { CAT_ZERO, CAT_NORMAL, CAT_INF, CAT_NAN };
/* lostFraction: what lies below the significand's last bit. */
enum { LF_ZERO, LF_LESS_THAN_HALF, LF_HALF, LF_MORE_THAN_HALF };

typedef struct apf {
    const sem *s;
    int cat;
    bool sign;
    int exp;         /* value = sig * 2^(exp - (precision - 1)) */
    uint64_t sig[2]; /* APFloat's significand parts; words past parts() stay zero */
} apf;

static unsigned parts(const sem *s)
{
    return s->precision + 1 <= 64 ? 1 : 2;
}

static int w_msb(const uint64_t *w, unsigned n) /* -1 if zero */
{
    for (unsigned i = n; i-- > 0;)
        if (w[i])
            return (int)(i * 64) + 63 - __builtin_clzll(w[i]);
    return -1;
}

static int w_lsb(const uint64_t *w, unsigned n) /* -1 if zero */
{
    for (unsigned i = 0; i < n; i++)
        if (w[i])
            return (int)(i * 64) + __builtin_ctzll(w[i]);
    return -1;
}

static bool w_bit(const uint64_t *w, unsigned n, unsigned b)
{
    return b < 64 * n && ((w[b / 64] >> (b % 64)) & 1);
}

static void w_set_bit(uint64_t *w, unsigned b)
{
    w[b / 64] |= UINT64_C(1) << (b % 64);
}

static void w_shr(uint64_t *w, unsigned n, unsigned bits)
{
    u128 v = {w[0], n > 1 ? w[1] : 0};
    v = u128_shr(v, bits);
    w[0] = v.lo;
    if (n > 1)
        w[1] = v.hi;
}

static void w_shl(uint64_t *w, unsigned n, unsigned bits)
{
    u128 v = {w[0], n > 1 ? w[1] : 0};
    v = u128_shl(v, bits);
    w[0] = v.lo;
    if (n > 1)
        w[1] = v.hi;
}

/* lostFractionThroughTruncation: the fraction lost by dropping the low `bits` bits. */
static int w_lost(const uint64_t *w, unsigned n, unsigned bits)
{
    int lsb = w_lsb(w, n);
    if (lsb < 0 || bits <= (unsigned)lsb)
        return LF_ZERO;
    if (bits == (unsigned)lsb + 1)
        return LF_HALF;
    if (bits <= n * 64 && w_bit(w, n, bits - 1))
        return LF_MORE_THAN_HALF;
    return LF_LESS_THAN_HALF;
}

static int combine_lost(int more_significant, int less_significant)
{
    if (less_significant != LF_ZERO) {
        if (more_significant == LF_ZERO)
            more_significant = LF_LESS_THAN_HALF;
        else if (more_significant == LF_HALF)
            more_significant = LF_MORE_THAN_HALF;
    }
    return more_significant;
}

static void make_zero(apf *f, bool negative)
{
    f->cat = CAT_ZERO;
    f->sign = negative && f->s->nan_enc != NAN_NEGATIVE_ZERO;
    f->exp = f->s->min_exp - 1;
    f->sig[0] = f->sig[1] = 0;
}

static void make_smallest_normalized(apf *f, bool negative)
{
    f->cat = CAT_NORMAL;
    f->sign = negative;
    f->exp = f->s->min_exp;
    f->sig[0] = f->sig[1] = 0;
    w_set_bit(f->sig, f->s->precision - 1);
}

/* makeNaN(SNaN=false, Negative, no payload). */
static void make_nan(apf *f, bool negative)
{
    const sem *s = f->s;
    f->cat = CAT_NAN;
    f->sign = negative;
    f->exp = exponent_nan(s);
    f->sig[0] = f->sig[1] = 0;
    if (s->nonfinite == NF_NAN_ONLY) {
        if (s->nan_enc == NAN_NEGATIVE_ZERO) {
            f->sign = true;
        } else {
            u128 ones = u128_mask(s->precision - 1);
            f->sig[0] = ones.lo;
            f->sig[1] = ones.hi;
        }
    }
    unsigned qnan_bit = s->precision >= 2 ? s->precision - 2 : 0;
    if (s->nan_enc != NAN_NEGATIVE_ZERO)
        w_set_bit(f->sig, qnan_bit);
    if (s->x87) /* a real NaN, not a pseudo-NaN */
        w_set_bit(f->sig, qnan_bit + 1);
}

static void make_quiet(apf *f)
{
    if (f->s->nonfinite != NF_NAN_ONLY)
        w_set_bit(f->sig, f->s->precision - 2);
}

static bool is_signaling(const apf *f)
{
    if (f->cat != CAT_NAN || f->s->nonfinite != NF_IEEE754)
        return false;
    return !w_bit(f->sig, parts(f->s), f->s->precision - 2);
}

/* Bits 0 .. precision-2 (all but the integer bit) all ones. */
static bool sig_all_ones(const apf *f)
{
    unsigned p = f->s->precision;
    if (p <= 1)
        return false;
    u128 m = u128_mask(p - 1);
    return (f->sig[0] & m.lo) == m.lo && (f->sig[1] & m.hi) == m.hi;
}

/* handleOverflow for round-to-nearest: infinity, the NaN standing in for it, or (formats
 * without either) the largest finite value. */
static void handle_overflow(apf *f)
{
    const sem *s = f->s;
    if (s->nonfinite != NF_FINITE_ONLY) {
        if (s->nonfinite == NF_NAN_ONLY) {
            make_nan(f, f->sign);
        } else {
            f->cat = CAT_INF;
            f->sig[0] = f->sig[1] = 0;
        }
        return;
    }
    f->cat = CAT_NORMAL;
    f->exp = s->max_exp;
    u128 m = u128_mask(s->precision);
    f->sig[0] = m.lo;
    f->sig[1] = m.hi;
}

static void canonicalize_zero(apf *f)
{
    f->cat = CAT_ZERO;
    if (f->s->nan_enc == NAN_NEGATIVE_ZERO)
        f->sign = false;
    if (!f->s->has_zero) /* f8E8M0FNU: the all-zero encoding is 2^-127 */
        make_smallest_normalized(f, false);
}

/* IEEEFloat::normalize with rmNearestTiesToEven: place the integer bit, then round using
 * `lost`, the fraction below the significand's last bit. */
static void normalize(apf *f, int lost)
{
    const sem *s = f->s;
    unsigned n = parts(s);
    int prec = (int)s->precision;
    if (f->cat != CAT_NORMAL)
        return;
    int omsb = w_msb(f->sig, n) + 1;
    if (omsb || lost != LF_ZERO) {
        int change = omsb - prec;
        if (f->exp + change > s->max_exp) {
            handle_overflow(f);
            return;
        }
        if (f->exp + change < s->min_exp)
            change = s->min_exp - f->exp;
        if (change < 0) { /* exact: the value has no lost fraction here */
            w_shl(f->sig, n, (unsigned)-change);
            f->exp += change;
            return;
        }
        if (change > 0) {
            int lf = w_lost(f->sig, n, (unsigned)change);
            w_shr(f->sig, n, (unsigned)change);
            f->exp += change;
            lost = combine_lost(lf, lost);
            omsb = omsb > change ? omsb - change : 0;
        }
    }
    /* With NaN encoded as all ones, that pattern is an overflow, not a value. */
    if (nan_is_all_ones(s) && f->exp == s->max_exp && sig_all_ones(f)) {
        handle_overflow(f);
        return;
    }
    if (lost == LF_ZERO) {
        if (omsb == 0)
            canonicalize_zero(f);
        return;
    }
    bool away =
        lost == LF_MORE_THAN_HALF || (lost == LF_HALF && w_bit(f->sig, n, 0)); /* ties to even */
    if (away) {
        if (omsb == 0)
            f->exp = s->min_exp;
        if (++f->sig[0] == 0 && n > 1)
            f->sig[1]++;
        omsb = w_msb(f->sig, n) + 1;
        if (omsb == prec + 1) { /* carried into a new binade */
            if (f->exp == s->max_exp) {
                handle_overflow(f);
                return;
            }
            w_shr(f->sig, n, 1);
            f->exp++;
            return;
        }
        if (nan_is_all_ones(s) && f->exp == s->max_exp && sig_all_ones(f)) {
            handle_overflow(f);
            return;
        }
    }
    if (omsb == prec)
        return;
    if (omsb == 0)
        canonicalize_zero(f);
}

static bool bitwise_equal(const apf *a, const apf *b)
{
    if (a->s != b->s || a->cat != b->cat || a->sign != b->sign)
        return false;
    if (a->cat == CAT_ZERO || a->cat == CAT_INF)
        return true;
    if (a->cat == CAT_NORMAL && a->exp != b->exp)
        return false;
    return a->sig[0] == b->sig[0] && a->sig[1] == b->sig[1];
}

/* ---- bit patterns <-> APFloat (initFromAPInt / bitcastToAPInt) ---- */

static void from_bits_x87(apf *f, u128 bits)
{
    uint64_t mant = bits.lo;
    unsigned biased = (unsigned)(bits.hi & 0x7fff);
    bool int_bit = mant >> 63;
    f->sign = (bits.hi >> 15) & 1;
    f->sig[0] = mant;
    f->sig[1] = 0;
    if (biased == 0 && mant == 0) {
        make_zero(f, f->sign);
    } else if (biased == 0x7fff && mant == UINT64_C(1) << 63) {
        f->cat = CAT_INF;
        f->exp = f->s->max_exp + 1;
        f->sig[0] = 0;
    } else if (biased == 0x7fff || (biased != 0 && !int_bit)) {
        /* pseudo-infinities, pseudo-NaNs and unnormals all count as NaN */
        f->cat = CAT_NAN;
        f->exp = exponent_nan(f->s);
    } else {
        f->cat = CAT_NORMAL;
        f->exp = biased == 0 ? -16382 : (int)biased - 16383;
    }
}

static void from_bits_e8m0(apf *f, u128 bits)
{
    unsigned biased = (unsigned)(bits.lo & 0xff);
    f->sign = false;
    f->sig[0] = 1; /* the implicit 'precision' bit */
    f->sig[1] = 0;
    if (biased == 0xff) {
        f->cat = CAT_NAN;
        f->exp = exponent_nan(f->s);
    } else {
        f->cat = CAT_NORMAL;
        f->exp = (int)biased - 127;
    }
}

static void from_bits(apf *f, const sem *s, u128 bits)
{
    f->s = s;
    bits = u128_and(bits, u128_mask(s->size_bits));
    if (s->x87) {
        from_bits_x87(f, bits);
        return;
    }
    if (s->e8m0) {
        from_bits_e8m0(f, bits);
        return;
    }
    unsigned trailing = s->precision - 1;
    unsigned exp_bits = s->size_bits - 1 - trailing;
    int bias = 1 - s->min_exp;
    u128 mant = u128_and(bits, u128_mask(trailing));
    int biased = (int)(u128_shr(bits, trailing).lo & ((UINT64_C(1) << exp_bits) - 1));
    f->sign = u128_shr(bits, s->size_bits - 1).lo & 1;
    bool mant_zero = u128_is_zero(mant);
    bool is_zero = biased == 0 && mant_zero;

    if (s->nonfinite == NF_IEEE754 && biased - bias == s->max_exp + 1 && mant_zero) {
        f->cat = CAT_INF;
        f->exp = s->max_exp + 1;
        f->sig[0] = f->sig[1] = 0;
        return;
    }
    bool is_nan;
    if (s->nan_enc == NAN_IEEE) {
        is_nan = biased - bias == exponent_nan(s) && !mant_zero;
    } else if (s->nan_enc == NAN_ALL_ONES) {
        u128 ones = u128_mask(trailing);
        is_nan = biased - bias == exponent_nan(s) && mant.lo == ones.lo && mant.hi == ones.hi;
    } else {
        is_nan = is_zero && f->sign;
    }
    f->sig[0] = mant.lo;
    f->sig[1] = mant.hi;
    if (is_nan) {
        f->cat = CAT_NAN;
        f->exp = exponent_nan(s);
        return;
    }
    if (is_zero) {
        make_zero(f, f->sign);
        return;
    }
    f->cat = CAT_NORMAL;
    if (biased == 0) {
        f->exp = s->min_exp; /* denormal */
    } else {
        f->exp = biased - bias;
        w_set_bit(f->sig, trailing);
    }
}

static u128 to_bits_x87(const apf *f)
{
    uint64_t biased, mant;
    switch (f->cat) {
    case CAT_NORMAL:
        biased = (uint64_t)(int64_t)(f->exp + 16383);
        mant = f->sig[0];
        if (biased == 1 && !(mant >> 63))
            biased = 0; /* denormal */
        break;
    case CAT_ZERO:
        biased = 0;
        mant = 0;
        break;
    case CAT_INF:
        biased = 0x7fff;
        mant = UINT64_C(1) << 63;
        break;
    default:
        biased = 0x7fff;
        mant = f->sig[0];
        break;
    }
    return (u128){mant, ((uint64_t)f->sign << 15) | (biased & 0x7fff)};
}

/* convertIEEEFloatToAPInt. For categories a format cannot encode (infinity in the f6/f4
 * formats, which APFloat::convert can produce from an f64 infinity) APFloat hits
 * llvm_unreachable; release builds such as mlir-opt-22 fall through to the generic
 * encoding, and so does this. */
static u128 to_bits(const apf *f)
{
    const sem *s = f->s;
    if (s->x87)
        return to_bits_x87(f);
    int bias = s->e8m0 ? -s->min_exp : 1 - s->min_exp;
    unsigned trailing = s->precision - 1;
    unsigned exp_bits = trailing ? s->size_bits - 1 - trailing : s->size_bits;
    int64_t biased;
    u128 mant = {f->sig[0], f->sig[1]};
    switch (f->cat) {
    case CAT_NORMAL:
        biased = (int64_t)f->exp + bias;
        if (biased == 1 && !w_bit(f->sig, 2, trailing))
            biased = 0; /* denormal */
        break;
    case CAT_ZERO:
        biased = (int64_t)s->min_exp - 1 + bias;
        mant = (u128){0, 0};
        break;
    case CAT_INF:
        biased = (int64_t)s->max_exp + 1 + bias;
        mant = (u128){0, 0};
        break;
    default:
        biased = (int64_t)exponent_nan(s) + bias;
        break;
    }
    u128 r = u128_and(mant, u128_mask(trailing));
    r = u128_or(r, u128_shl((u128){f->sign, 0}, s->size_bits - 1));
    r = u128_or(r,
                u128_shl((u128){(uint64_t)biased & ((UINT64_C(1) << exp_bits) - 1), 0}, trailing));
    return r;
}

/* IEEEFloat::convert with rmNearestTiesToEven. */
static void convert(apf *f, const sem *to)
{
    const sem *from = f->s;
    int lost = LF_ZERO;
    int shift = (int)to->precision - (int)from->precision;
    bool signaling = is_signaling(f);
    unsigned from_parts = parts(from);

    /* Narrowing a denormal: adjust the exponent rather than shift bits away. */
    if (shift < 0 && f->cat == CAT_NORMAL) {
        int omsb = w_msb(f->sig, from_parts) + 1;
        int change = omsb - (int)from->precision;
        if (f->exp + change < to->min_exp)
            change = to->min_exp - f->exp;
        if (change < shift)
            change = shift;
        if (change < 0) {
            shift -= change;
            f->exp += change;
        } else if (omsb <= -shift) {
            change = omsb + shift - 1; /* leave at least one bit set */
            shift -= change;
            f->exp += change;
        }
    }
    if (shift < 0 &&
        (f->cat == CAT_NORMAL || (f->cat == CAT_NAN && from->nonfinite != NF_NAN_ONLY))) {
        lost = w_lost(f->sig, from_parts, (unsigned)-shift);
        w_shr(f->sig, from_parts, (unsigned)-shift);
    }
    f->s = to;
    if (parts(to) < 2)
        f->sig[1] = 0;
    if (shift > 0 && (f->cat == CAT_NORMAL || f->cat == CAT_NAN))
        w_shl(f->sig, parts(to), (unsigned)shift);

    if (f->cat == CAT_NORMAL) {
        normalize(f, lost);
    } else if (f->cat == CAT_NAN) {
        if (to->nonfinite == NF_NAN_ONLY) {
            make_nan(f, f->sign);
            return;
        }
        /* A negative-zero NaN would otherwise become -infinity. */
        if (from->nan_enc == NAN_NEGATIVE_ZERO && to->nan_enc != NAN_NEGATIVE_ZERO)
            make_nan(f, false);
        if (to->x87)
            w_set_bit(f->sig, to->precision - 1);
        if (signaling)
            make_quiet(f);
    } else if (f->cat == CAT_INF && to->nonfinite == NF_NAN_ONLY) {
        make_nan(f, f->sign);
    } else if (f->cat == CAT_ZERO && to->nan_enc == NAN_NEGATIVE_ZERO) {
        f->sign = false;
    }
    if (f->cat == CAT_ZERO && !to->has_zero)
        make_smallest_normalized(f, false);
}

/* ---- bignums: little-endian 32-bit limbs, n used limbs (no leading zero limbs) ---- */

typedef struct big {
    uint32_t *d;
    size_t n;
} big;

static void big_trim(big *a)
{
    while (a->n && a->d[a->n - 1] == 0)
        a->n--;
}

static size_t big_bitlen(const big *a)
{
    return a->n ? a->n * 32 - (size_t)__builtin_clz(a->d[a->n - 1]) : 0;
}

static void big_mul_add_small(big *a, uint32_t m, uint32_t add)
{
    uint64_t carry = add;
    for (size_t i = 0; i < a->n; i++) {
        uint64_t v = (uint64_t)a->d[i] * m + carry;
        a->d[i] = (uint32_t)v;
        carry = v >> 32;
    }
    if (carry)
        a->d[a->n++] = (uint32_t)carry;
}

static const uint32_t POW5[14] = {1,     5,      25,      125,     625,      3125,      15625,
                                  78125, 390625, 1953125, 9765625, 48828125, 244140625, 1220703125};
static const uint32_t POW10[10] = {1,      10,      100,      1000,      10000,
                                   100000, 1000000, 10000000, 100000000, 1000000000};

static void big_mul_pow5(big *a, size_t k)
{
    for (; k >= 13; k -= 13)
        big_mul_add_small(a, POW5[13], 0);
    if (k)
        big_mul_add_small(a, POW5[k], 0);
}

/* a /= d, returning the remainder. */
static uint32_t big_div_small(big *a, uint32_t d)
{
    uint64_t rem = 0;
    for (size_t i = a->n; i-- > 0;) {
        uint64_t cur = (rem << 32) | a->d[i];
        a->d[i] = (uint32_t)(cur / d);
        rem = cur % d;
    }
    big_trim(a);
    return (uint32_t)rem;
}

/* dst = src << bits; dst may alias src, and needs room for the result. */
static void big_shl(big *dst, const big *src, size_t bits)
{
    size_t limbs = bits / 32;
    unsigned r = (unsigned)(bits % 32);
    size_t n = src->n;
    if (n == 0) {
        dst->n = 0;
        return;
    }
    if (r == 0) {
        memmove(dst->d + limbs, src->d, n * sizeof(uint32_t));
        dst->n = n + limbs;
    } else {
        uint32_t top = src->d[n - 1] >> (32 - r);
        for (size_t i = n - 1; i > 0; i--)
            dst->d[i + limbs] = (src->d[i] << r) | (src->d[i - 1] >> (32 - r));
        dst->d[limbs] = src->d[0] << r;
        dst->d[n + limbs] = top;
        dst->n = n + limbs + 1;
    }
    memset(dst->d, 0, limbs * sizeof(uint32_t));
    big_trim(dst);
}

/* The 64 bits of a starting at bit pos (zeros past the end). */
static uint64_t big_bits64(const big *a, size_t pos)
{
    uint64_t r = 0;
    size_t limb = pos / 32;
    unsigned off = (unsigned)(pos % 32);
    for (unsigned i = 0; i < 3; i++) {
        if (limb + i >= a->n)
            break;
        uint64_t v = a->d[limb + i];
        int sh = (int)(i * 32) - (int)off;
        if (sh >= 64)
            break;
        r |= sh >= 0 ? v << sh : v >> -sh;
    }
    return r;
}

static bool big_bit(const big *a, size_t b)
{
    return b / 32 < a->n && ((a->d[b / 32] >> (b % 32)) & 1);
}

static int big_lost(const big *a, size_t bits) /* lostFractionThroughTruncation */
{
    size_t lsb = 0;
    while (lsb / 32 < a->n && a->d[lsb / 32] == 0)
        lsb += 32;
    if (lsb / 32 >= a->n)
        return LF_ZERO;
    lsb += (size_t)__builtin_ctz(a->d[lsb / 32]);
    if (bits <= lsb)
        return LF_ZERO;
    if (bits == lsb + 1)
        return LF_HALF;
    return big_bit(a, bits - 1) ? LF_MORE_THAN_HALF : LF_LESS_THAN_HALF;
}

/* Knuth's algorithm D: q = u / v and u becomes (a multiple of) the remainder. v is
 * normalized in place. u needs one spare limb; q needs u->n - v->n + 1 limbs. */
static void big_divmod(big *q, big *u, big *v)
{
    size_t n = v->n, m = u->n;
    if (m < n) {
        q->n = 0;
        return;
    }
    if (n == 1) {
        uint64_t rem = 0;
        for (size_t i = m; i-- > 0;) {
            uint64_t cur = (rem << 32) | u->d[i];
            q->d[i] = (uint32_t)(cur / v->d[0]);
            rem = cur % v->d[0];
        }
        q->n = m;
        big_trim(q);
        u->d[0] = (uint32_t)rem;
        u->n = 1;
        big_trim(u);
        return;
    }
    unsigned sh = (unsigned)__builtin_clz(v->d[n - 1]);
    if (sh) {
        for (size_t i = n - 1; i > 0; i--)
            v->d[i] = (v->d[i] << sh) | (v->d[i - 1] >> (32 - sh));
        v->d[0] <<= sh;
        u->d[m] = u->d[m - 1] >> (32 - sh);
        for (size_t i = m - 1; i > 0; i--)
            u->d[i] = (u->d[i] << sh) | (u->d[i - 1] >> (32 - sh));
        u->d[0] <<= sh;
    } else {
        u->d[m] = 0;
    }
    const uint64_t B = UINT64_C(1) << 32;
    uint64_t vtop = v->d[n - 1], vnext = v->d[n - 2];
    for (size_t j = m - n + 1; j-- > 0;) {
        uint64_t num = ((uint64_t)u->d[j + n] << 32) | u->d[j + n - 1];
        uint64_t qhat = num / vtop, rhat = num % vtop;
        while (qhat >= B || qhat * vnext > ((rhat << 32) | u->d[j + n - 2])) {
            qhat--;
            rhat += vtop;
            if (rhat >= B)
                break;
        }
        uint64_t borrow = 0, carry = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t prod = qhat * v->d[i] + carry;
            carry = prod >> 32;
            uint64_t sub = (prod & 0xffffffffu) + borrow;
            uint64_t cur = u->d[i + j];
            u->d[i + j] = (uint32_t)(cur - sub);
            borrow = cur < sub;
        }
        uint64_t sub = carry + borrow, top = u->d[j + n];
        u->d[j + n] = (uint32_t)(top - sub);
        if (top < sub) { /* qhat was one too large: add v back */
            qhat--;
            carry = 0;
            for (size_t i = 0; i < n; i++) {
                uint64_t sum = (uint64_t)u->d[i + j] + v->d[i] + carry;
                u->d[i + j] = (uint32_t)sum;
                carry = sum >> 32;
            }
            u->d[j + n] += (uint32_t)carry;
        }
        q->d[j] = (uint32_t)qhat;
    }
    q->n = m - n + 1;
    big_trim(q);
    u->n = n;
    big_trim(u);
}

/* ---- decimal text -> APFloat (convertFromDecimalString) ---- */

/* A decimal mantissa "ddd.ddd" scaled by 10^exp, reduced to its significant digits. */
typedef struct decimal {
    const char *s;      /* digits and one '.', no sign or exponent */
    size_t first, last; /* first and last nonzero digits of s */
    size_t ndigits;     /* digits from first to last */
    long long exp;      /* value = digits(first..last) * 10^exp */
    bool zero;
} decimal;

/* Checks MLIR's float literal syntax -?[0-9]+\.[0-9]*([eE][-+]?[0-9]+)? over all of
 * text, and splits it into sign, mantissa and exponent (capped like APFloat's
 * readExponent: anything at or beyond 24000 in magnitude is 24000). */
static bool scan_literal(const char *t, size_t len, bool *negative, decimal *d)
{
    size_t i = 0;
    *negative = len > 0 && t[0] == '-';
    i += *negative;
    size_t start = i;
    while (i < len && t[i] >= '0' && t[i] <= '9')
        i++;
    if (i == start || i == len || t[i] != '.')
        return false;
    size_t dot = i++;
    while (i < len && t[i] >= '0' && t[i] <= '9')
        i++;
    size_t mant_end = i;
    long long e = 0;
    if (i < len) {
        if (t[i] != 'e' && t[i] != 'E')
            return false;
        i++;
        bool eneg = i < len && t[i] == '-';
        if (i < len && (t[i] == '-' || t[i] == '+'))
            i++;
        if (i == len)
            return false;
        for (; i < len; i++) {
            if (t[i] < '0' || t[i] > '9')
                return false;
            if (e < 24000)
                e = e * 10 + (t[i] - '0');
        }
        if (e > 24000)
            e = 24000;
        if (eneg)
            e = -e;
    }
    d->s = t + start;
    dot -= start;
    mant_end -= start;
    d->zero = true;
    for (size_t k = 0; k < mant_end; k++) {
        if (d->s[k] >= '1' && d->s[k] <= '9') {
            if (d->zero)
                d->first = k;
            d->last = k;
            d->zero = false;
        }
    }
    if (d->zero) {
        d->ndigits = 0;
        d->exp = 0;
        return true;
    }
    d->ndigits = d->last - d->first + 1 - (d->first < dot && dot < d->last);
    d->exp = d->last < dot ? e + (long long)(dot - d->last - 1) : e - (long long)(d->last - dot);
    return true;
}

/* Significant digits beyond which a decimal can be cut, with a sticky "more nonzero digits"
 * flag, without changing how it rounds: every rounding boundary of the format (a midpoint
 * between neighbours, or the overflow threshold) has fewer significant digits. Those are
 * m * 2^q with m < 2^(precision+1) and q >= min_exp - precision. */
static size_t max_digits(const sem *s)
{
    long p = (long)s->precision;
    long small = ((p + 1) * 30103L + (p - s->min_exp) * 69898L) / 100000L + 4;
    long large = ((long)(s->max_exp + 2) * 30103L) / 100000L + 4;
    return (size_t)(small > large ? small : large);
}

/* Limbs of workspace dec_round needs for k significant digits scaled by 10^e. */
static size_t dec_workspace(const sem *s, size_t k, long long e)
{
    size_t nd = k * 3322 / 32000 + 3; /* log2(10) < 3.322 */
    if (e >= 0)
        return nd + (size_t)e * 2322 / 32000 + 3; /* log2(5) < 2.322 */
    size_t np = (size_t)-e * 2322 / 32000 + 3;
    size_t extra = (s->precision + 2) / 32 + 2;
    size_t na = (nd > np + extra ? nd : np + extra) + 1;
    return nd + np + 2 * (na + 1);
}

/* The truncated significand and its lost fraction for the exact value k digits * 10^e,
 * computed in ws (see dec_workspace), then rounded by normalize. APFloat's
 * roundSignificandWithExponent reaches the same correctly rounded result. */
static void dec_round(apf *f, const decimal *d, size_t k, long long e, uint32_t *ws)
{
    const sem *s = f->s;
    unsigned prec = s->precision;
    big D = {ws, 0};
    size_t taken = 0, i = d->first;
    while (taken < k) { /* nine digits per limb operation */
        uint32_t chunk = 0;
        unsigned nd = 0;
        for (; nd < 9 && taken < k; i++) {
            if (d->s[i] == '.')
                continue;
            chunk = chunk * 10 + (uint32_t)(d->s[i] - '0');
            nd++;
            taken++;
        }
        big_mul_add_small(&D, POW10[nd], chunk);
    }
    bool sticky = k < d->ndigits;

    big *x;          /* the value's bits: D * 5^e, or the quotient below */
    long long scale; /* value = x * 2^scale (plus the remainder/sticky fraction) */
    bool rest;       /* nonzero below x's last bit */
    big N, P, A, Q;
    if (e >= 0) {
        N = D;
        big_mul_pow5(&N, (size_t)e);
        x = &N;
        scale = e;
        rest = sticky;
    } else {
        size_t kk = (size_t)-e;
        P = (big){ws + D.n, 1};
        P.d[0] = 1;
        big_mul_pow5(&P, kk);
        /* D * 2^sh / 5^kk with at least precision + 2 quotient bits */
        long long sh = (long long)big_bitlen(&P) - (long long)big_bitlen(&D) + prec + 2;
        if (sh < 0)
            sh = 0;
        A = (big){P.d + P.n, 0};
        big_shl(&A, &D, (size_t)sh);
        Q = (big){A.d + A.n + 1, 0};
        big_divmod(&Q, &A, &P);
        x = &Q;
        scale = e - sh;
        rest = sticky || A.n != 0;
    }

    size_t b = big_bitlen(x);
    int lost = LF_ZERO;
    u128 sig;
    if (b > prec) {
        size_t drop = b - prec;
        sig.lo = big_bits64(x, drop);
        sig.hi = prec > 64 ? big_bits64(x, drop + 64) : 0;
        sig = u128_and(sig, u128_mask(prec));
        lost = big_lost(x, drop);
    } else {
        sig = (u128){big_bits64(x, 0), big_bits64(x, 64)};
        sig = u128_shl(sig, (unsigned)(prec - b));
    }
    if (rest)
        lost = combine_lost(lost, LF_LESS_THAN_HALF);
    f->cat = CAT_NORMAL;
    f->sig[0] = sig.lo;
    f->sig[1] = sig.hi;
    f->exp = (int)(scale + (long long)b - 1);
    normalize(f, lost);
}

/* convertFromDecimalString into f->s with rounding to nearest-even. Returns -1 only if
 * the workspace cannot be allocated. */
static int dec_to_apf(apf *f, const sem *s, const decimal *d, bool negative, uint32_t *ws,
                      size_t ws_cap)
{
    f->s = s;
    f->sign = negative;
    f->exp = s->min_exp - 1; /* as left by the zero APFloat is constructed as */
    f->sig[0] = f->sig[1] = 0;
    if (d->zero) {
        f->cat = CAT_ZERO;
        if (s->nan_enc == NAN_NEGATIVE_ZERO)
            f->sign = false;
        if (!s->has_zero)
            make_smallest_normalized(f, false);
        return 0;
    }
    /* APFloat's quick range checks, with 42039/12655 < log2(10) < 28738/8651. */
    long long norm = d->exp + (long long)d->ndigits - 1;
    if (norm - 1 > INT_MAX / 42039) {
        handle_overflow(f);
        return 0;
    }
    if (norm - 1 < INT_MIN / 42039 ||
        (norm + 1) * 28738 <= 8651LL * (s->min_exp - (long long)s->precision)) {
        f->cat = CAT_NORMAL; /* zero significand: underflows while rounding */
        normalize(f, LF_LESS_THAN_HALF);
        return 0;
    }
    if ((norm - 1) * 42039 >= 12655LL * s->max_exp) {
        handle_overflow(f);
        return 0;
    }
    size_t k = d->ndigits < max_digits(s) ? d->ndigits : max_digits(s);
    long long e = d->exp + (long long)(d->ndigits - k);
    size_t need = dec_workspace(s, k, e);
    uint32_t *heap = NULL;
    if (need > ws_cap) {
        heap = malloc(need * sizeof(uint32_t));
        if (!heap)
            return -1;
        ws = heap;
    }
    dec_round(f, d, k, e, ws);
    free(heap);
    return 0;
}

/* ---- APFloat -> decimal text (IEEEFloat::toString) ---- */

/* Workspace limbs for printing: enough for the integer sig * 5^16494 (f128's least
 * denormal, 113 + 16494 * log2(5) bits, 1201 limbs) that decimal_significand forms in the
 * rare case its estimate is undecided; re-reading printed text (at most 7 digits) peaks
 * at 1106 limbs. */
#define PRINT_WS_LIMBS 1240

/* Shifts a right by bits, in place. */
static void big_shr(big *a, size_t bits)
{
    size_t limbs = bits / 32;
    unsigned r = (unsigned)(bits % 32);
    if (limbs >= a->n) {
        a->n = 0;
        return;
    }
    size_t n = a->n - limbs;
    for (size_t i = 0; i < n; i++) {
        uint32_t lo = a->d[i + limbs] >> r;
        uint32_t hi = r && i + limbs + 1 < a->n ? a->d[i + limbs + 1] << (32 - r) : 0;
        a->d[i] = lo | hi;
    }
    a->n = n;
    big_trim(a);
}

static void big_set_u128(big *a, u128 v)
{
    a->d[0] = (uint32_t)v.lo;
    a->d[1] = (uint32_t)(v.lo >> 32);
    a->d[2] = (uint32_t)v.hi;
    a->d[3] = (uint32_t)(v.hi >> 32);
    a->n = 4;
    big_trim(a);
}

static size_t u128_bitlen(u128 v)
{
    return v.hi   ? 128 - (size_t)__builtin_clzll(v.hi)
           : v.lo ? 64 - (size_t)__builtin_clzll(v.lo)
                  : 0;
}

/* Bit length of sig * 5^k from logarithms, or 0 when the estimate (off by far less than
 * 1e-10) is too close to an integer to decide. */
static size_t bitlen_times_pow5(u128 sig, size_t k)
{
    static const double log2_5 = 2.32192809488736234787031942948939017586;
    double l = log2((double)sig.hi * 18446744073709551616.0 + (double)sig.lo) + (double)k * log2_5;
    double whole = floor(l);
    if (l - whole < 1e-9 || l - whole > 1 - 1e-9)
        return 0;
    return (size_t)whole + 1;
}

/* a /= 5^k, with a using its limbs plus one spare; scratch follows. */
static void big_div_pow5(big *a, size_t k, uint32_t *scratch)
{
    big p = {scratch, 1};
    p.d[0] = 1;
    big_mul_pow5(&p, k);
    big q = {p.d + p.n, 0};
    big_divmod(&q, a, &p);
    memmove(a->d, q.d, q.n * sizeof(uint32_t));
    a->n = q.n;
}

/* The decimal significand of sig * 2^e2 (sig odd) as toStringImpl has it after
 * AdjustToPrecision: APFloat forms the integer sig * 2^e2 (e2 >= 0) or sig * 5^-e2 (then
 * the value is that * 10^e2) and divides off `tens` decimal digits, chosen from its bit
 * length. The same quotient is formed here without the big intermediate, using
 * floor(floor(x / a) / b) == floor(x / (a * b)) and 10^t == 2^t * 5^t. */
static void decimal_significand(u128 sig, long long e2, unsigned precision, big *n,
                                long long *exp10, uint32_t *ws)
{
    size_t required = ((size_t)precision * 196 + 58) / 59; /* 196/59 > log2(10) */
    size_t texp = e2 < 0 ? (size_t)-e2 : 0;
    size_t bits;
    *n = (big){ws, 0};
    if (e2 >= 0) {
        bits = u128_bitlen(sig) + (size_t)e2;
    } else {
        /* small powers are cheaper to compute than to estimate */
        bits = texp > 48 ? bitlen_times_pow5(sig, texp) : 0;
        if (!bits) {
            big_set_u128(n, sig);
            big_mul_pow5(n, texp);
            bits = big_bitlen(n);
            if (bits <= required) { /* nothing to cut: n is the answer */
                *exp10 = e2;
                return;
            }
        }
    }
    size_t tens = bits > required ? (bits - required) * 59 / 196 : 0;
    *exp10 = (e2 < 0 ? e2 : 0) + (long long)tens;

    big_set_u128(n, sig);
    size_t div5; /* the power of five still to divide by */
    if (e2 >= 0) {
        if ((size_t)e2 >= tens)
            big_shl(n, n, (size_t)e2 - tens);
        else
            big_shr(n, tens - (size_t)e2);
        div5 = tens;
    } else if (texp >= tens) {
        big_mul_pow5(n, texp - tens);
        big_shr(n, tens);
        div5 = 0;
    } else {
        big_shr(n, tens);
        div5 = tens - texp;
    }
    if (div5 && n->n)
        big_div_pow5(n, div5, ws + n->n + 1);
}

/* AdjustToPrecision on the digits (least significant first): round half up to
 * `precision` digits, dropping zeros that become trailing. */
static void trim_digits(char *buf, size_t *len, long long *exp, unsigned precision)
{
    size_t n = *len;
    if (n <= precision)
        return;
    size_t first = n - precision;
    if (buf[first - 1] < '5') {
        while (first < n && buf[first] == '0')
            first++;
    } else {
        size_t i = first;
        for (; i < n; i++) {
            if (buf[i] != '9') {
                buf[i]++;
                break;
            }
            first++;
        }
        if (first == n) { /* carried through: 999.. became 1000.. */
            *exp += (long long)first;
            buf[0] = '1';
            *len = 1;
            return;
        }
    }
    *exp += (long long)first;
    memmove(buf, buf + first, n - first);
    *len = n - first;
}

static size_t put_exponent(char *out, long long exp, bool two_digits)
{
    char tmp[24];
    size_t n = 0, o = 0;
    out[o++] = exp >= 0 ? '+' : '-';
    unsigned long long a = exp >= 0 ? (unsigned long long)exp : 0ULL - (unsigned long long)exp;
    do {
        tmp[n++] = (char)('0' + a % 10);
        a /= 10;
    } while (a);
    if (two_digits && n < 2)
        tmp[n++] = '0';
    while (n)
        out[o++] = tmp[--n];
    return o;
}

/* toStringImpl for a finite nonzero value; out has room for DLTI_FLOAT_PRINT_MAX. */
static size_t format_normal(const apf *f, unsigned precision, unsigned max_padding,
                            bool truncate_zero, char *out, uint32_t *ws)
{
    const sem *s = f->s;
    unsigned p = s->precision;
    size_t o = 0;
    if (f->sign)
        out[o++] = '-';
    if (!precision) /* enough digits to round-trip (Steele & White) */
        precision = 2 + p * 59 / 196;

    u128 sig = u128_and((u128){f->sig[0], f->sig[1]}, u128_mask(p));
    long long exp = (long long)f->exp - (p - 1);
    unsigned tz = sig.lo   ? (unsigned)__builtin_ctzll(sig.lo)
                  : sig.hi ? 64 + (unsigned)__builtin_ctzll(sig.hi)
                           : p;
    exp += tz;
    sig = u128_shr(sig, tz);

    big n;
    decimal_significand(sig, exp, precision, &n, &exp, ws);

    char digits[80];
    size_t nd = 0;
    bool in_trail = true;
    while (n.n) {
        uint32_t chunk = big_div_small(&n, POW10[9]);
        for (unsigned i = 0; i < 9 && (n.n || chunk); i++) {
            char c = (char)('0' + chunk % 10);
            chunk /= 10;
            if (in_trail && c == '0') {
                exp++;
            } else {
                digits[nd++] = c;
                in_trail = false;
            }
        }
    }
    if (nd == 0) /* unreachable: a normal value has a nonzero significand */
        digits[nd++] = '0';
    trim_digits(digits, &nd, &exp, precision);

    bool scientific;
    if (!max_padding) {
        scientific = true;
    } else if (exp >= 0) { /* 765e3 -> 765000, unless that looks too precise */
        scientific = exp > (long long)max_padding || nd + (size_t)exp > precision;
    } else {
        long long msd = exp + (long long)nd - 1;
        scientific = msd < 0 && -msd > (long long)max_padding;
    }

    if (scientific) {
        exp += (long long)nd - 1;
        out[o++] = digits[nd - 1];
        out[o++] = '.';
        if (nd == 1 && truncate_zero) {
            out[o++] = '0';
        } else {
            for (size_t i = 1; i < nd; i++)
                out[o++] = digits[nd - 1 - i];
        }
        if (!truncate_zero && precision > nd - 1)
            for (size_t i = 0; i < precision - nd + 1; i++)
                out[o++] = '0';
        out[o++] = truncate_zero ? 'E' : 'e';
        return o + put_exponent(out + o, exp, !truncate_zero);
    }
    if (exp >= 0) {
        for (size_t i = 0; i < nd; i++)
            out[o++] = digits[nd - 1 - i];
        for (long long i = 0; i < exp; i++)
            out[o++] = '0';
        return o;
    }
    long long whole = exp + (long long)nd;
    size_t i = 0;
    if (whole > 0) {
        for (; i < (size_t)whole; i++)
            out[o++] = digits[nd - 1 - i];
        out[o++] = '.';
    } else {
        out[o++] = '0';
        out[o++] = '.';
        for (long long z = 0; z < -whole; z++)
            out[o++] = '0';
    }
    for (; i < nd; i++)
        out[o++] = digits[nd - 1 - i];
    return o;
}

static size_t to_string(const apf *f, unsigned precision, unsigned max_padding, bool truncate_zero,
                        char *out, uint32_t *ws)
{
    size_t o = 0;
    switch (f->cat) {
    case CAT_INF:
        memcpy(out, f->sign ? "-Inf" : "+Inf", 4);
        return 4;
    case CAT_NAN:
        memcpy(out, "NaN", 3);
        return 3;
    case CAT_ZERO:
        if (f->sign)
            out[o++] = '-';
        if (max_padding) {
            out[o++] = '0';
        } else if (truncate_zero) {
            memcpy(out + o, "0.0E+0", 6);
            o += 6;
        } else {
            memcpy(out + o, "0.0", 3);
            o += 3;
            for (unsigned i = 1; i < precision; i++)
                out[o++] = '0';
            memcpy(out + o, "e+00", 4);
            o += 4;
        }
        return o;
    default:
        return format_normal(f, precision, max_padding, truncate_zero, out, ws);
    }
}

/* APInt::toString(radix 16, unsigned, formatAsCLiteral): "0x" and uppercase digits. */
static size_t to_hex(u128 v, char *out)
{
    static const char hex[] = "0123456789ABCDEF";
    char tmp[32];
    size_t n = 0;
    do {
        tmp[n++] = hex[v.lo & 15];
        v = u128_shr(v, 4);
    } while (!u128_is_zero(v));
    out[0] = '0';
    out[1] = 'x';
    for (size_t i = 0; i < n; i++)
        out[2 + i] = tmp[n - 1 - i];
    return n + 2;
}

#if defined(__SIZEOF_INT128__) && FLT_EVAL_METHOD == 0
/* print_value()'s first form of a normal f64 -- toString(precision 6) when it
 * reads back to the same value -- in 128-bit integers and one IEEE operation:
 * what nearly every f64 of a spec takes.  0 when the value needs the general
 * path (zero, subnormal, not finite, too many bits for 128, a reading-back that
 * one double operation cannot decide); (size_t)-1 when the form does not read
 * back (then the second form is printed).
 *
 * The digits are decimal_significand()'s and trim_digits()'s, bit for bit: the
 * integer N = sig * 2^e2 or sig * 5^-e2, `tens` from its bit length, then
 * floor(N / 10^tens) formed as a shift and one division, as there.  Reading back
 * "D * 10^X" (D of at most 6 digits, |X| <= 22) is one multiply or divide of
 * two exact doubles, which IEEE rounds to nearest-even as dec_to_apf() does
 * (in the default rounding mode, which is checked). */
static size_t print_f64_short(uint64_t raw, char *out)
{
    __extension__ typedef unsigned __int128 u128x;
    static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    unsigned biased = (unsigned)(raw >> 52) & 0x7FF;
    if (biased == 0 || biased == 0x7FF || fegetround() != FE_TONEAREST)
        return 0;
    uint64_t sig = (raw & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    long long e2 = (long long)biased - 1075;
    unsigned tz = (unsigned)__builtin_ctzll(sig);
    sig >>= tz;
    e2 += tz;
    const size_t required = (6 * 196 + 58) / 59;
    size_t sig_bits = 64 - (size_t)__builtin_clzll(sig), bits, tens;
    u128x y;
    long long exp10;
    if (e2 >= 0) {
        bits = sig_bits + (size_t)e2;
        tens = bits > required ? (bits - required) * 59 / 196 : 0;
        if (tens > 55 || bits - tens > 127) /* 5^55 < 2^128 */
            return 0;
        u128x five = 1;
        for (size_t i = 0; i < tens; i++)
            five *= 5;
        u128x n = (size_t)e2 >= tens ? (u128x)sig << ((size_t)e2 - tens)
                                     : (u128x)(sig >> (tens - (size_t)e2));
        y = n / five;
        exp10 = (long long)tens;
    } else {
        size_t texp = (size_t)-e2;
        if (texp <= 27) { /* sig * 5^27 < 2^116: exact */
            u128x n = sig;
            for (size_t i = 0; i < texp; i++)
                n *= 5;
            bits = 128 - (size_t)(n >> 64 ? __builtin_clzll((uint64_t)(n >> 64))
                                          : 64 + __builtin_clzll((uint64_t)n));
        } else {
            bits = bitlen_times_pow5((u128){sig, 0}, texp);
            if (!bits)
                return 0;
        }
        tens = bits > required ? (bits - required) * 59 / 196 : 0;
        exp10 = e2 + (long long)tens;
        if (texp >= tens) {
            if (texp - tens > 27)
                return 0;
            u128x n = sig;
            for (size_t i = 0; i < texp - tens; i++)
                n *= 5;
            y = tens >= 128 ? 0 : n >> tens;
        } else {
            if (tens - texp > 55 || tens >= 64)
                return 0;
            u128x five = 1;
            for (size_t i = 0; i < tens - texp; i++)
                five *= 5;
            y = (u128x)(sig >> tens) / five;
        }
    }
    /* the digits, least significant first, trailing zeros dropped; y has
     * about `required` bits, far below 64 */
    if (y >> 63)
        return 0;
    uint64_t y64 = (uint64_t)y;
    char digits[24];
    size_t nd = 0;
    bool in_trail = true;
    while (y64) {
        char c = (char)('0' + (unsigned)(y64 % 10));
        y64 /= 10;
        if (in_trail && c == '0') {
            exp10++;
        } else {
            digits[nd++] = c;
            in_trail = false;
        }
    }
    if (nd == 0)
        return 0;
    trim_digits(digits, &nd, &exp10, 6);
    /* read back: D * 10^exp10 */
    uint64_t d = 0;
    for (size_t i = nd; i-- > 0;)
        d = d * 10 + (uint64_t)(digits[i] - '0');
    if (exp10 < -22 || exp10 > 22)
        return 0;
    double v, back = exp10 >= 0 ? (double)d * p10[exp10] : (double)d / p10[-exp10];
    memcpy(&v, &raw, sizeof v);
    if (back != fabs(v))
        return (size_t)-1;
    /* format_normal(), scientific, truncate_zero false */
    size_t o = 0;
    if (raw >> 63)
        out[o++] = '-';
    long long exp = exp10 + (long long)nd - 1;
    out[o++] = digits[nd - 1];
    out[o++] = '.';
    for (size_t i = 1; i < nd; i++)
        out[o++] = digits[nd - 1 - i];
    for (size_t i = 0; i < 6 - nd + 1; i++)
        out[o++] = '0';
    out[o++] = 'e';
    return o + put_exponent(out + o, exp, true);
}
#else
static size_t print_f64_short(uint64_t raw, char *out)
{
    (void)raw, (void)out;
    return 0;
}
#endif

/* printFloatValue: the short scientific form if it reads back to the same value, else
 * APFloat's default form if the lexer would take it as a float, else the bits in hex. */
static size_t print_value(const sem *s, u128 bits, char *out)
{
    size_t fast = s == &SEMS[DLTI_FLOAT_F64] ? print_f64_short(bits.lo, out) : 0;
    if (fast && fast != (size_t)-1)
        return fast;
    apf f;
    from_bits(&f, s, bits);
    if (f.cat != CAT_INF && f.cat != CAT_NAN) {
        uint32_t ws[PRINT_WS_LIMBS];
        if (!fast) { /* fast == (size_t)-1: the short form does not read back */
            size_t n = to_string(&f, 6, 0, false, out, ws);
            bool negative;
            decimal d;
            apf back;
            if (scan_literal(out, n, &negative, &d) &&
                dec_to_apf(&back, s, &d, negative, ws, PRINT_WS_LIMBS) == 0 &&
                bitwise_equal(&back, &f))
                return n;
        }
        size_t n = to_string(&f, 0, 3, true, out, ws);
        if (memchr(out, '.', n))
            return n;
    }
    return to_hex(to_bits(&f), out);
}

/* ---- public API ---- */

const char *dlti_float_kind_name(dlti_float_kind kind)
{
    const sem *s = sem_of(kind);
    return s ? s->name : NULL;
}

int dlti_float_kind_lookup(const char *name, size_t len)
{
    if (!name)
        return -1;
    for (int k = 0; k < DLTI_FLOAT_KIND_COUNT; k++)
        if (strlen(SEMS[k].name) == len && memcmp(SEMS[k].name, name, len) == 0)
            return k;
    return -1;
}

unsigned dlti_float_bit_width(dlti_float_kind kind)
{
    const sem *s = sem_of(kind);
    return s ? s->size_bits : 0;
}

/* Workspace for reading a literal into f64: dec_workspace peaks at 339 limbs (771
 * significant digits scaled by 10^-1094), so MLIR-style parsing never allocates. */
#define F64_WS_LIMBS 352

int dlti_float_parse(dlti_float_kind kind, const char *text, size_t len, dlti_float_bits *out)
{
    const sem *s = sem_of(kind);
    bool negative;
    decimal d;
    if (!s || !text || !out || !scan_literal(text, len, &negative, &d))
        return -1;
    /* MLIR lexes the '-' separately, reads the literal as a double (StringRef::getAsDouble)
     * and negates that before converting to the attribute's type. */
    uint32_t ws[F64_WS_LIMBS];
    apf f;
    if (dec_to_apf(&f, &SEMS[DLTI_FLOAT_F64], &d, false, ws, F64_WS_LIMBS) != 0)
        return -1;
    f.sign ^= negative;
    convert(&f, s);
    *out = to_bits(&f);
    return 0;
}

int dlti_float_parse_exact(dlti_float_kind kind, const char *text, size_t len, dlti_float_bits *out)
{
    const sem *s = sem_of(kind);
    bool negative;
    decimal d;
    if (!s || !text || !out || !scan_literal(text, len, &negative, &d))
        return -1;
    uint32_t ws[F64_WS_LIMBS];
    apf f;
    if (dec_to_apf(&f, s, &d, negative, ws, F64_WS_LIMBS) != 0)
        return -1;
    *out = to_bits(&f);
    return 0;
}

size_t dlti_float_print(dlti_float_kind kind, dlti_float_bits bits, char *buf, size_t cap)
{
    const sem *s = sem_of(kind);
    char tmp[DLTI_FLOAT_PRINT_MAX];
    size_t n = s ? print_value(s, bits, tmp) : 0;
    if (buf && cap) {
        size_t c = n < cap ? n : cap - 1;
        memcpy(buf, tmp, c);
        buf[c] = '\0';
    }
    return n;
}

static apf from_double_bits(double value)
{
    uint64_t raw;
    memcpy(&raw, &value, sizeof raw);
    apf f;
    from_bits(&f, &SEMS[DLTI_FLOAT_F64], (u128){raw, 0});
    return f;
}

/* f64 to f64 (convert() within one semantics): the same bits, but a
 * signaling NaN comes out quiet. */
static uint64_t f64_identity(uint64_t raw)
{
    const uint64_t exp = UINT64_C(0x7ff0000000000000), quiet = UINT64_C(0x0008000000000000);
    if ((raw & exp) == exp && (raw & UINT64_C(0x000fffffffffffff)) && !(raw & quiet))
        raw |= quiet;
    return raw;
}

double dlti_float_to_double(dlti_float_kind kind, dlti_float_bits bits)
{
    if (kind == DLTI_FLOAT_F64) { /* the common case, without the general conversion */
        uint64_t raw = f64_identity(bits.lo);
        double r;
        memcpy(&r, &raw, sizeof r);
        return r;
    }
    const sem *s = sem_of(kind);
    if (!s)
        return 0.0;
    apf f;
    from_bits(&f, s, bits);
    bool nan = f.cat == CAT_NAN;
    convert(&f, &SEMS[DLTI_FLOAT_F64]);
    uint64_t raw = to_bits(&f).lo;
    /* APFloat turns an f8E8M0FNU NaN into an f64 infinity (its only significand bit is the
     * integer bit, which the f64 encoding drops); a NaN accessor should give a NaN. */
    if (nan && (raw & UINT64_C(0x000fffffffffffff)) == 0)
        raw |= UINT64_C(0x7ff8000000000000);
    double r;
    memcpy(&r, &raw, sizeof r);
    return r;
}

dlti_float_bits dlti_float_from_double(dlti_float_kind kind, double value)
{
    if (kind == DLTI_FLOAT_F64) {
        uint64_t raw;
        memcpy(&raw, &value, sizeof raw);
        return (dlti_float_bits){f64_identity(raw), 0};
    }
    const sem *s = sem_of(kind);
    if (!s)
        return (dlti_float_bits){0, 0};
    apf f = from_double_bits(value);
    convert(&f, s);
    return to_bits(&f);
}

int dlti_float_bits_fit(dlti_float_kind kind, dlti_float_bits bits)
{
    const sem *s = sem_of(kind);
    if (!s)
        return 0;
    u128 over = u128_and(bits, (u128){~u128_mask(s->size_bits).lo, ~u128_mask(s->size_bits).hi});
    return u128_is_zero(over);
}
