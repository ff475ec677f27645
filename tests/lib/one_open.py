#!/usr/bin/env python3
"""Every file sysdesc reads is opened one way: bs_input_open() and
bs_dir_open() in base/file.c (a regular file or '-', non-blocking, checked
on the descriptor, a size limit; docs/reliability.md, "Special files").

This test fails when a source file of the library, the tool or the Python
module calls a function that opens a file (open, openat, fopen, opendir,
creat, popen, mkstemp, tmpfile, ...) anywhere but in the places listed below,
each a writer or the reader itself, with the number of calls it has.  A new
call anywhere, or one more in a listed file, fails until it is routed through
base/file.c or listed here with its reason."""
import os
import re
import sys

SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
LAYERS = ["base", "dlti", "probe", "sysdesc", "cli", "python/src"]
OPENERS = ["fopen", "fopen64", "freopen", "fdopen", "open", "open64", "openat", "openat2",
           "creat", "creat64", "opendir", "popen", "mkstemp", "mkostemp", "mkstemps",
           "mkostemps", "tmpfile", "fmemopen", "name_to_handle_at", "open_by_handle_at"]
CALL = re.compile(r"(?<![\w.>])(" + "|".join(OPENERS) + r")\s*\(")

# (file, function): (calls, why)
ALLOWED = {
    ("base/file.c", "openat"): (2, "the reader itself: bs_input_open, bs_dir_open"),
    ("cli/atomic_write.c", "open"): (3, "the -o writer: a device written in place (O_WRONLY), "
                                        "the directory fsync'ed after the rename, the output "
                                        "locked (flock) for a read-modify-write"),
    ("cli/atomic_write.c", "mkstemp"): (1, "the -o writer: its temporary file"),
    ("probe/cache.c", "openat"): (1, "the cache writer: a new temporary entry (O_CREAT|O_EXCL, "
                                        "O_NOFOLLOW) in the checked directory"),
}


def strip(text):
    """C text with comments and string and character literals blanked out."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def calls(text):
    return [m.group(1) for m in CALL.finditer(strip(text))]


# The judge judged: a call is found, a mention in a comment or string is not.
assert calls("int f(void) { FILE *f = fopen(p, \"r\"); return open (p, 0); }") == ["fopen", "open"]
assert calls("/* fopen(x) */ // open(y)\nconst char *s = \"opendir(z)\";") == []
assert calls("x = bs_input_open(a); y = s->open(b); z = dlopen(c);") == []

found = {}
for layer in LAYERS:
    for root, _, files in os.walk(os.path.join(SRCDIR, layer)):
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, SRCDIR)
            with open(path, encoding="utf-8", errors="replace") as f:
                for fn in calls(f.read()):
                    found[(rel, fn)] = found.get((rel, fn), 0) + 1

failures = []
for key, count in sorted(found.items()):
    want = ALLOWED.get(key, (0, None))[0]
    if count != want:
        failures.append("%s calls %s() %d time(s), %d allowed: open inputs with "
                        "bs_input_open()/bs_read_file() (base/file.c)" % (key[0], key[1], count, want))
for key, (count, why) in sorted(ALLOWED.items()):
    if key not in found:
        failures.append("%s no longer calls %s(): remove it from ALLOWED (%s)" % (key[0], key[1], why))

for f in failures:
    print("FAIL:", f)
print("%d opening call(s) in %s, all in the allowed places" % (sum(found.values()), ", ".join(LAYERS))
      if not failures else "%d problem(s)" % len(failures))
sys.exit(1 if failures else 0)
