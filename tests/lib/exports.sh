#!/bin/sh
# Compares the exports of libsysdesc.so with the SYSDESC_API declarations of
# the public headers (see exports.py).
exec python3 "$(dirname "$0")/exports.py" "$@"
