#ifndef DLTI_LITERAL_H
#define DLTI_LITERAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { DLTI_LIT_OK = 0, DLTI_LIT_RANGE = -1, DLTI_LIT_NOMEM = -2 };

/* The value of the integer literal `s` (decimal digits or 0x-hex, no sign)
 * negated when `negative`, as `width` two's-complement bits, checked the way
 * MLIR checks it (signed: index and siN; signless: either reading).  On
 * success *out is malloc'ed and holds *out_words words. */
int dlti_int_literal(const char *s, size_t n, bool negative, unsigned width, bool is_signed,
                     uint64_t **out, size_t *out_words);

/* The same for decimal literals of at most 19 digits and widths 1..64,
 * without allocating; returns DLTI_LIT_NOMEM for inputs it does not handle. */
int dlti_int_literal_small(const char *s, size_t n, bool negative, unsigned width, bool is_signed,
                           uint64_t *out);

#endif
