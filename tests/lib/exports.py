#!/usr/bin/env python3
"""The exports of libsysdesc.so are exactly what the public headers declare.

The library is built with hidden visibility (include/sysdesc/export.h): a
function is exported when its declaration in an installed header carries
SYSDESC_API.  This compares `nm -D --defined-only LIB` with those
declarations, both ways:
  - a symbol exported but not declared SYSDESC_API is a failure (a
    non-static helper that leaked, or a declaration that lost its marker);
  - a name declared SYSDESC_API but not exported is a failure (a declared
    function with no definition, or one compiled hidden);
and a function declared in a public header without SYSDESC_API is a failure
too (callers would compile, then fail to link against the shared library).

Declarations are read as C statements (comments, strings and preprocessor
lines removed, split at ';', '{' and '}'), so a declaration may span lines.

Environment: SYSDESC_LIB, the shared library; SYSDESC_HEADER_DIRS, the
folders of the public headers, ':'-separated (the source folder and the
build folder holding the generated version.h).  NM overrides `nm`.
"""
import os
import re
import subprocess
import sys

# Symbols the linker itself may define in a shared library's dynamic table.
LINKER_SYMBOLS = {"_init", "_fini", "_edata", "_end", "__bss_start"}

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_source(text):
    """Comments and string contents out, preprocessor lines out."""
    def repl(m):
        s = m.group(0)
        if s.startswith('"'):
            return '""'
        return " " if s.startswith("/*") else ""
    text = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', repl, text, flags=re.S)
    text = re.sub(r"\\\n", " ", text)  # continued preprocessor lines
    return "\n".join(l for l in text.split("\n") if not l.lstrip().startswith("#"))


def declarations(text):
    """(statement, is_api) for each top-level C statement of a header."""
    out = []
    for stmt in re.split(r"[;{}]", strip_source(text)):
        stmt = " ".join(stmt.split())
        if stmt:
            words = re.findall(IDENT, stmt)
            out.append((stmt, "SYSDESC_API" in words))
    return out


def declared_name(stmt):
    """The name a declaration declares: the function's or the variable's."""
    s = re.sub(r"\bSYSDESC_API\b", " ", stmt)
    s = re.sub(r"\b__attribute__\s*\(\(.*?\)\)", " ", s)
    paren = s.find("(")
    if paren < 0:  # a variable: the last name before '=' or '['
        names = re.findall(IDENT, re.split(r"[=\[]", s)[0])
        return names[-1] if names else None
    m = re.match(r"\(\s*\*\s*(%s)" % IDENT, s[paren:])
    if m:  # a function pointer variable
        return m.group(1)
    m = re.search(r"(%s)\s*$" % IDENT, s[:paren])
    return m.group(1) if m else None


def is_function_declaration(stmt):
    """A prototype at file scope (not a typedef, a struct member pointer or a macro use)."""
    if re.match(r"(typedef|static)\b", stmt):
        return False
    m = re.match(r"^(?:[A-Za-z_][A-Za-z0-9_]*[\s\*]+)+(%s)\s*\(" % IDENT, stmt)
    return bool(m)


def main():
    lib = os.environ.get("SYSDESC_LIB")
    dirs = [d for d in os.environ.get("SYSDESC_HEADER_DIRS", "").split(":") if d]
    if not lib or not dirs:
        print("FAIL: SYSDESC_LIB and SYSDESC_HEADER_DIRS must be set")
        return 1
    failures = []

    declared = {}  # name -> header
    headers = 0
    for d in dirs:
        for name in sorted(os.listdir(d)):
            if not name.endswith(".h"):
                continue
            headers += 1
            path = os.path.join(d, name)
            with open(path, encoding="utf-8") as f:
                for stmt, api in declarations(f.read()):
                    if api:
                        sym = declared_name(stmt)
                        if not sym:
                            failures.append("%s: cannot tell what this declares: %s" % (name, stmt))
                        else:
                            declared[sym] = name
                    elif is_function_declaration(stmt):
                        failures.append("%s: %s is declared without SYSDESC_API (hidden: callers "
                                        "would not link): %s" % (name, declared_name(stmt), stmt))
    if headers == 0 or not declared:
        print("FAIL: no SYSDESC_API declarations found in %s" % dirs)
        return 1

    nm = os.environ.get("NM", "nm")
    r = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: %s -D --defined-only %s: exit %d: %s" % (nm, lib, r.returncode, r.stderr.strip()))
        return 1
    exported = set()
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[-1] not in LINKER_SYMBOLS:
            exported.add(parts[-1].split("@")[0])  # name@@VERSION -> name

    for sym in sorted(exported - set(declared)):
        failures.append("exported but not declared SYSDESC_API in a public header: %s" % sym)
    for sym in sorted(set(declared) - exported):
        failures.append("declared SYSDESC_API in %s but not exported: %s" % (declared[sym], sym))

    for f in failures:
        print("FAIL: " + f)
    print("%d declared SYSDESC_API in %d headers, %d exported by %s; %d failure(s)"
          % (len(declared), headers, len(exported), os.path.basename(lib), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
