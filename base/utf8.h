/*
 * utf8.h - the one UTF-8 check (utf8.c) of the parser's string literals,
 * the YAML and JSON readers and writers, the tool's and the probe's text
 * for a terminal, and the fuzzers' strict JSON: RFC 3629 as libyaml's
 * reader and MLIR's lexer check it, so that what one part accepts another
 * part never refuses.
 */
#ifndef BASE_UTF8_H
#define BASE_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Rules added to RFC 3629's, for bs_utf8_len(). */
enum {
    /* a C1 control (U+0080-U+009F) is refused too: text for a terminal,
     * which would act on it */
    BS_UTF8_NO_C1 = 1u,
};

/* The length (1-4) of the well-formed UTF-8 sequence at `s`, of which `n`
 * bytes (at least 1) may be read, or 0 when there is none: a stray or
 * missing continuation byte, a sequence cut by the end, an overlong form,
 * a surrogate (U+D800-U+DFFF) or a code point above U+10FFFF, or what
 * `rules` (DLTI_UTF8_*, 0 for none) refuses.  An ASCII byte is 1, NUL
 * included.  The bytes are read in order and no further than the first
 * one that fails, so a NUL-terminated string may pass any `n` of at least
 * 4. */
size_t bs_utf8_len(const unsigned char *s, size_t n, unsigned rules);

/* Whether the `len` bytes at `s` are all well-formed UTF-8 (NUL bytes
 * are). */
bool bs_utf8_valid(const char *s, size_t len);

#endif /* BASE_UTF8_H */
