/* Small helpers of the YAML layer: quoted strings and number formatting. */
#include "sysdesc_private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sd_buf_put_quoted(sd_buf *b, const char *s, size_t len, const char *control_fmt)
{
    sd_buf_put(b, "\"", 1);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            sd_buf_put(b, esc, 2);
        } else if (c == '\n') {
            sd_buf_puts(b, "\\n");
        } else if (c == '\t') {
            sd_buf_puts(b, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            sd_buf_printf(b, control_fmt, c);
        } else {
            sd_buf_put(b, s + i, 1);
        }
    }
    sd_buf_put(b, "\"", 1);
}

char *sd_buf_finish(sd_buf *b, size_t *len)
{
    if (!b->failed && !b->data)
        sd_buf_put(b, "", 0);
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
