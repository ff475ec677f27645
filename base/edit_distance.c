/* How far apart two short strings are: the layers' "did you mean". */
#include "edit_distance.h"

#include <stdint.h>

/* Optimal string alignment distance (a swap of two neighbours costs 1),
 * capped: keys are short, and a far match is no suggestion. */
size_t bs_edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    enum { MAX = 64 };
    if (la > MAX || lb > MAX)
        return SIZE_MAX;
    size_t d[MAX + 1][MAX + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v)
                v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    }
    return d[la][lb];
}
