#!/usr/bin/env python3
"""Measures sysdesc against mlir-opt-22 / mlir-translate-22 on the corpus of
tests/data/corpus/: this project's own copies, written anew, of the cases of
MLIR's newest DLTI, ptr and LLVM data layout tests, and of specs as MLIR's
users write them.  fuzz/upstream_agreement.py judges every chunk (and every
transform.dlti.query) with the tool its file's RUN line names.

Every chunk must agree except those tests/data/corpus/differences.txt lists
(`FILE:LINE` or `FILE:query [KEYS]`, then why; each documented in
docs/mlir-syntax.md, "Agreement with MLIR's own DLTI tests"); a listed one
that agrees now is a failure too, so that the list stays exact.  Prints the
agreement counts.  Exits 77 when the MLIR tools are missing.
"""
import os
import re
import shutil
import subprocess
import sys

SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SYSDESC = os.environ.get("SYSDESC", os.path.join(SRCDIR, "build", "cli", "sysdesc"))
CORPUS = os.path.join(SRCDIR, "tests", "data", "corpus")


def expected_differences():
    out = {}
    with open(os.path.join(CORPUS, "differences.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            where, _, why = line.partition(": ")
            out[where] = why
    return out


def measured_differences(report):
    """{FILE:LINE or FILE:query [KEYS]: the difference} from the script's report."""
    found, current = {}, None
    for line in report.splitlines():
        m = re.match(r"(\S+\.mlir)\s+\d+ of\s+\d+ chunks agree", line)
        if m:
            current = m.group(1)
            continue
        m = re.match(r"  DIFF line (\d+): (.*)$", line)
        if m:
            found["%s:%s" % (current, m.group(1))] = m.group(2)
            continue
        m = re.match(r"    DIFF query (\[.*?\]) at \S+: (.*)$", line)
        if m:
            found["%s:query %s" % (current, m.group(1))] = m.group(2)
    return found


def main():
    for tool in (os.environ.get("MLIR_OPT", "mlir-opt-22"),
                 os.environ.get("MLIR_TRANSLATE", "mlir-translate-22")):
        if not shutil.which(tool):
            print("SKIP: %s not found (apt-get install mlir-22-tools)" % tool)
            return 77
    r = subprocess.run([sys.executable, os.path.join(SRCDIR, "fuzz", "upstream_agreement.py"),
                        "--sysdesc", SYSDESC, CORPUS], capture_output=True, text=True)
    print(r.stdout, end="")
    total = re.search(r"^total\s+(\d+) of\s+(\d+) chunks agree; (\d+) of (\d+) queries", r.stdout, re.M)
    if r.returncode != 0 or not total or int(total.group(2)) == 0:
        print("FAIL: fuzz/upstream_agreement.py did not measure the corpus: %s" % r.stderr[-500:])
        return 1
    want, got = expected_differences(), measured_differences(r.stdout)
    fail = 0
    for where in sorted(set(got) - set(want)):
        print("FAIL %s: sysdesc and MLIR differ, and differences.txt does not say why: %s"
              % (where, got[where][:300]))
        fail += 1
    for where in sorted(set(want) - set(got)):
        print("FAIL %s: listed in differences.txt (%s) but agrees now: take it out"
              % (where, want[where]))
        fail += 1
    print("%s of %s chunks and %s of %s queries agree; %d documented differences; %d failures"
          % (total.group(1), total.group(2), total.group(3), total.group(4), len(want), fail))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
