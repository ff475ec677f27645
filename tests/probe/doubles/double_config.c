/* double_config.c - reads the test doubles' configuration (double_config.h).
 * TEST DOUBLE code: proves nothing about the real runtimes. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "double_config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENTRIES 1024

static char text[65536];
static const char *keys[MAX_ENTRIES], *values[MAX_ENTRIES];
static int nentries;

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

int dbl_load(void)
{
    nentries = 0;
    const char *path = getenv("SYSDESC_DOUBLE_CONFIG");
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return -1;
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    for (char *line = strtok(text, "\n"); line && nentries < MAX_ENTRIES;
         line = strtok(NULL, "\n")) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = '\0';
        keys[nentries] = trim(line);
        values[nentries] = trim(eq + 1);
        nentries++;
    }
    return 0;
}

static const char *lookup(const char *key)
{
    /* The last line wins, so a test may append to a base configuration. */
    for (int i = nentries - 1; i >= 0; i--)
        if (strcmp(keys[i], key) == 0)
            return values[i];
    return NULL;
}

const char *dbl_str(const char *fmt, ...)
{
    char key[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(key, sizeof(key), fmt, ap);
    va_end(ap);
    return lookup(key);
}

long long dbl_int(long long dflt, const char *fmt, ...)
{
    char key[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(key, sizeof(key), fmt, ap);
    va_end(ap);
    const char *v = lookup(key);
    return v && *v ? strtoll(v, NULL, 0) : dflt;
}

int dbl_copy_name(char *buf, unsigned long size, const char *key)
{
    const char *v = lookup(key);
    if (!v || size == 0)
        return -1;
    char bogus[300];
    snprintf(bogus, sizeof(bogus), "%s_unterminated", key);
    const char *b = lookup(bogus);
    if (b && strcmp(b, "1") == 0) {
        memset(buf, 'X', size);
        return 0;
    }
    snprintf(buf, size, "%s", v);
    return 0;
}

/* The double's own reading of a visibility list (README, "Visibility
 * variables"), written apart from the probe's (probe/host/visible_devices.c)
 * so that the two check each other: the kind of the first entry (an index,
 * "GPU-" or "MIG-") is the kind of the list (`mixed`: each entry's own, as
 * ROCR_VISIBLE_DEVICES reads them); an entry of another kind, an
 * index out of range or not a number, or a UUID prefix that names no device
 * or several ends the list; a device named twice empties it. */
int dbl_visible_list(const char *list, int n, const char *const *uuids, int mixed, int *out,
                     int max)
{
    char buf[1024];
    snprintf(buf, sizeof(buf), "%s", list);
    int k = 0;
    bool uuid_list = strncmp(trim(buf), "GPU-", 4) == 0;
    if (strncmp(trim(buf), "MIG-", 4) == 0)
        return 0; /* no MIG instance in the doubles: the first entry names nothing */
    char *save = NULL;
    for (char *e = strtok_r(buf, ",", &save); e && k < max; e = strtok_r(NULL, ",", &save)) {
        e = trim(e);
        int found = -1;
        if (mixed)
            uuid_list = strncmp(e, "GPU-", 4) == 0;
        if (uuid_list) {
            if (strncmp(e, "GPU-", 4) != 0)
                break;
            int matches = 0;
            for (int i = 0; i < n; i++)
                if (uuids[i] && strncmp(uuids[i], e, strlen(e)) == 0) {
                    found = i;
                    matches++;
                }
            if (matches != 1)
                break;
        } else {
            char *end;
            long v = strtol(e, &end, 10);
            if (end == e || v < 0 || v >= n)
                break;
            found = (int)v;
        }
        for (int j = 0; j < k; j++)
            if (out[j] == found)
                return 0;
        out[k++] = found;
    }
    return k;
}
