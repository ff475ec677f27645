/* Small helpers of the YAML layer: quoted strings and number formatting. */
#include "sysdesc_private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sd_buf_put_quoted(dlti_buf *b, const char *s, size_t len, const char *control_fmt)
{
    dlti_buf_putc(b, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            dlti_buf_putc(b, '\\');
            dlti_buf_putc(b, (char)c);
        } else if (c == '\n') {
            dlti_buf_puts(b, "\\n");
        } else if (c == '\t') {
            dlti_buf_puts(b, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            dlti_buf_printf(b, control_fmt, c);
        } else {
            dlti_buf_putc(b, (char)c);
        }
    }
    dlti_buf_putc(b, '"');
}

char *sd_buf_finish(dlti_buf *b, size_t *len)
{
    if (!b->failed && !b->data)
        dlti_buf_put(b, "", 0);
    if (b->failed) {
        free(b->data);
        b->data = NULL;
        return NULL;
    }
    if (len)
        *len = b->len;
    return b->data;
}

void sd_format_double(char *out, size_t size, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(out, size, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            return;
    }
}
