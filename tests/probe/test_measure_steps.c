/* The effective capacities read off a latency sweep (probe/measure/
 * measure_steps.c, docs/measure.md "Effective capacity"), without the
 * hardware: curves recorded on a 2-vCPU VM (AMD EPYC, 32 KiB L1, 512 KiB
 * L2, a 32 MiB L3 of which the VM keeps 2-5 MiB), three by the sweep's first
 * version (one pass, 7 samples a point) and one by `sysdesc measure`, and made-up
 * curves of the shapes the rule must tell apart: a machine whose caches
 * deliver their size, an L3 that keeps nothing, a sweep that stops inside
 * the last level, a noisy point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "measure/measure_private.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)

/* The sweep's working sets of those recordings: 4 KiB x 2^(i/4), whole lines. */
static const size_t vm_bytes[] = {
    4096,     4864,     5760,     6848,     8128,     9728,     11584,    13760,    16320,
    19456,    23168,    27520,    32704,    38912,    46336,    55104,    65472,    77888,
    92672,    110208,   131008,   155840,   185344,   220416,   262080,   311680,   370688,
    440832,   524224,   623424,   741440,   881728,   1048512,  1246912,  1482880,  1763456,
    2097088,  2493888,  2965760,  3526912,  4194240,  4987840,  5931584,  7053888,  8388544,
    9975744,  11863168, 14107776, 16777088, 19951488, 23726400, 28215616, 33554240, 39902912,
    47452864, 56431296, 67108480};
#define VM_N (sizeof(vm_bytes) / sizeof(vm_bytes[0]))

/* Three sweeps of that VM, one after the other (ns a load, each the median of 7). */
static const double vm_quiet[VM_N] = {
    1.40,  1.39,  1.39,  1.36,  1.44,  1.36,  1.32,   1.32,   1.36,   1.40,   1.38,   1.43,
    1.45,  4.04,  4.00,  4.12,  4.16,  4.24,  4.12,   4.12,   4.13,   4.20,   4.31,   4.03,
    4.70,  5.00,  6.81,  14.26, 29.59, 20.82, 20.85,  20.06,  18.24,  19.40,  17.88,  17.64,
    18.51, 18.05, 18.34, 19.76, 24.88, 58.58, 152.82, 150.33, 149.35, 133.62, 139.72, 134.24,
    144.82, 178.85, 158.80, 162.88, 155.39, 174.44, 174.22, 299.36, 195.80};
static const double vm_gradual[VM_N] = {
    1.33,  1.34,  1.33,  1.35,  1.37,  1.37,  1.38,   1.34,   1.36,   1.34,   1.33,   1.37,
    1.32,  3.93,  3.97,  4.01,  4.01,  4.02,  3.98,   3.99,   4.00,   4.01,   4.12,   4.22,
    5.45,  6.70,  6.86,  8.98,  12.11, 13.74, 14.65,  16.08,  16.28,  15.21,  17.78,  18.05,
    17.47, 18.82, 17.98, 19.04, 24.52, 29.22, 116.30, 129.44, 161.04, 160.64, 178.51, 183.89,
    229.67, 192.95, 186.38, 190.09, 192.75, 195.38, 206.88, 190.52, 197.63};
/* A disturbed one: a bump inside L1 (27520 bytes: 2.31 ns) and an L2 already
 * at nearly twice its latency at 220-262 KiB. */
static const double vm_disturbed[VM_N] = {
    1.46,  1.45,  1.46,  1.49,  1.47,  1.47,  1.46,   1.42,   1.47,   1.58,   1.85,   2.31,
    1.89,  4.04,  4.15,  4.19,  4.25,  4.55,  4.32,   4.56,   4.81,   5.20,   5.81,   7.79,
    7.61,  10.72, 10.78, 14.61, 15.36, 17.61, 17.29,  17.05,  18.37,  18.17,  20.48,  23.11,
    34.77, 31.21, 46.70, 51.80, 107.88, 171.28, 184.90, 177.08, 185.04, 186.07, 160.39, 180.98,
    184.75, 178.65, 180.58, 185.45, 185.51, 181.37, 191.26, 191.70, 187.68};

/* A sweep of `sysdesc measure` itself on that VM (3 passes, its working
 * sets end at twice the L3): L2 hits fade from 180 KiB on, and the rise to
 * the L3 pauses at 8-9 ns (262-311 KiB) before the L3's own 17 ns; the
 * pause is not the L3's latency. */
