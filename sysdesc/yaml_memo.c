/* What the scalars of the last device meant (sysdesc_private.h,
 * sd_value_memo): the devices of a system repeat their keys in the same
 * order and most of their values (vendor, arch, the limits of one model),
 * so the n-th scalar of a device is most often the n-th scalar of the
 * device before, written the same.  When it is, the key or value built then
 * is taken again: no hash, no interning, no classifying, parsing or
 * allocating.  A value taken again is the same attribute in both devices;
 * attributes never change once built, so sharing one is invisible (MLIR
 * uniques its attributes the same way).
 *
 * Only untagged scalars short enough for a slot are kept; anything else,
 * and a device shaped otherwise than the one before, costs a compare. */
#include "sysdesc_private.h"

#include "hash.h"

#include <stdlib.h>

#define MEMO_SLOTS 256u /* a power of two: scalars a device, keys and values */

struct sd_memo_slot {
    const void *built;      /* the dlti_key or dlti_attr; NULL: empty */
    uint8_t len;
    bool plain, key;
    char text[SD_MEMO_TEXT];
};

void sd_value_memo_device(sd_value_memo *m)
{
    m->next = 0;
}

const void *sd_value_memo_find(sd_value_memo *m, const sd_node *n, bool key, size_t *slot)
{
    *slot = SIZE_MAX;
    if (n->kind != SD_SCALAR || n->tag || n->len > SD_MEMO_TEXT)
        return NULL;
    if (!m->slots && !(m->slots = calloc(MEMO_SLOTS, sizeof(*m->slots))))
        return NULL; /* no memo: every scalar is built, as without one */
    *slot = m->next++ & (MEMO_SLOTS - 1);
    const struct sd_memo_slot *s = &m->slots[*slot];
    if (s->built && s->len == n->len && s->plain == n->plain && s->key == key &&
        bs_same_bytes(s->text, n->u.text, n->len))
        return s->built;
    return NULL;
}

void sd_value_memo_keep(sd_value_memo *m, size_t slot, const sd_node *n, bool key,
                        const void *built)
{
    if (slot == SIZE_MAX || !built)
        return;
    struct sd_memo_slot *s = &m->slots[slot];
    s->built = built;
    s->len = (uint8_t)n->len;
    s->plain = n->plain;
    s->key = key;
    memcpy(s->text, n->u.text, n->len);
}

void sd_value_memo_free(sd_value_memo *m)
{
    free(m->slots);
    m->slots = NULL;
}
