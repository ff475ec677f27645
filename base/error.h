/*
 * error.h - filling a dlti_error_t (sysdesc/error.h, public): the one way
 * every layer sets an error's code, text and position.  Every text goes
 * through bs_vsnprintf() (the "C" locale) and is cut with "..." as the
 * public header documents.  `err` may be NULL in every function.
 */
#ifndef BASE_ERROR_H
#define BASE_ERROR_H

#include "sysdesc/error.h"

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__)
#define BS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define BS_PRINTF(f, a)
#endif

/* Code and message, no position (line 0, no source). */
void bs_error_set(dlti_error_t *err, dlti_error_code code, const char *fmt, ...)
    BS_PRINTF(3, 4);
/* "out of memory" (DLTI_ERROR_NOMEM), no position; -1, for
 * `return bs_nomem(err);`. */
int bs_nomem(dlti_error_t *err);
/* Code, message and position (`source` may be NULL; line 0: none). */
void bs_error_set_at(dlti_error_t *err, dlti_error_code code, const char *source, int line,
                     int column, const char *fmt, ...) BS_PRINTF(6, 7);
void bs_error_vset_at(dlti_error_t *err, dlti_error_code code, const char *source, int line,
                      int column, const char *fmt, va_list ap);
/* Clears `err` where a public function starts: DLTI_OK, no text, no
 * position. */
static inline void bs_error_clear(dlti_error_t *err)
{
    if (err) {
        err->code = DLTI_OK;
        err->line = err->column = 0;
        err->source[0] = err->text[0] = '\0';
    }
}
/* Moves an error (from a layer that knew no position) to source:line:column. */
void bs_error_place(dlti_error_t *err, const char *source, int line, int column);
/* Places an error at a byte offset into `text` (line, column, position, source). */
void bs_error_locate(dlti_error_t *err, const char *source, const char *text, size_t len,
                     size_t offset);

#endif /* BASE_ERROR_H */