static const size_t sweep_bytes[] = {
    4096,     4864,     5760,     6848,     8128,     9728,     11584,    13760,    16320,
    19456,    23168,    27520,    32704,    38912,    46336,    55104,    65472,    77888,
    92672,    110208,   131008,   155840,   185344,   220416,   262080,   311680,   370688,
    440832,   524224,   623424,   741440,   881728,   1048512,  1246912,  1482880,  1763456,
    2097088,  2493888,  2965760,  3526912,  4194240,  4987840,  5931584,  7053888,  8388544,
    9975744,  11863232, 14107840, 16777152, 19951552, 23726528, 28215744, 33554368, 39903168,
    47453120, 56431552, 67108800, 67108864};
#define SWEEP_N (sizeof(sweep_bytes) / sizeof(sweep_bytes[0]))
static const double vm_shelf[SWEEP_N] = {
    1.45,  1.44,  1.45,  1.45,  1.45,  1.43,   1.47,   1.49,   1.50,   1.62,   1.87,   2.88,
    3.57,  4.22,  4.22,  4.24,  4.30,  4.26,   4.31,   4.26,   4.58,   4.91,   6.47,   7.91,
    8.36,  9.47,  11.51, 13.28, 14.48, 18.34,  17.19,  17.24,  16.61,  17.21,  17.49,  17.81,
    19.03, 18.70, 18.97, 21.13, 23.59, 48.69,  56.45,  78.24,  86.28,  109.08, 119.86, 116.16,
    144.54, 150.52, 156.27, 177.08, 172.97, 170.64, 193.90, 170.25, 179.86, 173.95};

static const size_t vm_reported[] = {32 * KIB, 512 * KIB, 32 * MIB};

static void sweep_of(mk_sweep *s, const size_t *bytes, const double *ns, size_t n)
{
    memset(s, 0, sizeof(*s));
    s->n = n;
    for (size_t i = 0; i < n; i++) {
        s->bytes[i] = bytes[i];
        s->ns[i] = ns[i];
    }
}

/* What the function found, against what it must: bytes, open, none, flag. */
static void expect(const mk_capacity *c, size_t bytes, bool open, bool none, bool below)
{
    assert_int_equal(c->bytes, bytes);
    assert_int_equal(c->open, open);
    assert_int_equal(c->none, none);
    assert_int_equal(c->below_reported, below);
}

static void test_vm_recorded(void **state)
{
    (void)state;
    mk_sweep s;
    mk_capacity c[3];
    /* L1 whole, L2 at 370 KiB of 512 (not under half), L3 at 4 MiB of 32: flagged. */
    sweep_of(&s, vm_bytes, vm_quiet, VM_N);
    mk_find_capacities(&s, vm_reported, 3, c);
    expect(&c[0], 32704, false, false, false);
    expect(&c[1], 370688, false, false, false);
    expect(&c[2], 4194240, false, false, true);
    assert_true(c[2].hit_ns > 15 && c[2].hit_ns < 25); /* the L3's own latency, not memory's */
    /* A rise from L2 that flattens late: the L3's latency is taken after it. */
    sweep_of(&s, vm_bytes, vm_gradual, VM_N);
    mk_find_capacities(&s, vm_reported, 3, c);
    expect(&c[0], 32704, false, false, false);
    expect(&c[1], 370688, false, false, false);
    expect(&c[2], 4987840, false, false, true);
    /* One noisy point inside L1 is no step; an L2 whose step comes just
     * above half its size is not flagged (the next working set, past the
     * step, is more than half). */
    sweep_of(&s, vm_bytes, vm_disturbed, VM_N);
    mk_find_capacities(&s, vm_reported, 3, c);
    expect(&c[0], 32704, false, false, false);
    expect(&c[1], 262080, false, false, false);
    expect(&c[2], 2493888, false, false, true);
    /* The pause at 8-9 ns: the L3's latency is its stretch's median (17
     * ns), so its step is the one to memory at 4-5 MiB, not 18 ns at 600 KiB. */
    sweep_of(&s, sweep_bytes, vm_shelf, SWEEP_N);
    mk_find_capacities(&s, vm_reported, 3, c);
    expect(&c[0], 27520, false, false, false); /* 2.88 ns is not above 2 x 1.44 */
    expect(&c[1], 262080, false, false, false);
    expect(&c[2], 4194240, false, false, true);
    assert_true(c[2].hit_ns > 15 && c[2].hit_ns < 20);
}

