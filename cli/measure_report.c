/* What `sysdesc measure` says on stderr: its progress, what the bound
 * changed, the measurements that did not happen. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

void cli_measure_progress(void *user, const char *step, double done)
{
    cli_progress *ps = user;
    int pct = (int)(done * 100 + 0.5);
    if (ps->tty) {
        /* One line, rewritten in place; cleared when done. */
        if (strcmp(step, "done") == 0)
            fputs("\r\033[K", stderr);
        else
            fprintf(stderr, "\r\033[Ksysdesc: measure: [%3d%%] %s", pct, step);
    } else if (pct / 25 != ps->last_pct / 25 || strcmp(step, "done") == 0) {
        /* Not a terminal (a log): a line at each quarter. */
        fprintf(stderr, "sysdesc: measure: [%3d%%] %s\n", pct, step);
    }
    ps->last_pct = pct;
    fflush(stderr);
}

/* A device's measurements that did not happen, from its source lines
 * ("measured..." = "not measured..."). */
static void say_unmeasured(const dlti_attr *spec)
{
    for (size_t i = 0; i < dlti_attr_size(spec); i++) {
        size_t idlen;
        const char *id = dlti_key_str(dlti_attr_entry_key(spec, i), &idlen);
        const dlti_attr *src = dlti_attr_lookup_string(dlti_attr_entry_value(spec, i), "source", 6);
        for (size_t k = 0; id && src && k < dlti_attr_size(src); k++) {
            size_t klen, vlen;
            const char *key = dlti_key_str(dlti_attr_entry_key(src, k), &klen), *v;
            if (key && klen >= 8 && memcmp(key, "measured", 8) == 0 &&
                dlti_attr_get_string(dlti_attr_entry_value(src, k), &v, &vlen, NULL) == 0 &&
                vlen >= 4 && memcmp(v, "not ", 4) == 0)
                fprintf(stderr, "sysdesc: measure: %.*s (%.*s): %.*s\n", (int)idlen, id,
                        (int)klen, key, (int)vlen, v);
        }
    }
}

/* What the bound changed: the `skipped` map and each level's `bounded`. */
static void say_bounds(const dlti_attr *measured)
{
    const dlti_attr *sk = dlti_attr_lookup_string(measured, "skipped", 7);
    for (size_t i = 0; sk && i < dlti_attr_size(sk); i++) {
        const char *name, *why;
        size_t nlen, wlen;
        name = dlti_key_str(dlti_attr_entry_key(sk, i), &nlen);
        if (name && dlti_attr_get_string(dlti_attr_entry_value(sk, i), &why, &wlen, NULL) == 0)
            fprintf(stderr, "sysdesc: measure: %.*s not measured: %.*s\n", (int)nlen, name,
                    (int)wlen, why);
    }
    const dlti_attr *lv = dlti_attr_lookup_string(measured, "levels", 6);
    for (size_t i = 0; lv && i < dlti_attr_size(lv); i++) {
        const char *name, *why;
        size_t nlen, wlen;
        const dlti_attr *b = dlti_attr_lookup_string(dlti_attr_entry_value(lv, i), "bounded", 7);
        name = dlti_key_str(dlti_attr_entry_key(lv, i), &nlen);
        if (name && b && dlti_attr_get_string(b, &why, &wlen, NULL) == 0)
            fprintf(stderr, "sysdesc: measure: %.*s: %.*s\n", (int)nlen, name, (int)wlen, why);
    }
}

void cli_measure_report(const dlti_attr *spec, bool quiet, bool devices)
{
    const dlti_attr *cpu = dlti_attr_lookup_string(spec, "CPU", 3);
    const dlti_attr *measured = cpu ? dlti_attr_lookup_string(cpu, "measured", 8) : NULL;
    if (!quiet && measured)
        say_bounds(measured);
    if (devices)
        say_unmeasured(spec);
}
