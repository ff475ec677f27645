/* Numbers as text whatever the locale: a program that calls
 * setlocale(LC_ALL, "") under de_DE reads "1.5" as 1 and prints 1.5 as
 * "1,5" through strtod and printf.  Every number sysdesc reads or writes
 * goes through these (number.h), in the "C" locale of the calling
 * thread only (uselocale), so the caller's locale is left as it was. */
#define _GNU_SOURCE /* newlocale, uselocale: POSIX.1-2008 */
#include "number.h"

#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
    /* The "C" locale needs no data files; glibc returns a static object. */
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

/* Switches this thread to the "C" locale; the previous one, or 0 when the
 * "C" locale could not be made (then the thread's locale stays). */
static locale_t enter_c(void)
{
    pthread_once(&c_locale_once, make_c_locale);
    return c_locale ? uselocale(c_locale) : (locale_t)0;
}

static void leave_c(locale_t old)
{
    if (old)
        uselocale(old);
}

double bs_strtod(const char *s, char **end)
{
    locale_t old = enter_c();
    double v = strtod(s, end);
    leave_c(old);
    return v;
}

int bs_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    locale_t old = enter_c();
    int n = vsnprintf(buf, size, fmt, ap);
    leave_c(old);
    return n;
}

int bs_snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = bs_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}
