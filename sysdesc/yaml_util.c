/* Small helpers of the YAML layer: quoted strings and number formatting. */
#include "sysdesc_private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t sd_escaped_char(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    if (len >= 2 && p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)
        return 2; /* C1 controls; U+0085 also a line break */
    if (len >= 3 && p[0] == 0xE2 && p[1] == 0x80 && (p[2] & 0xFE) == 0xA8)
        return 3; /* U+2028, U+2029 */
    if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
        return 3; /* U+FEFF */
    if (len >= 3 && p[0] == 0xEF && p[1] == 0xBF && (p[2] & 0xFE) == 0xBE)
        return 3; /* U+FFFE, U+FFFF */
    return 0;
}

void sd_buf_put_quoted(bs_buf *b, const char *s, size_t len, const char *control_fmt)
{
    bs_buf_putc(b, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            bs_buf_putc(b, '\\');
            bs_buf_putc(b, (char)c);
        } else if (c == '\n') {
            bs_buf_puts(b, "\\n");
        } else if (c == '\t') {
            bs_buf_puts(b, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            bs_buf_printf(b, control_fmt, c);
        } else if (c >= 0xC2 && i + 1 < len && sd_escaped_char(s + i, len - i)) {
            /* Escaped (\u, which both YAML and JSON read), they read back
             * as themselves: see sd_escaped_char(). */
            unsigned cp = c == 0xC2 ? (unsigned char)s[i + 1]
                                    : ((c & 0x0Fu) << 12) | (((unsigned char)s[i + 1] & 0x3Fu) << 6) |
                                          ((unsigned char)s[i + 2] & 0x3Fu);
            bs_buf_printf(b, "\\u%04X", cp);
            i += c == 0xC2 ? 1 : 2;
        } else {
            bs_buf_putc(b, (char)c);
        }
    }
    bs_buf_putc(b, '"');
}

char *sd_buf_finish(bs_buf *b, size_t *len)
{
    if (!b->failed && !b->data)
        bs_buf_put(b, "", 0);
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
        bs_snprintf(out, size, "%.*g", prec, v);
        if (bs_strtod(out, NULL) == v)
            return;
    }
}
