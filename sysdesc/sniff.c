/* MLIR or YAML: what a description's text is, told by its name and its
 * first bytes (the loader and the checker's locator ask alike). */
#include "sysdesc_private.h"

#include <string.h>

bool sd_looks_like_mlir(const char *path, const char *text, size_t len)
{
    size_t plen = path ? strlen(path) : 0;
    if (plen > 5 && strcmp(path + plen - 5, ".mlir") == 0)
        return true;
    size_t i = 0;
    for (;;) {
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
            i++;
        /* MLIR comments are "//"; YAML's "#" comments are skipped only when
         * they cannot be an attribute ("#dlti..."). */
        if (i + 1 < len && text[i] == '/' && text[i + 1] == '/') {
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        break;
    }
    if (i < len && text[i] == '#' && i + 1 < len && text[i + 1] != ' ' && text[i + 1] != '\n' &&
        text[i + 1] != '#' && text[i + 1] != '!')
        return true;
    /* Files of other ops (func.func ..., "foo.bar"(...),
     * %0 = ...): a dotted name not followed by ':' is no YAML key. */
    if (i < len && (text[i] == '"' || (text[i] == '%' && (len - i < 2 || text[i + 1] != 'Y') &&
                                       (len - i < 2 || text[i + 1] != 'T')))) {
        size_t j = i + 1;
        while (text[i] == '"' && j < len && text[j] != '"' && text[j] != '\n')
            j++;
        if (text[i] == '%' || (j + 1 < len && text[j] == '"' && text[j + 1] == '('))
            return true;
    }
    size_t k = i;
    bool dotted = false;
    while (k < len && (dlti_is_id_char((unsigned char)text[k])))
        dotted |= text[k++] == '.';
    if (dotted && k > i && dlti_is_id_start((unsigned char)text[i]) && (k == len || text[k] != ':'))
        return true;
    return len - i >= 6 && memcmp(text + i, "module", 6) == 0 &&
           (len - i == 6 || text[i + 6] == ' ' || text[i + 6] == '@' || text[i + 6] == '{' ||
            text[i + 6] == '\n');
}
