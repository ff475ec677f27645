/* Error values: message, kind and position, never printed by the library.
 * The one way every layer fills a dlti_error_t (error.h). */
#include "error.h"

#include "number.h"

#include <stdio.h>
#include <string.h>

void bs_error_vset_at(dlti_error_t *err, dlti_error_code code, const char *source, int line,
                      int column, const char *fmt, va_list ap)
{
    if (!err)
        return;
    err->code = code;
    err->line = line;
    err->column = column;
    err->position = 0;
    snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
    int n = bs_vsnprintf(err->text, sizeof(err->text), fmt, ap);
    if (n >= (int)sizeof(err->text)) /* truncated: say so (dlti.h) */
        memcpy(err->text + sizeof(err->text) - 4, "...", 4);
}

void bs_error_set_at(dlti_error_t *err, dlti_error_code code, const char *source, int line,
                     int column, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bs_error_vset_at(err, code, source, line, column, fmt, ap);
    va_end(ap);
}

void bs_error_set(dlti_error_t *err, dlti_error_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bs_error_vset_at(err, code, NULL, 0, 0, fmt, ap);
    va_end(ap);
}

void bs_error_place(dlti_error_t *err, const char *source, int line, int column)
{
    if (!err)
        return;
    err->line = line;
    err->column = column;
    err->position = 0;
    snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
}

void bs_error_locate(dlti_error_t *err, const char *source, const char *text, size_t len,
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
    bs_error_place(err, source, line, (int)(offset - line_start) + 1);
    err->position = offset;
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

int bs_nomem(dlti_error_t *err)
{
    bs_error_set(err, DLTI_ERROR_NOMEM, "out of memory");
    return -1;
}
