#!/usr/bin/env python3
"""Every file the README and docs/*.md name exists: a path under one of the
project's folders (`probe/runtimes/opencl.c`, `tests/cli/measure.py`) exactly,
a public header as it is included (`sysdesc/probe.h`) under include/, a
bare source file name (`rt_cache.c`) somewhere in the tree.  Placeholders
(`cli/cmd_NAME.c`), generated files, system headers (`#include <stdio.h>`)
and other projects' paths are not
files of ours.  Docs that name a file that was renamed or removed fail
here.
Environment: SRCDIR."""
import os
import re
import sys

SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
TOP = ("base", "dlti", "probe", "sysdesc", "cli", "python", "tests", "bench", "fuzz", "scripts",
       "include", "systems", "examples", "docs", "cmake", ".ci")
EXT = r"(?:c|h|py|pyi|sh|md|yaml|xml|mlir|json|txt|in|build|cmake)"
WITH_DIR = re.compile(r"(?<![\w./-])((?:%s)/[\w./+-]*?\.%s)(?![\w/])" % ("|".join(re.escape(t) for t in TOP), EXT))
BARE = re.compile(r"(?<![\w./-])([a-z][\w+-]*\.(?:c|h))(?![\w/])")


GENERATED = {"version.h",  # include/sysdesc/version.h, made by meson from version.h.in
             "pb_runtimes.h"}  # probe/runtimes/meson.build makes it from its list


def ours(path):
    """A file of this project's, not a placeholder or another project's path."""
    if re.search(r"(?:^|[/_])(?:NAME|VENDOR|KIND|HASH)(?:[./]|$)", path):  # cmd_NAME.c
        return False
    return not path.startswith("include/") or path.startswith("include/sysdesc/")


def exists(path):
    return (os.path.exists(os.path.join(SRCDIR, path)) or
            (path.startswith("sysdesc/") and path.endswith(".h") and
             os.path.exists(os.path.join(SRCDIR, "include", path))) or
            os.path.basename(path) in GENERATED)


def names_in_tree():
    seen = set()
    for root, dirs, files in os.walk(SRCDIR):
        dirs[:] = [d for d in dirs if not d.startswith(("build", ".git"))]
        seen.update(files)
    return seen


def main():
    docs = [os.path.join(SRCDIR, "README.md")]
    ddir = os.path.join(SRCDIR, "docs")
    docs += sorted(os.path.join(ddir, f) for f in os.listdir(ddir) if f.endswith(".md"))
    tree = names_in_tree()
    missing, checked = [], 0
    for doc in docs:
        rel = os.path.relpath(doc, SRCDIR)
        for n, line in enumerate(open(doc, encoding="utf-8"), 1):
            for m in WITH_DIR.finditer(line):
                path = m.group(1).rstrip(".")
                if not ours(path):
                    continue
                checked += 1
                if not exists(path):
                    missing.append("%s:%d: %s" % (rel, n, path))
            for m in BARE.finditer(line):
                if re.search(r"#include\s*<[^>]*$", line[:m.start()]):
                    continue  # a system header (<stdio.h>), not a file of ours
                checked += 1
                if m.group(1) not in tree and m.group(1) not in GENERATED:
                    missing.append("%s:%d: %s (no file of that name)" % (rel, n, m.group(1)))
    for m in missing:
        print("FAIL:", m)
    print("%d file names in %d documents, %d missing" % (checked, len(docs), len(missing)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
