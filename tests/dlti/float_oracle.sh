#!/usr/bin/env bash
# Compares dlti/apfloat.c with mlir-opt-22 on many float literals of every float type.
#
# A C generator writes "type literal" cases: every bit pattern of the 4/6/8/16-bit types,
# random and boundary bit patterns of the wider ones, and random, boundary, halfway,
# double-rounding and over/underflowing decimals (up to ~1000 digits). Then:
#  1. bit patterns: each decimal as `arith.constant` + `arith.bitcast`, folded by
#     mlir-opt-22 --canonicalize, must equal what dlti_float_parse returns;
#  2. self-check (no MLIR): dlti_float_parse_exact against the C library's correctly
#     rounded strtof/strtod/strtold (and libquadmath's strtoflt128 if present), and
#     dlti_float_to_double/from_double against the host's conversions;
#  3. printed text: all cases in one module through mlir-opt-22 must print byte for byte
#     as dlti_float_print prints dlti_float_parse's result (hex cases: the bits as given).
#     Two results MLIR keeps outside any bit pattern are listed as known differences.
#
# usage: tests/dlti/float_oracle.sh [random-count-per-type [seed]]
# Needs gcc and mlir-opt-22 (MLIR_OPT=... to override); builds with ASan/UBSan unless
# ORACLE_CFLAGS is set; KEEP=1 keeps the work directory. Exits 1 on any mismatch.
set -euo pipefail

