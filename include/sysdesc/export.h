/*
 * sysdesc/export.h - which functions the shared library exports.
 *
 * The library is compiled with hidden visibility: only declarations marked
 * SYSDESC_API in the installed headers are exported, and a test compares the
 * exports of libsysdesc.so with those declarations (tests/lib/exports.sh).
 */
#ifndef SYSDESC_EXPORT_H
#define SYSDESC_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define SYSDESC_API __attribute__((visibility("default")))
#else
#define SYSDESC_API
#endif

#endif /* SYSDESC_EXPORT_H */
