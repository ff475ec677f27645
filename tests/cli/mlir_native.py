#!/usr/bin/env python3
"""Specs as MLIR pipelines write them (tests/data/native/*.mlir: flat keys,
i32/ui32/ui64 values, keys of their own, no device_type) through every
command that reads a description, with mlir-opt-22 as the oracle.

For every file F:
  - `convert F` prints what mlir-opt-22 prints for F (every value keeps its
    type), its only messages warnings; `convert --strict F` refuses exactly
    the files `check F` finds problems in, and `check F` (strict) reports as
    errors what convert reported as warnings, then a hint;
  - YAML round trip: `convert --to yaml F`, read back, prints F again;
    `convert --to json --typed` writes every integer that is not i64 with
    its type;
  - `summary F` shows every device;
  - `compose F` and `attach F IN.mlir` keep every value and its type: each
    (device, key) answers in their output as in F;
  - `query F DEVICE KEY` answers as mlir-opt-22's transform.dlti.query.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
MLIR_OPT = os.environ.get("MLIR_OPT", "mlir-opt-22")
DATA = os.path.join(SRCDIR, "tests", "data", "native")
REAL = os.path.join(SRCDIR, "tests", "data", "real", "func_gpu.mlir")
failures, checks = [], 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL", what)


def run(*args):
    r = subprocess.run(list(args), capture_output=True)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def sysdesc(*args):
    return run(SYSDESC, *args)


def device_keys(path):
    """[(device, key)] of the system spec, from `convert --to json`."""
    rc, out, err = sysdesc("convert", "--no-check", "--to", "json", path)
    assert rc == 0, err
    doc = json.loads(out)
    return [(d, k) for d, keys in doc.items() if d != "data_layout" for k in keys]


def mlir_query(tmp, path, device, key):
    text = open(path).read()
    body = "\n".join(l for l in text.splitlines() if not l.startswith("//"))
    # The spec's module as the payload, named so the transform can match it.
    body = body.replace("module attributes", "module @payload attributes", 1)
    prog = ("module attributes {transform.with_named_sequence} {\n" + body + "\n"
            "  transform.named_sequence @__transform_main(%arg: !transform.any_op) {\n"
            '    %m = transform.structured.match ops{["builtin.module"]} attributes '
            '{sym_name = "payload"} in %arg : (!transform.any_op) -> !transform.any_op\n'
            '    %p = transform.dlti.query ["DEVICE", "KEY"] at %m : (!transform.any_op) -> '
            "!transform.any_param\n"
            "    transform.debug.emit_param_as_remark %p : !transform.any_param\n"
            "    transform.yield\n  }\n}\n").replace("DEVICE", device).replace("KEY", key)
    q = os.path.join(tmp, "q.mlir")
    with open(q, "w") as f:
        f.write(prog)
    rc, out, err = run(MLIR_OPT, "--transform-interpreter", q)
    m = re.search(r": remark: (.*)", err)
    if m:
        return m.group(1)
    m = re.search(r": note: (key .*|got non-DLTI.*|no DLTI.*)", err)
    return "it fails: " + m.group(1) if m else "mlir-opt: " + err.strip()


NOTE = re.compile(r"sysdesc: note: MLIR 22's dlti::query answers otherwise here: (.*); sysdesc tries")


def answers(path, pairs, notes=None):
    """{(device, key): sysdesc's answer} from `path`; `notes` gets what the
    note on MLIR 22's answer says, where sysdesc's documented rule differs."""
    got = {}
    for d, k in pairs:
        rc, out, err = sysdesc("query", path, d, k)
        got[(d, k)] = out.strip() if rc == 0 else "exit %d: %s" % (rc, err.strip())
        m = NOTE.search(err)
        if notes is not None and m:
            notes[(d, k)] = m.group(1)
    return got


def main():
    files = sorted(f for f in os.listdir(DATA) if f.endswith(".mlir"))
    check(files, "no specs in %s" % DATA)
    with tempfile.TemporaryDirectory() as tmp:
        for name in files:
            f = os.path.join(DATA, name)
            pairs = device_keys(f)
            # convert: MLIR's own print, warnings only
            rc_m, want, _ = run(MLIR_OPT, f)
            rc, out, err = sysdesc("convert", f)
            check(rc == 0 and out == want, "%s: convert differs from mlir-opt-22 (%d): %s" % (name, rc, err))
            warnings = [l for l in err.splitlines() if l]
            check(all(": warning: " in l for l in warnings), "%s: convert says more than warnings: %s" % (name, err))
            # check is strict: the same problems, as errors, then the hint
            rc_c, out_c, err_c = sysdesc("check", f)
            errors = [l for l in err_c.splitlines() if ": error: " in l]
            check([l.replace(": warning: ", ": error: ") for l in warnings] == errors,
                  "%s: check's errors are not convert's warnings:\n%s\n%s" % (name, err, err_c))
            if errors:
                check(rc_c == 2 and "sysdesc: hint: check is strict" in err_c, "%s: check: %d %s" % (name, rc_c, err_c))
            else:
                check(rc_c == 0 and out_c.strip() == "%s: ok" % f, "%s: check: %s" % (name, out_c + err_c))
            rc_s, _, err_s = sysdesc("convert", "--strict", f)
            check(rc_s == (2 if errors else 0), "%s: convert --strict exit %d: %s" % (name, rc_s, err_s))
            # YAML keeps every type; JSON --typed names every type but i64
            rc, yaml, err = sysdesc("convert", "--to", "yaml", f)
            y = os.path.join(tmp, "spec.yaml")
            with open(y, "w") as fy:
                fy.write(yaml)
            rc2, back, err2 = sysdesc("convert", "--to", "mlir", y)
            check(rc == 0 and rc2 == 0 and back == want, "%s: YAML round trip: %s%s\n%s" % (name, err, err2, back))
            rc, js, err = sysdesc("convert", "--to", "json", "--typed", f)
            typed = re.findall(r'\{"type": "([a-z]+\d+)", "value": (-?\d+)\}', js)
            in_mlir = re.findall(r"= (-?\d+) : ((?:ui|si|i)\d+)", want)
            check(rc == 0 and sorted(typed) == sorted((t, v) for v, t in in_mlir if t != "i64"),
                  "%s: JSON --typed types %s, MLIR %s" % (name, typed, in_mlir))
            # summary: a block per device
            rc, out, err = sysdesc("summary", f)
            devices = sorted({d for d, _ in pairs})
            check(rc == 0 and all(re.search(r"(?m)^%s\b" % re.escape(d), out) for d in devices),
                  "%s: summary (%d): %s%s" % (name, rc, out, err))
            # query: MLIR's answers; where sysdesc's documented rule finds
            # what MLIR 22 does not (a dl_spec before the system spec), the
            # note says MLIR 22's answer, and says it right
            notes = {}
            ours = answers(f, pairs, notes)
            for d, k in pairs:
                theirs = mlir_query(tmp, f, d, k)
                check(notes.get((d, k), ours[(d, k)]) == theirs,
                      "%s: query %s %s: sysdesc %r (note %r), mlir-opt-22 %r"
                      % (name, d, k, ours[(d, k)], notes.get((d, k)), theirs))
            # compose and attach keep every value and type
            rc, out, err = sysdesc("compose", f, "-o", os.path.join(tmp, "c.mlir"))
            check(rc == 0 and answers(os.path.join(tmp, "c.mlir"), pairs) == ours,
                  "%s: compose changed a value: %s" % (name, err))
            a = os.path.join(tmp, "a.mlir")
            rc, out, err = sysdesc("attach", "-o", a, f, REAL)
            check(rc == 0 and run(MLIR_OPT, "--allow-unregistered-dialect", a)[0] == 0,
                  "%s: attach: %s" % (name, err))
            check(rc == 0 and answers(a, pairs) == ours, "%s: attach changed a value" % name)
    print("%d checks, %d failed" % (checks, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    if subprocess.run(["sh", "-c", "command -v " + MLIR_OPT], capture_output=True).returncode:
        print("SKIP: %s not found (apt-get install mlir-22-tools)" % MLIR_OPT)
        sys.exit(77)
    sys.exit(main())
