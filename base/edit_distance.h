/*
 * edit_distance.h - how far apart two short strings are (edit_distance.c):
 * how the layers find the key a typo meant ("did you mean").
 */
#ifndef BASE_EDIT_DISTANCE_H
#define BASE_EDIT_DISTANCE_H

#include <stddef.h>

/* Optimal string alignment distance of two short strings (SIZE_MAX past 64
 * bytes). */
size_t bs_edit_distance(const char *a, size_t la, const char *b, size_t lb);

#endif /* BASE_EDIT_DISTANCE_H */
