/*
 * number.h - numbers as text whatever the locale (number.c): strtod() and
 * vsnprintf()/snprintf() in the "C" locale, whatever the calling thread's
 * (a program that called setlocale(LC_ALL, "") under a decimal-comma
 * locale): the radix is always '.'.  Every number sysdesc reads from or
 * writes to text goes through these, and so do bs_buf_printf() and the
 * error setters.
 */
#ifndef BASE_NUMBER_H
#define BASE_NUMBER_H

#include <stdarg.h>
#include <stddef.h>

double bs_strtod(const char *s, char **end);
int bs_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int bs_snprintf(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif /* BASE_NUMBER_H */
