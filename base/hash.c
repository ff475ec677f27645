/* The string hash, out of line (the inline one is in hash.h). */
#include "hash.h"

uint64_t bs_hash_bytes(const void *data, size_t len)
{
    return bs_hash_inline(data, len);
}