count=${1:-3000}
seed=${2:-12345}
root=$(cd "$(dirname "$0")/../.." && pwd)
mlir_opt=${MLIR_OPT:-mlir-opt-22}
work=$(mktemp -d "${TMPDIR:-/tmp}/float_oracle.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

cat >"$work/oracle.c" <<'EOF'
#include "dlti_private.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- generator ---- */

static uint64_t rng_state;
static uint64_t rnd(void) /* splitmix64 */
{
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static unsigned rndn(unsigned n) { return (unsigned)(rnd() % n); }

typedef struct info { int kind; int prec, emax, emin, width; int finite_only, no_sign; } info;

static void emit_hex(const info *k, uint64_t lo, uint64_t hi)
{
  const char *name = dlti_float_kind_name(k->kind);
  if (k->width < 64)
    lo &= (1ULL << k->width) - 1, hi = 0;
  else if (k->width < 128)
    hi &= (1ULL << (k->width - 64)) - 1;
  if (hi)
    printf("%s 0x%llX%016llX\n", name, (unsigned long long)hi, (unsigned long long)lo);
  else
    printf("%s 0x%llX\n", name, (unsigned long long)lo);
}

/* MLIR keeps two kinds of decimal result that no bit pattern can carry: an infinity in
 * the f6/f4 types (it prints the encoding "0x0"/"0x20"; the pattern reads back as zero)
 * and a negative f8E8M0FNU value (it prints "-1.000000e+00"; the pattern is the NaN 0xFF).
 * Their bit patterns are compared; their printed text is expected to differ ("noprint"). */
static void emit_dec(const info *k, const char *lit)
{
  double v = strtod(lit, NULL);
  bool noprint = (k->finite_only && isinf(v)) || (k->no_sign && v < 0);
  printf("%s %s%s\n", dlti_float_kind_name(k->kind), lit, noprint ? " noprint" : "");
}

/* A long double as an MLIR literal with `digits` significant digits (glibc prints the
 * exact binary value when asked for enough digits). */
static void emit_ld(const info *k, long double v, int digits)
{
  char buf[2000];
  if (!isfinite(v) || v == 0)
    return;
  snprintf(buf, sizeof buf, "%#.*Le", digits - 1, v);
  emit_dec(k, buf);
}

static void random_decimal(const info *k)
{
  char buf[1200];
  size_t o = 0;
  if (rndn(2))
    buf[o++] = '-';
  unsigned nd = 1 + rndn(rndn(10) == 0 ? 60 : 20);
  if (rndn(50) == 0)
    nd = 100 + rndn(900);
  unsigned dot = rndn(nd + 1);
  if (dot == 0)
    buf[o++] = '0', buf[o++] = '.';
  for (unsigned i = 0; i < nd; i++) {
    buf[o++] = (char)('0' + (i == 0 ? 1 + rndn(9) : rndn(10)));
    if (i + 1 == dot)
      buf[o++] = '.';
  }
  if (dot == nd && nd && buf[o - 1] != '.')
    buf[o++] = '.';
  if (rndn(4)) {
    /* decimal exponent spread around the type's range, and beyond it */
    int span = (int)((k->emax - k->emin + k->prec) * 0.30103) + 20;
    int e = (int)rndn(2 * (unsigned)span + 1) - span;
    if (k->prec >= 53 && rndn(4) == 0)
      e = (int)rndn(700) - 350;
    o += (size_t)sprintf(buf + o, "%c%s%d", rndn(2) ? 'e' : 'E', e >= 0 && rndn(2) ? "+" : "", e);
  }
  buf[o] = 0;
  emit_dec(k, buf);
}

/* Values of the type's own grid: exact points, halfway points and points near them, in
 * f64 (where MLIR rounds first) and in the type. */
static void grid_decimals(const info *k)
{
  int p = k->prec > 64 ? 64 : k->prec; /* long double has 64 bits */
  int emin = k->emin, emax = k->emax;
  if (emax > 1030) /* decimals reach f80/f128 through f64 */
    emin = -1100, emax = 1030;
  int e = emin + (int)rndn((unsigned)(emax - emin + 1 + p + 2)) - p - 1;
  if (e > emax)
    e = emax;
  long double m = (long double)(rnd() >> 1) / 9223372036854775808.0L; /* [0,1) */
  long double unit = ldexpl(1.0L, e - (p - 1));
  long double x = floorl((1.0L + m) * ldexpl(1.0L, e) / unit) * unit;
  long double half = x + unit / 2;
  int digits = 17 + (int)rndn(25);
  emit_ld(k, x, digits);
  emit_ld(k, -x, 30);
  emit_ld(k, half, 60);
  emit_ld(k, -half, 60);
  /* halfway in the type but nudged by less than an f64 ulp: MLIR rounds twice */
  emit_ld(k, half + ldexpl(half, -60), 60);
  emit_ld(k, half - ldexpl(half, -60), 60);
  /* f64 halfway points and their neighbours */
  double d = (double)x;
  if (isfinite(d) && d != 0) {
    long double mid = ((long double)d + (long double)nextafter(d, INFINITY)) / 2;
    emit_ld(k, mid, 800);
    emit_ld(k, nextafterl(mid, 0), 800);
    emit_ld(k, nextafterl(mid, INFINITY), 800);
  }
}

static void boundaries(const info *k)
{
  static const char *fixed[] = {
      "0.0", "-0.0", "1.0", "-1.0", "1.5", "0.1", "-0.1", "2.", "1.e5", "1.0E+3", "00.5",
      "16777217.0", "16777217.000000001", "1.0e-7", "1.0e-320", "4.9406564584124654e-324",
      "2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623157e308",
      "1.7976931348623158e308", "1.797693134862315807e308", "1.7976931348623159e308", "1.0e308",
      "1.0e309", "1.0e400", "-1.0e400", "1.0e-400", "1.0e99999", "1.0e-99999", "0.0e99999",
      "123456.7", "0.123456789", "32768.0", "65504.0", "65519.99", "65520.0", "-65520.0",
      "3.0e38", "3.4028235e38", "3.4028236e38", "1.0e-45", "7.0e-46", "1.4e-45",
      "0.000123456789", "1234567.0", "123456789012.0", "6.0", "7.0", "7.5", "8.0", "0.25",
      "0.75", "448.0", "464.0", "480.0", "240.0", "57344.0", "61440.0", "28.0", "30.0",
      "0.001953125", "0.0009765625", "0.00048828125", "3.0e-5", "5.877471754111438e-39",
      "1.7014118346046923e38", "3.402823669209385e38", "0.3", "3.0",
  };
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    emit_dec(k, fixed[i]);
  /* largest finite, its halfway to the next binade, least normal, least denormal */
  int p = k->prec > 64 ? 64 : k->prec;
  long double mx = ldexpl(2.0L - ldexpl(1.0L, 1 - p), k->emax);
  long double tiny = ldexpl(1.0L, k->emin - (k->prec - 1));
  long double vals[] = {mx, mx + ldexpl(1.0L, k->emax - p), ldexpl(1.0L, k->emin), tiny,
                        tiny / 2, tiny * 0.75L, tiny * 1.5L, ldexpl(1.0L, k->emax)};
  for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
    if (!isfinite(vals[i]) || vals[i] == 0)
      continue;
    emit_ld(k, vals[i], 40);
    emit_ld(k, -vals[i], 25);
    emit_ld(k, vals[i], 7);
  }
}

static void special_bits(const info *k)
{
  int w = k->width;
  uint64_t lo_all = w >= 64 ? ~0ULL : (1ULL << w) - 1;
  uint64_t hi_all = w > 64 ? (w >= 128 ? ~0ULL : (1ULL << (w - 64)) - 1) : 0;
  uint64_t sign_lo = w <= 64 ? 1ULL << (w - 1) : 0, sign_hi = w > 64 ? 1ULL << (w - 65) : 0;
  emit_hex(k, 0, 0);
  emit_hex(k, 1, 0);
  emit_hex(k, 2, 0);
  emit_hex(k, lo_all, hi_all);
  emit_hex(k, sign_lo, sign_hi);
  emit_hex(k, sign_lo | 1, sign_hi);
  emit_hex(k, lo_all & ~sign_lo, hi_all & ~sign_hi);
  emit_hex(k, (lo_all & ~sign_lo) - 1, hi_all & ~sign_hi);
  emit_hex(k, lo_all >> 1 >> 1, hi_all >> 2);
}

static void random_bits(const info *k)
{
  uint64_t lo = rnd(), hi = rnd();
  switch (rndn(4)) {
  case 0: /* tiny: denormals and small normals */
    lo >>= rndn(64);
    hi = 0;
    break;
  case 1: /* few significant bits */
    lo &= ~((1ULL << rndn(60)) - 1);
    break;
  default:
    break;
  }
  if (k->width == 80 && rndn(2)) /* mostly normals (integer bit set) */
    lo |= 1ULL << 63;
  emit_hex(k, lo, hi);
}

static int generate(unsigned n, uint64_t seed)
{
  rng_state = seed;
  for (int kind = 0; kind < DLTI_FLOAT_KIND_COUNT; kind++) {
    static const int params[DLTI_FLOAT_KIND_COUNT][3] = {
        {11, 15, -14},  {8, 127, -126},  {24, 127, -126}, {53, 1023, -1022}, {64, 16383, -16382},
        {113, 16383, -16382}, {11, 127, -126}, {3, 15, -14}, {4, 7, -6}, {4, 8, -6},
        {3, 15, -15}, {4, 7, -7}, {4, 4, -10}, {5, 3, -2}, {1, 127, -127}, {4, 2, 0},
        {3, 4, -2}, {2, 2, 0}};
    info k = {kind, params[kind][0], params[kind][1], params[kind][2],
              (int)dlti_float_bit_width(kind), 0, 0};
    k.finite_only = kind >= DLTI_FLOAT_F6E2M3FN;
    k.no_sign = kind == DLTI_FLOAT_F8E8M0FNU;
    if (k.width <= 16) {
      for (uint64_t b = 0; b < (1ULL << k.width); b++)
        emit_hex(&k, b, 0);
    } else {
      special_bits(&k);
      for (unsigned i = 0; i < n; i++)
        random_bits(&k);
    }
    boundaries(&k);
    for (unsigned i = 0; i < n; i++)
      random_decimal(&k);
    for (unsigned i = 0; i < n / 3; i++)
      grid_decimals(&k);
  }
  return 0;
}

/* ---- evaluator: what dlti/apfloat.c prints for each line ---- */

static int evaluate(void)
{
  static char line[1 << 16];
  while (fgets(line, sizeof line, stdin)) {
    size_t n = strcspn(line, "\n");
    line[n] = 0;
    char *lit = strchr(line, ' ');
    if (!lit)
      return 2;
    *lit++ = 0;
    lit[strcspn(lit, " ")] = 0;
    int kind = dlti_float_kind_lookup(line, strlen(line));
    dlti_float_bits b = {0, 0};
    if (lit[0] == '0' && lit[1] == 'x') {
      for (const char *c = lit + 2; *c; c++) {
        int d = *c <= '9' ? *c - '0' : (*c | 32) - 'a' + 10;
        b.hi = (b.hi << 4) | (b.lo >> 60);
        b.lo = (b.lo << 4) | (uint64_t)d;
      }
      if (!dlti_float_bits_fit(kind, b)) {
        puts("<does not fit>");
        continue;
      }
    } else if (dlti_float_parse(kind, lit, strlen(lit), &b) != 0) {
      puts("<parse error>");
      continue;
    }
    char out[DLTI_FLOAT_PRINT_MAX];
    dlti_float_print(kind, b, out, sizeof out);
    puts(out);
  }
  return 0;
}

/* ---- self-check against the C library: dlti_float_parse_exact vs the correctly rounded
 * strtof/strtod/strtold/strtoflt128, dlti_float_parse vs dlti_float_from_double(strtod),
 * and dlti_float_to_double vs the host's own conversions ---- */

#ifdef HAVE_QUADMATH
#include <quadmath.h>
#endif

static dlti_float_bits host_bits(int kind, const char *lit, int *ok)
{
  dlti_float_bits b = {0, 0};
  *ok = 1;
  if (kind == DLTI_FLOAT_F32) {
    float f = strtof(lit, NULL);
    uint32_t u;
    memcpy(&u, &f, 4);
    b.lo = u;
  } else if (kind == DLTI_FLOAT_F64) {
    double d = strtod(lit, NULL);
    memcpy(&b.lo, &d, 8);
  } else if (kind == DLTI_FLOAT_F80 && __LDBL_MANT_DIG__ == 64) {
    long double x = strtold(lit, NULL);
    unsigned char raw[sizeof x];
    memcpy(raw, &x, sizeof x);
    memcpy(&b.lo, raw, 8);
    b.hi = (uint64_t)raw[8] | (uint64_t)raw[9] << 8;
#ifdef HAVE_QUADMATH
  } else if (kind == DLTI_FLOAT_F128) {
    __float128 q = strtoflt128(lit, NULL);
    memcpy(&b, &q, 16);
#endif
  } else {
    *ok = 0;
  }
  return b;
}

static int same(dlti_float_bits a, dlti_float_bits b) { return a.lo == b.lo && a.hi == b.hi; }

static int selfcheck(void)
{
  static char line[1 << 16];
  long checks = 0, bad = 0;
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    char *lit = strchr(line, ' ');
    *lit++ = 0;
    lit[strcspn(lit, " ")] = 0;
    int kind = dlti_float_kind_lookup(line, strlen(line));
    char p1[DLTI_FLOAT_PRINT_MAX], p2[DLTI_FLOAT_PRINT_MAX];
    dlti_float_bits b = {0, 0};
    if (lit[0] == '0' && lit[1] == 'x') {
      for (const char *c = lit + 2; *c; c++) {
        int d = *c <= '9' ? *c - '0' : (*c | 32) - 'a' + 10;
        b.hi = (b.hi << 4) | (b.lo >> 60);
        b.lo = (b.lo << 4) | (uint64_t)d;
      }
    } else {
      int ok;
      dlti_float_bits exact, host = host_bits(kind, lit, &ok);
      dlti_float_parse(kind, lit, strlen(lit), &b);
      checks += 2;
      if (!same(b, dlti_float_from_double(kind, strtod(lit, NULL))))
        bad++, printf("parse != from_double(strtod): %s %s\n", line, lit);
      if (dlti_float_parse_exact(kind, lit, strlen(lit), &exact) != 0)
        bad++, printf("parse_exact failed: %s %s\n", line, lit);
      else if (ok && !same(exact, host))
        bad++, printf("parse_exact %016llx%016llx != C library %016llx%016llx: %s %s\n",
                      (unsigned long long)exact.hi, (unsigned long long)exact.lo,
                      (unsigned long long)host.hi, (unsigned long long)host.lo, line, lit);
    }
    /* to_double: the host's conversion where it has the type, else an exact round trip */
    double d = dlti_float_to_double(kind, b);
    checks++;
    dlti_float_print(kind, b, p1, sizeof p1);
    if (kind == DLTI_FLOAT_F32 || kind == DLTI_FLOAT_F64 ||
        (kind == DLTI_FLOAT_F80 && __LDBL_MANT_DIG__ == 64)) {
      double want;
      if (kind == DLTI_FLOAT_F32) {
        float f;
        uint32_t u = (uint32_t)b.lo;
        memcpy(&f, &u, 4);
        want = f;
      } else if (kind == DLTI_FLOAT_F64) {
        memcpy(&want, &b.lo, 8);
      } else {
        long double x = 0;
        unsigned char raw[sizeof x];
        memset(raw, 0, sizeof raw);
        memcpy(raw, &b.lo, 8);
        raw[8] = (unsigned char)b.hi;
        raw[9] = (unsigned char)(b.hi >> 8);
        memcpy(&x, raw, sizeof x);
        want = (double)x;
      }
      if (!(isnan(want) ? isnan(d) : memcmp(&want, &d, 8) == 0))
        bad++, printf("to_double %.17g != host %.17g: %s %s\n", d, want, line, lit);
#ifdef HAVE_QUADMATH
    } else if (kind == DLTI_FLOAT_F128) {
      __float128 q;
      memcpy(&q, &b, 16);
      double want = (double)q;
      if (!(isnan(want) ? isnan(d) : memcmp(&want, &d, 8) == 0))
        bad++, printf("to_double %.17g != host %.17g: %s %s\n", d, want, line, lit);
#endif
    } else if (strncmp(p1, "0x", 2) != 0 || !isnan(d)) {
      /* every value of the narrow types is exact in f64 */
      dlti_float_print(kind, dlti_float_from_double(kind, d), p2, sizeof p2);
      if (strcmp(p1, p2) != 0)
        bad++, printf("from_double(to_double(x)) prints %s, x prints %s: %s %s\n", p2, p1, line,
                      lit);
    }
  }
  printf("self-check: %ld passed, %ld failed\n", checks - bad, bad);
  return bad != 0;
}

