/* Whether a double arrives in a float type as itself (silent
 * loss): narrow formats have no infinities (f8E4M3FN, the FNUZ kinds, f6,
 * f4), no NaN (f6, f4), no negative zero (FNUZ), no sign or zero at all
 * (f8E8M0FNU), and saturate or turn to NaN on overflow, so a conversion can
 * give another number.  Rounding to the nearest value of the type is not
 * loss (MLIR rounds decimal literals the same way); everything else is. */
#include "dlti_private.h"

#include <math.h>

/* The largest finite value of a kind at most 8 bits wide, and the gap below
 * it (scanning its 256 patterns: only asked when a value rounds down). */
static void narrow_max(dlti_float_kind kind, double *max, double *gap)
{
    unsigned w = dlti_float_bit_width(kind);
    double m = 0, below = 0;
    for (uint64_t p = 0; p < ((uint64_t)1 << w); p++) {
        double v = dlti_float_to_double(kind, (dlti_float_bits){p, 0});
        if (!isfinite(v) || v <= 0)
            continue;
        if (v > m) {
            below = m;
            m = v;
        } else if (v > below && v < m) {
            below = v;
        }
    }
    *max = m;
    *gap = m - below;
}

const char *dlti_float_loss(dlti_float_kind kind, double x)
{
    dlti_float_bits bits = dlti_float_from_double(kind, x);
    double y = dlti_float_to_double(kind, bits);
    if (isnan(x))
        return isnan(y) ? NULL : "the type has no NaN";
    if (isinf(x))
        return isinf(y) && signbit(x) == signbit(y) ? NULL : "the type has no infinities";
    if (isnan(y))
        return "it becomes NaN in this type";
    if (isinf(y))
        return "it overflows to infinity";
    if (x == 0 && y != 0)
        return "the type has no zero";
    if (signbit(x) != signbit(y))
        return x == 0 ? "the type has no negative zero" : "the sign is lost in this type";
    if (fabs(x) > fabs(y) && dlti_float_bit_width(kind) <= 8) {
        double max, gap;
        narrow_max(kind, &max, &gap);
        /* past the largest value by half a step or more: overflow, which
         * these types saturate instead of giving infinity */
        if (fabs(y) == max && fabs(x) - max >= gap / 2)
            return "it saturates to the largest value";
    }
    return NULL;
}
