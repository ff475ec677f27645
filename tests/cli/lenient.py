#!/usr/bin/env python3
"""Lenient transforms, strict check (docs/checks.md, "Lenient transforms"):
`sysdesc convert`, `summary` and `attach` take target descriptions as MLIR's
users write them (tests/data/users/specs.mlir, split on `// -----`), with
mlir-opt-22 as the oracle of what the file holds.

For every case F (its header names the op its DLTI is on: `scope: PATH`):
  - mlir-opt-22 reads F;
  - `convert F` succeeds with warnings only, one of them naming the op and
    its `--scope` when that is not the top module; mlir-opt-22 reads the
    output, and every attribute of its module, as mlir-opt-22 prints it,
    is printed so in mlir-opt-22's print of F (nothing changed, nothing
    invented); `convert --scope PATH F` prints the same;
  - `attach F IN` succeeds, mlir-opt-22 reads the result, and each attribute
    attached reads in mlir-opt-22's print of it as in its print of F;
  - `summary F` shows a block for each device or DLTI attribute, and each
    top-level key of a #dlti.map;
  - `check F` is strict: a value of another type than the schema's is an
    error there (as each of convert's warnings about one), and so it is
    with `convert --strict`; DLTI that is no system spec is nothing for the
    schema (exit 1);
  - DLTI that is no system spec: YAML and typed JSON refuse it, naming the
    formats that hold it; plain JSON names each attribute; `--to attr`
    prints the one attribute bare, which `fmt` reads back as itself;
  - several ops with a system spec: no guess (exit 1, each op named with
    its --scope), and each --scope takes its own;
  - a device spec alone (a bare attribute): MLIR output and attach refuse
    it (no module attribute name holds it), --to attr and summary take it.
The counts printed last are the evidence: run with SYSDESC set to an older
build to count what it took.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
MLIR_OPT = os.environ.get("MLIR_OPT", "mlir-opt-22")
CORPUS = os.path.join(SRCDIR, "tests", "data", "users", "specs.mlir")
REAL = os.path.join(SRCDIR, "tests", "data", "real", "func_gpu.mlir")
failures, checks = [], 0
taken = {"convert": 0, "summary": 0, "attach": 0}
kept = [0, 0]  # attributes printed as mlir-opt-22 prints them in F, of all


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL", what)
    return bool(cond)


def run(*args, stdin=None):
    r = subprocess.run(list(args), capture_output=True, input=stdin)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def sysdesc(*args):
    return run(SYSDESC, *args)


def mlir_opt(path):
    return run(MLIR_OPT, "--allow-unregistered-dialect", path)


def split_top(text):
    """`a = x, b = y` at bracket depth 0 (strings followed)."""
    parts, depth, i, start = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "<[({":
            depth += 1
        elif c in ">])}" and not (c == ">" and text[i - 1] == "-"):
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def module_attrs(printed):
    """The attributes of the top module in mlir-opt-22's print, `name = value` each."""
    m = re.match(r"module(?: @\S+)? attributes \{", printed)
    if not m:
        return []
    i, depth = m.end(), 1
    j = i
    while depth:
        c = printed[j]
        if c == '"':
            j += 1
            while printed[j] != '"':
                j += 2 if printed[j] == "\\" else 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        j += 1
    return split_top(printed[i:j - 1])


def cases():
    text = open(CORPUS).read()
    for chunk in text.split("// -----"):
        m = re.search(r"// case: (.*); scope: (.*)", chunk)
        if m:
            yield m.group(1), m.group(2).strip(), chunk


def main():
    all_cases = list(cases())
    check(len(all_cases) >= 12, "the corpus has %d cases" % len(all_cases))
    with tempfile.TemporaryDirectory() as tmp:
        for n, (name, scope, chunk) in enumerate(all_cases):
            f = os.path.join(tmp, "case%d.mlir" % n)
            with open(f, "w") as out:
                out.write(chunk)
            rc, ref, err = mlir_opt(f)
            check(rc == 0, "%s: mlir-opt-22 rejects the case: %s" % (name, err))
            if scope.startswith("(several)"):
                several(name, f, scope.split()[1:], ref)
                continue
            one_case(tmp, name, f, scope, ref)
        bare_device(tmp)
    total = len(all_cases)
    print("users' specs taken: convert %d/%d, summary %d/%d, attach %d/%d; attributes "
          "printed as mlir-opt-22 prints them in the case: %d/%d"
          % (taken["convert"], total, taken["summary"], total, taken["attach"], total,
             kept[0], kept[1]))
    print("%d checks, %d failed" % (checks, len(failures)))
    return 1 if failures else 0