/* ---- bit patterns: MLIR folds arith.bitcast of each decimal constant to an integer ---- */

static int is_decimal(const char *lit) { return !(lit[0] == '0' && lit[1] == 'x'); }

static int bits_module(void)
{
  static char line[1 << 16];
  long n = 0;
  printf("func.func @f() {\n");
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    char *lit = strchr(line, ' ');
    *lit++ = 0;
    lit[strcspn(lit, " ")] = 0;
    if (!is_decimal(lit))
      continue;
    unsigned w = dlti_float_bit_width(dlti_float_kind_lookup(line, strlen(line)));
    printf("  %%c%ld = arith.constant %s : %s\n", n, lit, line);
    printf("  %%b%ld = arith.bitcast %%c%ld : %s to i%u\n", n, n, line, w);
    printf("  \"test.use\"(%%b%ld) : (i%u) -> ()\n", n, w);
    n++;
  }
  printf("  return\n}\n");
  return 0;
}

/* Reads the canonicalized module's "test.use"(%cVALUE_iW) lines in order. */
static int compare_bits(const char *cases, const char *folded)
{
  FILE *fc = fopen(cases, "r"), *ff = fopen(folded, "r");
  static char line[1 << 16], out[4096];
  long checks = 0, bad = 0;
  if (!fc || !ff)
    return 2;
  while (fgets(line, sizeof line, fc)) {
    line[strcspn(line, "\n")] = 0;
    char *lit = strchr(line, ' ');
    *lit++ = 0;
    lit[strcspn(lit, " ")] = 0;
    if (!is_decimal(lit))
      continue;
    char *use = NULL;
    while (fgets(out, sizeof out, ff))
      if ((use = strstr(out, "\"test.use\"(%c")))
        break;
    if (!use) {
      printf("folded module ended early\n");
      return 1;
    }
    /* %c<signed decimal>_iW: two's complement in W bits */
    char *p = use + strlen("\"test.use\"(%c");
    int neg = *p == '-';
    p += neg;
    unsigned __int128 v = 0;
    for (; *p >= '0' && *p <= '9'; p++)
      v = v * 10 + (unsigned)(*p - '0');
    if (*p != '_') {
      printf("unfolded bitcast: %s", out);
      return 1;
    }
    int kind = dlti_float_kind_lookup(line, strlen(line));
    unsigned w = dlti_float_bit_width(kind);
    if (neg)
      v = 0 - v;
    if (w < 128)
      v &= ((unsigned __int128)1 << w) - 1;
    dlti_float_bits b;
    checks++;
    if (dlti_float_parse(kind, lit, strlen(lit), &b) != 0 || b.lo != (uint64_t)v ||
        b.hi != (uint64_t)(v >> 64)) {
      if (bad++ < 30)
        printf("BITS MISMATCH %s %s: mlir %016llx%016llx, dlti %016llx%016llx\n", line, lit,
               (unsigned long long)(v >> 64), (unsigned long long)v, (unsigned long long)b.hi,
               (unsigned long long)b.lo);
    }
  }
  printf("bit patterns: %ld passed, %ld failed\n", checks - bad, bad);
  return bad != 0;
}

