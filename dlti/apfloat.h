/* Floating point values of MLIR's float types, parsed and printed byte-for-byte as
 * MLIR 22 (LLVM APFloat) does. Depends on libc only; never prints, aborts or exits. */
#ifndef DLTI_FLOAT_H
#define DLTI_FLOAT_H
#include <stddef.h>
#include <stdint.h>

typedef enum dlti_float_kind {
  DLTI_FLOAT_F16, DLTI_FLOAT_BF16, DLTI_FLOAT_F32, DLTI_FLOAT_F64, DLTI_FLOAT_F80, DLTI_FLOAT_F128,
  DLTI_FLOAT_TF32, DLTI_FLOAT_F8E5M2, DLTI_FLOAT_F8E4M3, DLTI_FLOAT_F8E4M3FN, DLTI_FLOAT_F8E5M2FNUZ,
  DLTI_FLOAT_F8E4M3FNUZ, DLTI_FLOAT_F8E4M3B11FNUZ, DLTI_FLOAT_F8E3M4, DLTI_FLOAT_F8E8M0FNU,
  DLTI_FLOAT_F6E2M3FN, DLTI_FLOAT_F6E3M2FN, DLTI_FLOAT_F4E2M1FN,
  DLTI_FLOAT_KIND_COUNT
} dlti_float_kind;

/* A float value as its bit pattern (APFloat::bitcastToAPInt): bits 0..63 in lo, 64..127 in hi. */
typedef struct dlti_float_bits { uint64_t lo, hi; } dlti_float_bits;

/* A buffer size dlti_float_print never needs more than (the longest text is 44 bytes
 * plus the NUL: a negative f128 in APFloat's default form, "-d.<35 digits>E-dddd"). */
#define DLTI_FLOAT_PRINT_MAX 64

/* MLIR type name ("f16", "bf16", "f8E4M3FN", ...) <-> kind. name returns NULL for an
 * invalid kind; lookup compares exactly `len` bytes and returns -1 if unknown. */
const char *dlti_float_kind_name(dlti_float_kind kind);
int dlti_float_kind_lookup(const char *name, size_t len);

/* Storage width: 16, 16, 32, 64, 80, 128, 19 for tf32, 8 for f8*, 6 for f6*, 4 for f4*;
 * 0 for an invalid kind. */
unsigned dlti_float_bit_width(dlti_float_kind kind);

/* Parses a decimal literal exactly as mlir-opt 22 turns `text : type` into a FloatAttr.
 * Syntax (MLIR's lexer): optional '-', [0-9]+ '.' [0-9]* ([eE][+-]?[0-9]+)?, the whole
 * of text[0..len). Like MLIR (Parser::parseFloatFromLiteral), the literal is first rounded
 * to the nearest f64 (exactly, any number of digits; overflow gives inf), negated, and then
 * converted to `kind` with round-to-nearest-even (APFloat::convert): so for f16/bf16/f32/...
 * a decimal can round twice (16777217.000000001 : f32 gives 16777216, as MLIR does), and
 * f80/f128 literals carry only f64 precision. Overflow gives +-inf, NaN (FN/FNUZ kinds) or
 * the largest finite value (f6/f4 kinds), as APFloat does. The result is the pattern MLIR's
 * bitcast gives, also where MLIR's in-memory value has none: an f64 infinity in the f6/f4
 * kinds (MLIR prints "0x0"/"0x20", the pattern reads back as +-0) and a negative
 * f8E8M0FNU value (the sign lands in bit 7: -1.0 gives 0xFF, a NaN; MLIR prints
 * "-1.000000e+00").
 * Returns 0 on success, -1 if the text is not such a literal (or for an invalid kind). */
int dlti_float_parse(dlti_float_kind kind, const char *text, size_t len, dlti_float_bits *out);

/* Same syntax, but rounded once, directly into `kind`, as APFloat::convertFromString does
 * (this is what MLIR's printer uses to re-read its own output). Exact for any number of
 * digits. Returns 0 on success, -1 on bad syntax, invalid kind or out of memory (only
 * literals of thousands of digits for f80/f128 allocate). */
int dlti_float_parse_exact(dlti_float_kind kind, const char *text, size_t len,
                           dlti_float_bits *out);

/* Writes what MLIR's printFloatValue prints for the value (without the " : type"
 * suffix), NUL-terminated, into buf: "1.500000e+00", "0.123456789", "0x7FC00000", ...
 * Bits beyond the kind's width are ignored. Like snprintf, it writes at most cap bytes
 * (always NUL-terminated when cap > 0) and returns the full length; cap >=
 * DLTI_FLOAT_PRINT_MAX is always enough. An invalid kind prints "". */
size_t dlti_float_print(dlti_float_kind kind, dlti_float_bits bits, char *buf, size_t cap);

/* Conversions for typed accessors and builders (FloatAttr::getValueAsDouble and
 * FloatAttr::get(type, double)). to_double is exact where the value is representable in
 * f64, else rounded to nearest-even (f80/f128 overflow to +-inf); every NaN gives a NaN
 * (APFloat would turn the f8E8M0FNU NaN into +inf).
 * from_double rounds to nearest-even into the kind, with APFloat::convert's overflow rules
 * (f8E8M0FNU has no sign bit: like APFloat, a negative value sets bit 7; -1.0 gives 0xFF). */
double dlti_float_to_double(dlti_float_kind kind, dlti_float_bits bits);
dlti_float_bits dlti_float_from_double(dlti_float_kind kind, double value);

/* 1 if `bits` has no bit set at or above the kind's width (a hex literal that fits the
 * type), 0 if it has (MLIR: "hexadecimal float constant out of range for type") or the
 * kind is invalid. */
int dlti_float_bits_fit(dlti_float_kind kind, dlti_float_bits bits);

#endif
