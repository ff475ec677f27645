/* The string hash, out of line (the inline one is in hash.h). */
#include "hash.h"

uint64_t dlti_hash_bytes(const void *data, size_t len)
{
    return dlti_hash_inline(data, len);
}