int main(int argc, char **argv)
{
  if (argc >= 2 && strcmp(argv[1], "bitsmodule") == 0)
    return bits_module();
  if (argc >= 4 && strcmp(argv[1], "bits") == 0)
    return compare_bits(argv[2], argv[3]);
  if (argc >= 2 && strcmp(argv[1], "check") == 0)
    return selfcheck();
  if (argc >= 2 && strcmp(argv[1], "gen") == 0)
    return generate(argc > 2 ? (unsigned)atoi(argv[2]) : 1000,
                    argc > 3 ? strtoull(argv[3], NULL, 10) : 1);
  if (argc >= 2 && strcmp(argv[1], "eval") == 0)
    return evaluate();
  fprintf(stderr, "usage: oracle gen COUNT SEED | oracle eval\n");
  return 2;
}
EOF

# dlti_private.h includes the public headers, version.h (generated by meson) among them.
mkdir -p "$work/include/sysdesc"
sed 's/@MAJOR@/0/; s/@MINOR@/0/; s/@PATCH@/0/; s/@VERSION@/0.0.0/' \
  "$root/include/sysdesc/version.h.in" >"$work/include/sysdesc/version.h"
cflags=(-std=gnu17 -Wall -Wextra -I"$root/dlti" -I"$root/base" -I"$root/dlti/internal" -I"$root/include" -I"$work/include")
read -r -a extra <<<"${ORACLE_CFLAGS:--O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all}"
# libquadmath, where present, adds f128 to the self-check.
gcc "${cflags[@]}" "${extra[@]}" -DHAVE_QUADMATH "$root/dlti/apfloat.c" "$work/oracle.c" -lquadmath \
  -lm -o "$work/oracle" 2>/dev/null ||
  gcc "${cflags[@]}" "${extra[@]}" "$root/dlti/apfloat.c" "$work/oracle.c" -lm -o "$work/oracle"