/* A made-up curve: levels of `cap` bytes at `ns` each, memory at mem_ns,
 * half-way (in latency) over the first working set past a capacity; from
 * 4 KiB by 2^(1/4) to `to`, and `to` itself. */
static void made_up(mk_sweep *s, const size_t *cap, const double *ns, size_t nlv, double mem_ns,
                    size_t to)
{
    memset(s, 0, sizeof(*s));
    double b = 4096;
    while (b <= (double)to) {
        s->bytes[s->n++] = (size_t)b / 64 * 64;
        b *= 1.189207115002721;
    }
    if (s->bytes[s->n - 1] < to)
        s->bytes[s->n++] = to;
    for (size_t i = 0; i < s->n; i++) {
        size_t x = s->bytes[i], k = 0;
        while (k < nlv && x > cap[k])
            k++;
        double here = k < nlv ? ns[k] : mem_ns;
        /* just past a level: half its loads still hit it */
        if (k > 0 && i > 0 && s->bytes[i - 1] <= cap[k - 1])
            here = (ns[k - 1] + here) / 2;
        s->ns[i] = here;
    }
}

/* The last working set of the made-up curve that is at most `bytes`. */
static size_t last_at_most(const mk_sweep *s, size_t bytes)
{
    size_t r = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->bytes[i] <= bytes)
            r = s->bytes[i];
    return r;
}

static void test_caches_deliver_their_size(void **state)
{
    (void)state;
    const size_t cap[] = {48 * KIB, 2 * MIB, 32 * MIB};
    const double ns[] = {1.0, 3.5, 14.0};
    mk_sweep s;
    mk_capacity c[3];
    made_up(&s, cap, ns, 3, 95.0, 64 * MIB);
    mk_find_capacities(&s, cap, 3, c);
    for (int k = 0; k < 3; k++) {
        expect(&c[k], last_at_most(&s, cap[k]), false, false, false);
        assert_true(c[k].hit_ns == ns[k]);
    }
    /* A noisy point (a sample interrupted) in L2, alone above twice its latency. */
    for (size_t i = 0; i < s.n; i++)
        if (s.bytes[i] > 512 * KIB) {
            s.ns[i] = 9.0;
            break;
        }
    mk_find_capacities(&s, cap, 3, c);
    expect(&c[1], last_at_most(&s, cap[1]), false, false, false);
}

static void test_level_keeps_nothing(void **state)
{
    (void)state;
    /* The L3 answers at memory's latency: its plateau is memory's, so it
     * keeps nothing beyond L2; so does an L4 above it. */
    const size_t cap[] = {32 * KIB, 1 * MIB, 32 * MIB, 128 * MIB};
    const double ns[] = {1.2, 4.0, 120.0, 125.0};
    mk_sweep s;
    mk_capacity c[4];
    made_up(&s, cap, ns, 4, 130.0, 256 * MIB);
    mk_find_capacities(&s, cap, 4, c);
    expect(&c[1], last_at_most(&s, cap[1]), false, false, false);
    expect(&c[2], c[1].bytes, false, true, true);
    expect(&c[3], c[1].bytes, false, true, true);
    /* Where the sweep did not reach twice the last level, memory's latency
     * is unknown: no level is judged to keep nothing. */
    made_up(&s, cap, ns, 4, 130.0, 64 * MIB);
    mk_find_capacities(&s, cap, 4, c);
    assert_false(c[2].none);
}

static void test_sweep_stops_inside_a_level(void **state)
{
    (void)state;
    /* The mode's bound stops the sweep at 16 MiB, inside a 64 MiB L3: its
     * capacity is at least the last working set, not flagged; a level
     * above it is not reached at all. */
    const size_t cap[] = {32 * KIB, 1 * MIB, 64 * MIB, 256 * MIB};
    const double ns[] = {1.2, 4.0, 15.0, 40.0};
    mk_sweep s;
    mk_capacity c[4];
    made_up(&s, cap, ns, 4, 100.0, 16 * MIB);
    mk_find_capacities(&s, cap, 4, c);
    expect(&c[2], s.bytes[s.n - 1], true, false, false);
    expect(&c[3], s.bytes[s.n - 1], true, false, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vm_recorded),
        cmocka_unit_test(test_caches_deliver_their_size),
        cmocka_unit_test(test_level_keeps_nothing),
        cmocka_unit_test(test_sweep_stops_inside_a_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
