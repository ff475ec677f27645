#!/usr/bin/env python3
"""Compares `sysdesc layout` with mlir-opt-22 --test-data-layout-query.

Every spec of tests/data/layout/specs.txt (plus the spec of every row of the
triple table, through `sysdesc dl-import --triple`) is queried for every type
of tests/data/layout/types.txt, and for the scope-wide properties.  Nested
specs run MLIR's pass on the inner module; when MLIR rejects the nesting,
sysdesc must reject it too.  Exits 77 when the MLIR tools are missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ.get("SYSDESC", "sysdesc")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
MLIR_OPT = os.environ.get("MLIR_OPT", "mlir-opt-22")
DATA = os.path.join(SRCDIR, "tests", "data", "layout")

PROPS = ["endianness", "default_memory_space", "alloca_memory_space", "program_memory_space",
         "global_memory_space", "stack_alignment", "mangling_mode",
         "function_pointer_alignment", "legal_int_widths"]


def split_top(text, sep=","):
    """Splits at `sep` outside brackets and strings."""
    out, depth, cur, quoted = [], 0, "", False
    for i, c in enumerate(text):
        if quoted:
            cur += c
            if c == '"' and text[i - 1] != "\\":
                quoted = False
            continue
        if c == '"':
            quoted = True
        elif c in "<[({":
            depth += 1
        elif c in ">])}":
            depth -= 1
        if c == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_dict(text):
    d = {}
    for item in split_top(text):
        k, _, v = item.partition(" = ")
        d[k.strip()] = v.strip()
    return d


def mlir_size(v):
    m = re.fullmatch(r"\{minimal_size = (\d+) : index, scalable\}", v)
    if m:
        return "vscale x " + m.group(1)
    return v.replace(" : index", "")


def load_types():
    types = []
    with open(os.path.join(DATA, "types.txt")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            types += split_top(line.strip(), " ")
    return [t for t in types if t]


def load_specs():
    specs = []
    with open(os.path.join(DATA, "specs.txt")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            crash = line.startswith("crash:")
            if crash:
                line = line[len("crash:"):].strip()
            parts = [p.strip() for p in line.split("||")]
            parts = ["" if p == "<empty>" else p for p in parts]
            specs.append((parts, crash))
    return specs


def module_text(parts, body):
    if len(parts) == 1:
        return "module attributes {dlti.dl_spec = #dlti.dl_spec<%s>} {\n%s}\n" % (parts[0], body)
    return ("module attributes {dlti.dl_spec = #dlti.dl_spec<%s>} {\n"
            "  module @inner attributes {dlti.dl_spec = #dlti.dl_spec<%s>} {\n%s  }\n}\n"
            % (parts[0], parts[1], body))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def mlir_answers(tmp, parts, types):
    body = "    func.func @q() {\n"
    for i, t in enumerate(types):
        body += '      %%%d = "test.data_layout_query"() : () -> %s\n' % (i, t)
    body += "      return\n    }\n"
    path = os.path.join(tmp, "mlir.mlir")
    with open(path, "w") as f:
        f.write(module_text(parts, body))
    if len(parts) == 1:
        cmd = [MLIR_OPT, "--test-data-layout-query", path]
    else:
        cmd = [MLIR_OPT, "--pass-pipeline=builtin.module(builtin.module(func.func(test-data-layout-query)))", path]
    r = run(cmd)
    if r.returncode != 0:
        return None, r.stderr
    answers = {}
    for line in r.stdout.splitlines():
        m = re.search(r'"test.data_layout_query"\(\) \{(.*)\} : \(\) -> (.*)$', line)
        if m:
            answers[m.group(2).strip()] = parse_dict(m.group(1))
    return answers, None


def main():
    if not shutil.which(MLIR_OPT):
        print("SKIP: %s not found" % MLIR_OPT)
        return 77
    types = load_types()
    specs = load_specs()
    r = run([SYSDESC, "dl-import", "--list"])
    for row in r.stdout.splitlines():
        triple, layout, _ = row.split("\t")
        s = run([SYSDESC, "dl-import", layout])
        body = s.stdout.strip()
        if s.returncode == 0 and body.startswith("#dlti.dl_spec<"):
            specs.append(([body[len("#dlti.dl_spec<"):-1]], False))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for parts, crash in specs:
            label = " || ".join(parts) or "<empty>"
            ours_path = os.path.join(tmp, "ours.mlir")
            with open(ours_path, "w") as f:
                f.write(module_text(parts, ""))
            scope = ["--scope", "inner"] if len(parts) > 1 else []
            ours = run([SYSDESC, "layout"] + scope + [ours_path] + types)
            props = run([SYSDESC, "layout"] + scope + [ours_path])
            if ours.returncode < 0 or props.returncode < 0:
                print("FAIL %s: sysdesc crashed" % label)
                failed += 1
                continue
            if crash:
                # mlir-opt-22 crashes; sysdesc must answer or refuse cleanly.
                ok = (ours.returncode in (0, 2) and
                      (ours.returncode == 0 or "does not combine" in ours.stderr))
                print("%s (mlir-opt-22 crashes) %s: sysdesc %s" %
                      ("ok" if ok else "FAIL", label,
                       "combines" if ours.returncode == 0 else "refuses"))
                passed += ok
                failed += not ok
                continue
            theirs, error = mlir_answers(tmp, parts, types)
            if theirs is None:
                if "does not combine" in error and "does not combine" in ours.stderr:
                    passed += 1
                else:
                    print("FAIL %s: mlir-opt-22 failed: %s\n  sysdesc: %s" %
                          (label, error.strip()[:300], ours.stderr.strip()))
                    failed += 1
                continue
            if ours.returncode != 0:
                print("FAIL %s: sysdesc failed: %s" % (label, ours.stderr.strip()))
                failed += 1
                continue
            lines = ours.stdout.splitlines()
            for t, line in zip(types, lines):
                m = re.fullmatch(r"(.*): size = (.*), bitsize = (.*), alignment = (\d+), "
                                 r"preferred = (\d+), index = (\d+)", line)
                d = theirs.get(t)
                if not m or d is None:
                    print("FAIL %s: %s: no answer (%s)" % (label, t, line))
                    failed += 1
                    continue
                want = (mlir_size(d["size"]), mlir_size(d["bitsize"]), mlir_size(d["alignment"]),
                        mlir_size(d["preferred"]), mlir_size(d["index"]))
                got = m.group(2, 3, 4, 5, 6)
                if want == got:
                    passed += 1
                else:
                    print("FAIL %s: %s: mlir %s, sysdesc %s" % (label, t, want, got))
                    failed += 1
            first = theirs[types[0]]
            ours_props = dict(l.split(" = ", 1) for l in props.stdout.splitlines())
            for p in PROPS:
                if first.get(p) == ours_props.get(p):
                    passed += 1
                else:
                    print("FAIL %s: %s: mlir %s, sysdesc %s" % (label, p, first.get(p), ours_props.get(p)))
                    failed += 1
        # Types without a layout: MLIR aborts, sysdesc reports an error.
        path = os.path.join(tmp, "none.mlir")
        with open(path, "w") as f:
            f.write("module {\n}\n")
        for t in ["memref<4xi32>", "tensor<4xf32>", "none", "tuple<i32>", "vector<f32>"]:
            r = run([SYSDESC, "layout", path, t])
            ok = r.returncode == 2 and "error" in r.stderr
            passed += ok
            failed += not ok
            if not ok:
                print("FAIL %s: expected a clean error, got rc %d" % (t, r.returncode))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
