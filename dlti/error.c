/* Error values: message, kind and position, never printed by the library. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

void dlti_error_vset(dlti_error_t *err, dlti_error_code code, const char *fmt, va_list ap)
{
    if (!err)
        return;
    err->code = code;
    err->line = 0;
    err->column = 0;
    err->position = 0;
    int n = vsnprintf(err->text, sizeof(err->text), fmt, ap);
    if (n >= (int)sizeof(err->text))
        memcpy(err->text + sizeof(err->text) - 4, "...", 4);
}

void dlti_error_set(dlti_error_t *err, dlti_error_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dlti_error_vset(err, code, fmt, ap);
    va_end(ap);
}

void dlti_error_locate(dlti_error_t *err, const char *source, const char *text, size_t len,
                       size_t offset)
{
    if (!err)
        return;
    if (offset > len)
        offset = len;
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            line++;
            line_start = i + 1;
        }
    }
    err->line = line;
    err->column = (int)(offset - line_start) + 1;
    err->position = offset;
    snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
}

int dlti_error_format(const dlti_error_t *err, char *buf, size_t size)
{
    if (err->source[0] && err->line > 0)
        return snprintf(buf, size, "%s:%d:%d: error: %s", err->source, err->line, err->column,
                        err->text);
    if (err->source[0])
        return snprintf(buf, size, "%s: error: %s", err->source, err->text);
    return snprintf(buf, size, "error: %s", err->text);
}
