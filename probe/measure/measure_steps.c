/* Each cache level's effective capacity, read off a latency sweep
 * (docs/measure.md, "Effective capacity"): a level's plateau is its own
 * latency; the level ends where the latency steps above MK_STEP times
 * that.  A pure function of the curve, so that tests/probe/
 * test_measure_steps.c checks it on recorded curves. */
#include "measure_private.h"

/* The rise from the level below has ended where the next point rises by
 * less than this. */
#define FLAT 1.25
/* A level's own latency has settled when the median of its stretch is
 * within this of it; at most this many rounds. */
#define SETTLED 1.1
#define SETTLE_ROUNDS 4

/* The step after point a: the first of two points in a row above `limit`
 * (one alone is noise), or the last point; n when none. */
static size_t step_after(const mk_sweep *s, size_t a, double limit)
{
    size_t b = a + 1;
    while (b < s->n && !(s->ns[b] > limit && (b + 1 >= s->n || s->ns[b + 1] > limit)))
        b++;
    return b;
}

/* The median latency of points [a, b) (of an even count the lower middle). */
static double median_of(const mk_sweep *s, size_t a, size_t b)
{
    double v[MK_SWEEP_MAX];
    size_t m = 0;
    for (size_t i = a; i < b && i < s->n; i++) {
        /* insertion: a stretch is a few dozen points */
        size_t j = m++;
        while (j > 0 && v[j - 1] > s->ns[i]) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = s->ns[i];
    }
    return m ? v[(m - 1) / 2] : 0;
}

void mk_find_capacities(const mk_sweep *s, const size_t *reported, size_t nlevels,
                        mk_capacity *out)
{
    size_t n = s->n;
    /* Memory's latency: the last point, where the sweep reached twice the
     * largest level's reported size; unknown (0) where it stopped short. */
    double mem_ns =
        n && nlevels && s->bytes[n - 1] / 2 >= reported[nlevels - 1] ? s->ns[n - 1] : 0;
    size_t start = 0, below = 0;
    bool no_more = false; /* a level below kept nothing: neither do those above it */
    for (size_t k = 0; k < nlevels; k++) {
        mk_capacity *c = &out[k];
        *c = (mk_capacity){.bytes = below, .open = !no_more, .none = no_more,
                           .below_reported = no_more && below <= reported[k] / 2};
        if (no_more || start >= n)
            continue; /* (else the sweep ended in a level below: nothing known of this one) */
        /* Past the rise from the level below, to where the curve flattens. */
        size_t a = start;
        while (k > 0 && a + 1 < n && s->ns[a + 1] > FLAT * s->ns[a])
            a++;
        /* Its own latency: first the lowest of three points there (a
         * median's noise is upwards: a load is never faster than its
         * cache), then the median of the level's stretch of the curve up to
         * its step, until that settles: a rise from the level below that
         * pauses (partial hits in it, as a shared L2 gives) is not taken
         * for the level's own latency. */
        double hit = s->ns[a];
        for (size_t i = a + 1; i < n && i <= a + 2; i++)
            if (s->ns[i] < hit)
                hit = s->ns[i];
        size_t b = step_after(s, a, MK_STEP * hit);
        for (int round = 0; round < SETTLE_ROUNDS; round++) {
            double med = median_of(s, a, b);
            if (!(med > SETTLED * hit))
                break;
            hit = med;
            b = step_after(s, a, MK_STEP * hit);
        }
        c->hit_ns = hit;
        if (k > 0 && mem_ns > 0 && hit * MK_NOT_A_LEVEL >= mem_ns) {
            c->open = false;
            c->none = true;
            c->below_reported = below <= reported[k] / 2;
            no_more = true;
            continue;
        }
        if (b >= n) {
            c->bytes = s->bytes[n - 1];
            start = n;
        } else {
            c->bytes = s->bytes[b - 1];
            c->open = false;
            c->below_reported = s->bytes[b] <= reported[k] / 2;
            start = b;
        }
        below = c->bytes;
    }
}
