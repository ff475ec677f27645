/* Looking keys up in the schema table (schema_keys.c): an index from
 * (parent entry, name) to entry, built once per process. */
#include "sysdesc_private.h"

#include <pthread.h>
#include <string.h>

#define SLOTS 4096 /* a power of two, 4x SD_SCHEMA_MAX_KEYS */

static struct {
    int parent[SD_SCHEMA_MAX_KEYS];        /* entry whose path is this entry's parent; -1 at the top */
    const char *name[SD_SCHEMA_MAX_KEYS];  /* the last component ("*" for a wildcard level) */
    size_t name_len[SD_SCHEMA_MAX_KEYS];
    short slot[SLOTS];      /* entry + 1, 0 empty; keyed by (parent, name) */
    int wildcard[SD_SCHEMA_MAX_KEYS];      /* per entry: its "*" child, or -1 */
} ix;
static pthread_once_t ix_once = PTHREAD_ONCE_INIT;

static size_t slot_of(int parent, const char *name, size_t len)
{
    return (size_t)(bs_hash_bytes(name, len) * 31u + (uint64_t)(parent + 1)) & (SLOTS - 1);
}

/* The entry of path[0..len), from the entries indexed so far (a parent
 * comes before its children in the table): its components looked up one
 * by one, as sd_schema_child() does; -1 when there is none. */
static int indexed_path(const char *path, size_t len)
{
    int entry = -1;
    for (size_t at = 0; at < len;) {
        const char *dot = memchr(path + at, '.', len - at);
        size_t end = dot ? (size_t)(dot - path) : len, clen = end - at;
        int next = -1;
        if (clen == 1 && path[at] == '*') {
            next = entry >= 0 ? ix.wildcard[entry] : -1;
        } else {
            for (size_t s = slot_of(entry, path + at, clen); ix.slot[s]; s = (s + 1) & (SLOTS - 1)) {
                int i = ix.slot[s] - 1;
                if (ix.parent[i] == entry && ix.name_len[i] == clen &&
                    memcmp(ix.name[i], path + at, clen) == 0) {
                    next = i;
                    break;
                }
            }
        }
        if (next < 0)
            return -1;
        entry = next;
        at = end + 1;
    }
    return entry;
}

static void build_index(void)
{
    size_t n = sysdesc_schema_size();
    for (size_t i = 0; i < n; i++)
        ix.wildcard[i] = -1;
    for (size_t i = 0; i < n; i++) {
        const char *path = sysdesc_schema_key_at(i)->path;
        const char *dot = strrchr(path, '.');
        ix.parent[i] = dot ? indexed_path(path, (size_t)(dot - path)) : -1;
        ix.name[i] = dot ? dot + 1 : path;
        ix.name_len[i] = strlen(ix.name[i]);
        if (strcmp(ix.name[i], "*") == 0 && ix.parent[i] >= 0) {
            ix.wildcard[ix.parent[i]] = (int)i;
            continue;
        }
        size_t s = slot_of(ix.parent[i], ix.name[i], ix.name_len[i]);
        while (ix.slot[s])
            s = (s + 1) & (SLOTS - 1);
        ix.slot[s] = (short)(i + 1);
    }
}

static void ensure_index(void)
{
    pthread_once(&ix_once, build_index);
}

int sd_schema_child(int parent, const char *name, size_t len)
{
    ensure_index();
    if (parent >= 0 && ix.wildcard[parent] >= 0)
        return ix.wildcard[parent];
    for (size_t s = slot_of(parent, name, len); ix.slot[s]; s = (s + 1) & (SLOTS - 1)) {
        int i = ix.slot[s] - 1;
        if (ix.parent[i] == parent && ix.name_len[i] == len && memcmp(ix.name[i], name, len) == 0)
            return i;
    }
    return -1;
}

int sd_schema_parent(int entry)
{
    ensure_index();
    return entry >= 0 ? ix.parent[entry] : -1;
}

