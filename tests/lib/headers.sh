#!/bin/sh
# Every installed header compiles on its own (as strict C17), as
# docs/architecture.md promises: each can be included alone.
# Environment: CC (the project's C compiler), SRCDIR, BUILDDIR.
set -u
: "${CC:?}" "${SRCDIR:?}" "${BUILDDIR:?}"
pass=0 fail=0
for h in "$SRCDIR"/include/sysdesc/*.h "$BUILDDIR"/include/sysdesc/version.h; do
    name=sysdesc/$(basename "$h")
    # (a declaration after it: a header of macros alone is an empty unit)
    if printf '#include "%s"\nint sysdesc_header_check;\n' "$name" |
        $CC -std=c17 -Wall -Wextra -Werror -pedantic -fsyntax-only -x c \
            -I"$SRCDIR/include" -I"$BUILDDIR/include" - 2>"${TMPDIR:-/tmp}/headers.$$"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $name does not compile alone:"
        cat "${TMPDIR:-/tmp}/headers.$$"
    fi
done
rm -f "${TMPDIR:-/tmp}/headers.$$"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
