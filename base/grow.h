/*
 * grow.h - growable arrays (grow.c): the one doubling rule of every
 * malloc'ed array and of the text buffer (buf.h).
 */
#ifndef BASE_GROW_H
#define BASE_GROW_H

#include <stddef.h>

/* Makes room for `need` elements of `elem` bytes in the malloc'ed array
 * `*data` of capacity `*cap` (doubling from 8); 0, or -1 on overflow or out
 * of memory with the array unchanged. */
int bs_grow(void **data, size_t *cap, size_t need, size_t elem);

#endif /* BASE_GROW_H */