const char *sd_schema_name(int entry)
{
    ensure_index();
    return ix.name[entry];
}

bool sd_schema_name_allowed(const sysdesc_schema_key *map, const char *name, size_t len)
{
    if (!map->names)
        return true;
    if (strcmp(map->names, "#") == 0) {
        if (len == 0 || (len > 1 && name[0] == '0'))
            return false;
        for (size_t i = 0; i < len; i++)
            if (name[i] < '0' || name[i] > '9')
                return false;
        return true;
    }
    for (const char *p = map->names; *p;) {
        size_t n = strcspn(p, " ");
        if (n == len && memcmp(p, name, len) == 0)
            return true;
        p += n;
        p += *p == ' ';
    }
    return false;
}

/* The device types and the device_type strings that name them; an id that
 * is one of these names, alone or followed by digits, names the type too. */
static const struct {
    const char *name;
    unsigned bit;
} device_types[] = {
    {"CPU", SYSDESC_DEVICE_CPU},
    {"GPU", SYSDESC_DEVICE_GPU},
    {"ACCEL", SYSDESC_DEVICE_ACCEL},
};

unsigned sysdesc_schema_device_type(const char *device_type)
{
    for (size_t i = 0; device_type && i < sizeof(device_types) / sizeof(device_types[0]); i++)
        if (strcmp(device_type, device_types[i].name) == 0)
            return device_types[i].bit;
    return 0;
}

const char *sysdesc_schema_device_type_name(unsigned bits)
{
    for (size_t i = 0; i < sizeof(device_types) / sizeof(device_types[0]); i++)
        if (bits == device_types[i].bit)
            return device_types[i].name;
    return NULL;
}

unsigned sd_device_type_of_id(const char *id, size_t len)
{
    /* the last component of a per-class id ("class0.GPU3") */
    for (size_t i = len; i > 0; i--)
        if (id[i - 1] == '.') {
            id += i;
            len -= i;
            break;
        }
    for (size_t t = 0; t < sizeof(device_types) / sizeof(device_types[0]); t++) {
        size_t n = strlen(device_types[t].name);
        if (len < n || memcmp(id, device_types[t].name, n) != 0)
            continue;
        size_t i = n;
        while (i < len && id[i] >= '0' && id[i] <= '9')
            i++;
        return i == len ? device_types[t].bit : 0;
    }
    return 0;
}

unsigned sysdesc_device_type_bits(const char *id, const dlti_attr *device)
{
    const dlti_attr *t = NULL;
    for (size_t i = 0; device && i < dlti_attr_size(device); i++) {
        size_t n;
        const char *k = dlti_key_str(dlti_attr_entry_key(device, i), &n);
        if (k && n == 11 && memcmp(k, "device_type", 11) == 0)
            t = dlti_attr_entry_value(device, i);
    }
    const char *s;
    size_t n;
    if (t)
        return dlti_attr_get_string(t, &s, &n, NULL) == 0 && n == strlen(s)
                   ? sysdesc_schema_device_type(s)
                   : 0;
    return id ? sd_device_type_of_id(id, strlen(id)) : 0;
}

const sysdesc_schema_key *sysdesc_schema_find(const char *device_type, const char *path)
{
    if (!path)
        return NULL;
    unsigned dev = device_type ? sysdesc_schema_device_type(device_type) : ~0u;
    int at = -1;
    for (const char *p = path;;) {
        size_t n = strcspn(p, ".");
        int child = sd_schema_child(at, p, n);
        if (child < 0)
            return NULL;
        const sysdesc_schema_key *k = sysdesc_schema_key_at((size_t)child);
        if (!(k->devices & dev))
            return NULL;
        if (at >= 0 && ix.wildcard[at] == child &&
            !sd_schema_name_allowed(sysdesc_schema_key_at((size_t)at), p, n))
            return NULL;
        if (p[n] == '\0' || k->type == SYSDESC_VALUE_OPEN_MAP)
            return k;
        at = child;
        p += n + 1;
    }
}
