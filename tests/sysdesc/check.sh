#!/bin/sh
# The checker's evidence: every description in tests/sysdesc/check/ is run
# through `sysdesc check` and its output compared byte for byte with the
# expectation beside it.
#
# Convention (tests/sysdesc/check/README.md): each NAME.expected starts with
# the command line it was made with, "$ sysdesc check [OPTIONS] FILE", where
# FILE is a description in the folder, named without a directory: the
# command runs inside the folder, so every FILE:LINE:COL in the output is
# relative and the expectation holds wherever the tree is.  Then come the
# lines on stderr, the lines on stdout, and "exit N".  A description no
# expectation names, or an expectation whose file is missing, fails.
#
# Environment: SYSDESC (the tool), SRCDIR (the source tree); the catalog is
# $SRCDIR/systems (`base: nvidia/h100-sxm`).  `check.sh --update` rewrites
# every expectation from the current output (review the diff).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
SYSDESC_PATH="$SRCDIR/systems"
export SYSDESC_PATH
DIR="$SRCDIR/tests/sysdesc/check"
update=false
[ "${1:-}" = "--update" ] && update=true
T=$(mktemp -d "${TMPDIR:-/tmp}/sysdesc-check.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

pass=0 fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

cd "$DIR" || exit 99
: >"$T/named"
for exp in *.expected; do
    [ -e "$exp" ] || { bad "no expectations in $DIR"; break; }
    first=$(head -n 1 "$exp")
    case $first in
    '$ sysdesc check '*) ;;
    *) bad "$exp: the first line is not '\$ sysdesc check [OPTIONS] FILE'"; continue ;;
    esac
    args=${first#'$ sysdesc check '}
    file=${args##* }
    case $file in
    */* | -*) bad "$exp: '$file' is not a file of the folder"; continue ;;
    esac
    if ! [ -f "$file" ]; then
        bad "$exp: names '$file', which is not in the folder"
        continue
    fi
    echo "$file" >>"$T/named"
    # shellcheck disable=SC2086 # the options are words
    "$SYSDESC" check $args >"$T/out" 2>"$T/err" </dev/null
    rc=$?
    { echo "$first"; cat "$T/err" "$T/out"; echo "exit $rc"; } >"$T/got"
    if $update; then
        cp "$T/got" "$exp"
        pass=$((pass + 1))
    elif cmp -s "$T/got" "$exp"; then
        pass=$((pass + 1))
    else
        bad "$exp differs (- expected, + got):"
        diff -u "$exp" "$T/got" | tail -n +3
    fi
done

# every description has an expectation
for f in *; do
    case $f in
    *.expected | README.md) continue ;;
    esac
    grep -qxF "$f" "$T/named" || bad "$f: no .expected names it"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
