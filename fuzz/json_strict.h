/* json_strict.h - a strict JSON (RFC 8259) validator for the fuzz targets
 * and tests: everything sysdesc prints as JSON must pass it. */
#ifndef SYSDESC_JSON_STRICT_H
#define SYSDESC_JSON_STRICT_H
#include <stddef.h>

/* NULL when `text` is one valid JSON value (strict: UTF-8, escapes, numbers,
 * no duplicate keys); else why not, with the byte offset in *offset. */
const char *sysdesc_json_strict_check(const char *text, size_t len, size_t *offset);

#endif