"$work/oracle" gen "$count" "$seed" >"$work/cases.txt"

# One module holding every case; names sort in case order, as the printer sorts them.
awk '{ printf "%s test.c%07d = %s : %s", (NR == 1 ? "module attributes {" : ","), NR, $2, $1 }
     END { print "} {}" }' "$work/cases.txt" >"$work/cases.mlir"
"$mlir_opt" "$work/cases.mlir" >"$work/mlir.out"
head -n 1 "$work/mlir.out" | sed 's/^module attributes {//; s/} {$//' |
  awk 'BEGIN { RS = ", " } { sub(/^test\.c[0-9]+ = /, ""); sub(/ : [A-Za-z0-9]+\n?$/, ""); print }' \
    >"$work/expected.txt"
"$work/oracle" eval <"$work/cases.txt" >"$work/actual.txt"

"$work/oracle" bitsmodule <"$work/cases.txt" >"$work/bits.mlir"
"$mlir_opt" --allow-unregistered-dialect --canonicalize "$work/bits.mlir" >"$work/bits.out"
"$work/oracle" bits "$work/cases.txt" "$work/bits.out" >"$work/bits.txt" ||
  { head -n 30 "$work/bits.txt"; exit 1; }
tail -n 1 "$work/bits.txt"

"$work/oracle" check <"$work/cases.txt" >"$work/check.txt" ||
  { head -n 30 "$work/check.txt"; tail -n 1 "$work/check.txt"; exit 1; }
tail -n 1 "$work/check.txt"

test "$(wc -l <"$work/cases.txt")" -eq "$(wc -l <"$work/expected.txt")" ||
  { echo "case count mismatch with mlir-opt output" >&2; exit 1; }
paste -d '\t' "$work/cases.txt" "$work/expected.txt" "$work/actual.txt" | awk -F '\t' '
  { split($1, c, " "); kind = c[1]
    if (!(kind in seen)) { seen[kind] = 1; order[nk++] = kind }
    if ($2 != $3 && c[3] == "noprint") {
      skipped++; if (nshown++ < 3) printf "known difference %s %s: mlir %s, dlti %s\n", kind, c[2], $2, $3; next }
    if ($2 == $3) pass[kind]++
    else { fail[kind]++; failed++; if (shown++ < 30) printf "MISMATCH %s: mlir %s, dlti %s\n", $1, $2, $3 }
    total++ }
  END {
    for (i = 0; i < nk; i++) printf "  %-14s %7d passed, %d failed\n", order[i], pass[order[i]], fail[order[i]] + 0
    printf "printed text: %d passed, %d failed (%d known differences)\n", total - failed, failed + 0, skipped + 0
    exit failed > 0 }'
