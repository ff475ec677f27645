/* Growable arrays (grow.h): doubling, with every overflow checked. */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

int bs_grow(void **data, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 8;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return -1;
        c *= 2;
    }
    if (c > SIZE_MAX / elem)
        return -1;
    void *d = realloc(*data, c * elem);
    if (!d)
        return -1;
    *data = d;
    *cap = c;
    return 0;
}
