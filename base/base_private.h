/*
 * base_private.h - the whole base (not installed), for the layers that use
 * most of it: each job has its own header, which a file may include alone.
 * libc only, and nothing of DLTI but the public error value
 * (sysdesc/error.h); the core's own insides stay in dlti/dlti_private.h.
 */
#ifndef BASE_PRIVATE_H
#define BASE_PRIVATE_H

#include "arena.h"         /* bump allocation with a budget */
#include "buf.h"           /* growable text for printers */
#include "edit_distance.h" /* "did you mean" */
#include "error.h"         /* filling a dlti_error_t */
#include "file.h"          /* opening and reading inputs */
#include "grow.h"          /* growable arrays */
#include "hash.h"          /* the hash and compare of string keys */
#include "number.h"        /* numbers as text in the "C" locale */
#include "utf8.h"          /* the one UTF-8 check */

#endif /* BASE_PRIVATE_H */
