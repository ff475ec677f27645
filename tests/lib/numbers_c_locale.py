#!/usr/bin/env python3
"""No number is read or written through the caller's locale in the library
(docs/reliability.md, "numbers"): in dlti/, base/, sysdesc/, probe/ and
python/src/, no strtod/strtof/strtold/atof/sscanf of a float, and no
printf-family call whose format converts a float (%e %f %g %a), nor a
v*printf forwarder (its callers' formats are not seen here), but through
base/number.c's bs_strtod / bs_snprintf / bs_vsnprintf (and what is
built on them: bs_buf_printf, the error setters).  The CLI is a program of
its own that never calls setlocale(), so its printing is left out.

Environment: SRCDIR."""
import os
import re
import sys

SRC = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
DIRS = ["dlti", "base", "sysdesc", "probe", "python/src"]
ALLOWED = {"base/number.c"}
# a call, its name, up to the end of its argument list (calls span lines)
CALL = re.compile(r"\b(v?s?n?printf|fprintf|vfprintf|strto[dfl]d?|strtold|atof|v?sscanf)\s*\(")
FLOAT_CONV = re.compile(r"%[-+ #0]*(\d+|\*)?(\.(\d+|\*))?(l|L)?[eEfFgGaA]")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def args_of(text, start):
    """The text of the call's arguments from `start` (after the '(')."""
    depth, i = 1, start
    while i < len(text) and depth:
        c = text[i]
        if c == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        depth += c == "("
        depth -= c == ")"
        i += 1
    return text[start:i]


def literals(args):
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', args))


bad = []
for d in DIRS:
    for root, _, files in os.walk(os.path.join(SRC, d)):
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, SRC)
            if rel in ALLOWED:
                continue
            text = strip_comments(open(path, encoding="utf-8", errors="replace").read())
            for m in CALL.finditer(text):
                name = m.group(1)
                if text[m.start() - 5:m.start()] == "dlti_":
                    continue
                line = text.count("\n", 0, m.start()) + 1
                args = args_of(text, m.end())
                if name.startswith("strto") and name in ("strtod", "strtof", "strtold") or name == "atof":
                    bad.append("%s:%d: %s() reads the radix of the caller's locale" % (rel, line, name))
                elif name in ("vsnprintf", "vsprintf", "vprintf", "vfprintf") and \
                        not rel.startswith("python/"):  # the public API only: its formats are scanned
                    # a forwarder: its format comes from its callers, whose
                    # float conversions this scan cannot see
                    bad.append("%s:%d: %s() forwards a format to the caller's locale" % (rel, line, name))
                elif FLOAT_CONV.search(literals(args).replace("%%", "")):
                    bad.append("%s:%d: %s() with a float conversion prints the caller's locale's "
                               "radix" % (rel, line, name))
for b in bad:
    print("FAIL: " + b + " (use bs_strtod / bs_snprintf, base/number.c)")
print("%d call(s) through the locale" % len(bad) if bad else "ok: no number goes through the locale")
sys.exit(1 if bad else 0)