def in_reference(attrs, ref, what):
    """Each attribute, as mlir-opt-22 prints it, is in its print of the case."""
    for a in attrs:
        kept[1] += 1
        kept[0] += a in ref
        check(a in ref, "%s: %s is not in mlir-opt-22's print of the case" % (what, a[:120]))


def several(name, f, scopes, ref):
    rc, out, err = sysdesc("convert", f)
    check(rc == 1 and all("--scope %s)" % s in err for s in scopes) and "choose one" in err,
          "%s: convert guessed (%d): %s" % (name, rc, err))
    ok = True
    for s in scopes:
        rc, out, err = sysdesc("convert", "--scope", s, f)
        warnings = all(": warning: " in l for l in err.splitlines())
        ok &= check(rc == 0 and warnings and "not on the top module" not in err and
                    "dlti.target_system_spec" in out,
                    "%s: convert --scope %s (%d): %s" % (name, s, rc, err))
        # its problems are shown on that op's line, not on the first spec's
        line = 1 + [i for i, l in enumerate(open(f).read().splitlines()) if "@%s(" % s in l][0]
        check(all(":%d:" % line in l for l in err.splitlines()),
              "%s: --scope %s: warnings not on line %d: %s" % (name, s, line, err))
        rc2, printed, _ = run(MLIR_OPT, "-", stdin=out.encode())
        in_reference(module_attrs(printed), ref, "%s --scope %s" % (name, s))
    taken["convert"] += ok
    rc, out, err = sysdesc("summary", "--scope", scopes[0], f)
    taken["summary"] += check(rc == 0 and out.startswith("CPU"), "%s: summary --scope: %s" % (name, err))
    rc, out, err = sysdesc("attach", "--scope", scopes[0], f, REAL)
    taken["attach"] += check(rc == 0, "%s: attach --scope: %s" % (name, err))


def one_case(tmp, name, f, scope, ref):
    # convert: warnings only; the op named when not the top module
    rc, out, err = sysdesc("convert", f)
    lines = [l for l in err.splitlines() if l]
    ok = check(rc == 0 and all(": warning: " in l for l in lines),
               "%s: convert (%d): %s" % (name, rc, err))
    if scope == "/":
        check("not on the top module" not in err, "%s: a warning about the op: %s" % (name, err))
    elif scope == "(unnamed)":
        check("no --scope names it" in err, "%s: the unnamed op not said: %s" % (name, err))
    else:
        check(re.search(r"warning: the .* on .* \(--scope %s\), not on the top module" % re.escape(scope), err),
              "%s: the op not named with --scope %s: %s" % (name, scope, err))
    rc2, printed, err2 = run(MLIR_OPT, "-", stdin=out.encode())
    ok &= check(rc2 == 0, "%s: mlir-opt-22 rejects convert's output: %s\n%s" % (name, err2, out))
    attrs = module_attrs(printed)
    check(attrs, "%s: convert printed no attribute: %s" % (name, printed))
    in_reference(attrs, ref, name + ": convert")
    taken["convert"] += ok
    if scope != "(unnamed)":
        r = sysdesc("convert", "--scope", scope, f)
        check(r[0] == 0 and r[1] == out, "%s: convert --scope %s differs: %s" % (name, scope, r[2]))
    system = "dlti.target_system_spec = " in out

    # attach onto a real file
    a = os.path.join(tmp, "attached.mlir")
    rc, _, err = sysdesc("attach", "-o", a, f, REAL)
    ok = check(rc == 0, "%s: attach (%d): %s" % (name, rc, err))
    if ok:
        rc2, printed_a, err2 = mlir_opt(a)
        ok &= check(rc2 == 0, "%s: mlir-opt-22 rejects attach's output: %s" % (name, err2))
        ours = [x for x in module_attrs(printed_a) if x in attrs or not x.startswith("gpu.")]
        check(set(attrs) <= set(module_attrs(printed_a)),
              "%s: attach lost an attribute: %s" % (name, set(attrs) - set(ours)))
    taken["attach"] += ok

    # summary: a block for each device or attribute
    rc, summary, err = sysdesc("summary", f)
    rc_j, js, err_j = sysdesc("convert", "--no-check", "--to", "json", f)
    ok = check(rc == 0 and rc_j == 0, "%s: summary (%d) or json (%d): %s%s" % (name, rc, rc_j, err, err_j))
    doc = json.loads(js) if rc_j == 0 else {}
    for top, value in doc.items():
        if top == "data_layout" and system:
            continue
        if isinstance(value, list):  # arrays of device specs: a block each
            for i in range(len(value)):
                ok &= check(re.search(r"(?m)^%s\[%d\]" % (re.escape(top), i), summary),
                            "%s: summary has no block %s[%d]:\n%s" % (name, top, i, summary))
            continue
        ok &= check(re.search(r"(?m)^%s\b" % re.escape(top), summary),
                    "%s: summary has no block %s:\n%s" % (name, top, summary))
        if not system and isinstance(value, dict):
            for key in value:
                ok &= check(re.search(r"(?m)^  %s(\s|$)" % re.escape(key), summary),
                            "%s: summary of %s lacks %s:\n%s" % (name, top, key, summary))
    taken["summary"] += ok

    # strict: check, convert --strict
    type_warnings = [l.replace(": warning: ", ": error: ").replace(" (kept as written)", "")
                     for l in lines if l.endswith(" (kept as written)")]
    rc, _, err = sysdesc("check", f)
    if not system:
        check(rc == 1 and "nothing for the device schema to check" in err, "%s: check (%d): %s" % (name, rc, err))
        other_dlti(tmp, name, f, out, doc)
        return
    errors = [l.replace(f, "F") for l in err.splitlines() if ": error: " in l]
    check(all(w.replace(f, "F") in errors for w in type_warnings),
          "%s: check does not report convert's type warnings:\n%s\n%s" % (name, type_warnings, err))
    if type_warnings:
        rc_s, _, err_s = sysdesc("convert", "--strict", f)
        check(rc == 2 and rc_s == 2 and "must be" in err_s, "%s: strict (%d, %d): %s" % (name, rc, rc_s, err_s))


