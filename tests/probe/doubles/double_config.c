/* double_config.c - reads the test doubles' configuration (double_config.h).
 * TEST DOUBLE code: proves nothing about the real runtimes. */
#include "double_config.h"

#include <stdarg.h>
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
