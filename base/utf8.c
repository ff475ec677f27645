/* The one UTF-8 check (utf8.h): RFC 3629, byte ranges as its table 3.7
 * (Unicode) states them, so that no code point is decoded to be checked. */
#include "utf8.h"

#include <stdint.h>
#include <string.h>

size_t bs_utf8_len(const unsigned char *s, size_t n, unsigned rules)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (len == 0 || n < len)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    /* the second byte's narrower range after E0 (overlong), ED
     * (surrogates), F0 (overlong) and F4 (above U+10FFFF) */
    unsigned c1 = s[1];
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) || (c == 0xF0 && c1 < 0x90) ||
        (c == 0xF4 && c1 > 0x8F))
        return 0;
    if ((rules & BS_UTF8_NO_C1) && c == 0xC2 && c1 < 0xA0)
        return 0;
    return len;
}

bool bs_utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        /* eight ASCII bytes a step: nearly all text is ASCII */
        uint64_t w;
        if (len - i >= 8 && (memcpy(&w, p + i, 8), (w & 0x8080808080808080ull) == 0)) {
            i += 8;
            continue;
        }
        size_t l = bs_utf8_len(p + i, len - i, 0);
        if (l == 0)
            return false;
        i += l;
    }
    return true;
}
