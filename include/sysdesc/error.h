/*
 * sysdesc/error.h - the error value every fallible sysdesc function fills.
 *
 * Functions that can fail take a `dlti_error_t *` as their last argument
 * and return NULL or a negative value; the error says what failed, of which
 * kind and where, as jansson's json_error_t does.  The caller owns the
 * error (usually on its stack); the library never keeps a pointer to it and
 * never prints it.  Passing NULL is allowed everywhere: the failure is then
 * only the return value.
 *
 * A function that fails sets every field; one that succeeds may leave the
 * error as it found it or cleared (DLTI_OK).  Depends on libc only: this
 * header can be included alone.
 */
#ifndef SYSDESC_ERROR_H
#define SYSDESC_ERROR_H

#include "sysdesc/export.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Sizes of dlti_error_t's text buffers, the terminating NUL included. */
#define DLTI_ERROR_TEXT_LENGTH 1024
#define DLTI_ERROR_SOURCE_LENGTH 256

/** What kind of failure an error describes; also the CLI's exit code class. */
typedef enum dlti_error_code {
    DLTI_OK = 0,
    DLTI_ERROR_SYNTAX,      /**< malformed text (parser) */
    DLTI_ERROR_VERIFY,      /**< well-formed but rejected by a DLTI rule */
    DLTI_ERROR_LIMIT,       /**< a documented limit was exceeded (depth, size, memory budget) */
    DLTI_ERROR_NOT_FOUND,   /**< a query found no value */
    DLTI_ERROR_TYPE,        /**< a typed accessor met another kind of value */
    DLTI_ERROR_RANGE,       /**< a value does not fit the requested C type */
    DLTI_ERROR_UNSUPPORTED, /**< valid MLIR that sysdesc does not model */
    DLTI_ERROR_ARGUMENT,    /**< the caller passed something invalid */
    DLTI_ERROR_NOMEM,       /**< allocation failed */
    DLTI_ERROR_IO           /**< a file could not be read or written */
} dlti_error_code;

/**
 * Where and why something failed.  `line` and `column` are 1-based (column
 * counts bytes); both are 0 when the error has no position (a query, an
 * allocation).  `position` is the byte offset from the start of the input.
 * `source` names the input (a path, "<input>", or empty when there is
 * none).  `text` holds the message alone, without the location; it is
 * truncated (ending in "...") when longer than DLTI_ERROR_TEXT_LENGTH - 1.
 * Both strings are always NUL-terminated.
 */
typedef struct dlti_error_t {
    dlti_error_code code;
    int line;
    int column;
    size_t position;
    char source[DLTI_ERROR_SOURCE_LENGTH];
    char text[DLTI_ERROR_TEXT_LENGTH];
} dlti_error_t;

/**
 * Formats `err` as "SOURCE:LINE:COL: error: TEXT" (or "SOURCE: error: TEXT"
 * without a position, "error: TEXT" without a source) into `buf`, the
 * caller's, of `size` bytes (0 with `buf` NULL measures only).
 *
 * Returns the length the full text needs, as snprintf() does: a result of
 * `size` or more means the text was cut (still NUL-terminated when `size`
 * is not 0).  `err` must not be NULL.  Never fails; thread-safe.
 */
SYSDESC_API int dlti_error_format(const dlti_error_t *err, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* SYSDESC_ERROR_H */
