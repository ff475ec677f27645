#!/usr/bin/env python3
"""Replays the differential fuzzer's fixed disagreements.

Every input under fuzz/regressions/differential/ was once judged differently
by sysdesc and MLIR/LLVM (its first comment line says how); each has been
fixed, so sysdesc and mlir-opt-22 / mlir-translate-22 must agree on it now,
with the same judges the fuzzer uses (fuzz/differential.py).  Inputs still
open live under fuzz/findings/differential/ and are reported, not asserted.
Exits 77 when the MLIR tools are missing.
"""
import os
import shutil
import sys
import tempfile

SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SRCDIR, "fuzz"))
import differential  # noqa: E402


def strip_header(text, kind):
    lead = "//" if kind == "mlir" else "#"
    lines = text.split("\n")
    while lines and lines[0].startswith(lead):
        lines.pop(0)
    body = "\n".join(lines)
    return body if kind == "mlir" else body.strip("\n")


def judge(tmp, path):
    kind = "mlir" if path.endswith(".mlir") else "dl"
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        body = strip_header(f.read(), kind)
    return differential.judge_mlir(tmp, body) if kind == "mlir" else differential.judge_dl(tmp, body)


def main():
    for tool in (differential.MLIR_OPT, differential.MLIR_TRANSLATE):
        if not shutil.which(tool):
            print("SKIP: %s not found" % tool)
            return 77
    fixed = os.path.join(SRCDIR, "fuzz", "regressions", "differential")
    open_dir = os.path.join(SRCDIR, "fuzz", "findings", "differential")
    fail = passed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(fixed)) if os.path.isdir(fixed) else []:
            res = judge(tmp, os.path.join(fixed, name))
            if res:
                fail += 1
                print("FAIL %s: %s\n  %s" % (name, res[0], res[1].decode("utf-8", "replace")[:400]))
            else:
                passed += 1
        still = 0
        for name in sorted(os.listdir(open_dir)) if os.path.isdir(open_dir) else []:
            if judge(tmp, os.path.join(open_dir, name)):
                still += 1
            else:
                print("NOTE %s: sysdesc and MLIR agree now: move it to fuzz/regressions/differential/"
                      % name)
    if passed + fail == 0:
        print("FAIL: no inputs under fuzz/regressions/differential/")
        return 1
    print("%d passed, %d failed; %d open findings still disagree" % (passed, fail, still))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
