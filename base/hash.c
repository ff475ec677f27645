/* The string hash, out of line (the inline one is in base_private.h). */
#include "base_private.h"

uint64_t dlti_hash_bytes(const void *data, size_t len)
{
    return dlti_hash_inline(data, len);
}