def other_dlti(tmp, name, f, out, doc):
    """DLTI that is no system spec, in every format."""
    for args in (["--to", "yaml"], ["--to", "json", "--typed"]):
        rc, _, err = sysdesc("convert", *args, f)
        check(rc == 2 and "--format mlir or attr holds it" in err, "%s: convert %s (%d): %s" % (name, args, rc, err))
    names = [a.split(" = ")[0] for a in module_attrs(out) if not a.startswith("llvm.target")]
    check(sorted(doc) == sorted(n.strip('"') for n in names),
          "%s: plain JSON names %s, the module %s" % (name, sorted(doc), names))
    rc, bare, err = sysdesc("convert", "--to", "attr", f)
    if len(names) == 1:
        b = os.path.join(tmp, "bare.mlir")
        with open(b, "w") as fb:
            fb.write(bare)
        rc2, back, err2 = sysdesc("fmt", b)
        check(rc == 0 and rc2 == 0 and back == bare and bare.startswith(("#dlti.", "[")),
              "%s: --to attr (%d, %d): %s%s" % (name, rc, rc2, err, err2))
    else:
        check(rc == 2 and "--format mlir prints them all" in err, "%s: --to attr (%d): %s" % (name, rc, err))


def bare_device(tmp):
    """A device spec alone: no module attribute holds it (MLIR's `dlti.map`
    holds maps only), so MLIR output refuses it and --to attr prints it."""
    f = os.path.join(tmp, "device.mlir")
    with open(f, "w") as out:
        out.write('#dlti.target_device_spec<"arch" = "sm_90", "warp_size" = 32 : i64>\n')
    rc, out, err = sysdesc("convert", f)
    check(rc == 2 and "--format attr prints it" in err, "bare device spec: convert (%d): %s" % (rc, err))
    rc, out, err = sysdesc("convert", "--to", "attr", f)
    check(rc == 0 and out == open(f).read(), "bare device spec: --to attr (%d): %s%s" % (rc, out, err))
    rc, out, err = sysdesc("summary", f)
    check(rc == 0 and "warp_size  32" in out, "bare device spec: summary (%d): %s%s" % (rc, out, err))
    rc, out, err = sysdesc("attach", f, REAL)
    check(rc == 2 and "no module attribute name holds" in err, "bare device spec: attach (%d): %s" % (rc, err))


if __name__ == "__main__":
    if not shutil.which(MLIR_OPT):
        print("SKIP: %s not found (apt-get install mlir-22-tools)" % MLIR_OPT)
        sys.exit(77)
    sys.exit(main())
