#!/usr/bin/env python3
"""Every reader under a range of tiny memory budgets (docs/reliability.md,
"A failure always carries its error"): YAML (values of every kind, aliases,
base: chains, a data layout), MLIR, override files, attach's module, compose
items, hwloc XML, through every command that reads them, each under
SYSDESC_MAX_MEMORY from 4 KiB to 1 MiB.

Each run must end (no hang), exit 0 with output and no error, or exit 1-3
with a sane message: one FILE:LINE:COL: error: line or more, printable,
never the text of an error that was never set, never a crash, never "out of
memory" (the budget refused: the error names it, issue 35).  And the sweep
must reach the budget: each command says "memory budget" at least once, so
that the budget is what the sweep tests.

Environment: SYSDESC (the tool), SRCDIR (the source tree)."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["SRCDIR"], "tests"))
from timebound import limit  # noqa: E402

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
T = tempfile.mkdtemp(prefix="sysdesc-budget-")
# an error that was never set: no text (and the old safety net's words)
UNSET = "failed without giving a reason"
BUDGETS = ["4K", "8K", "16K", "24K", "32K", "48K", "64K", "96K", "128K", "192K", "256K",
           "384K", "512K", "1M"]
# Under a sanitizer every other budget (each run costs 10x there; the
# unsanitized pass sweeps them all): a failure at each order of size is
# still met.
if os.environ.get("SYSDESC_TEST_SANITIZE", "none") != "none":
    BUDGETS = BUDGETS[::2]


def write(name, text):
    path = os.path.join(T, name)
    with open(path, "w") as f:
        f.write(text)
    return path


n = 1000
yaml = {
    "ints": "CPU:\n  device_type: CPU\n  extra:\n" + "".join("    k%d: %d\n" % (i, i) for i in range(n)),
    "intkeys": "CPU:\n  device_type: CPU\n  extra:\n" + "".join("    %d: %d\n" % (i, i) for i in range(n)),
    "bools": "CPU:\n  device_type: CPU\n  extra:\n" + "".join("    k%d: true\n" % i for i in range(n)),
    "floats": "CPU:\n  device_type: CPU\n  extra:\n" + "".join("    k%d: %d.5\n" % (i, i) for i in range(n)),
    "strings": "CPU:\n  device_type: CPU\n  extra:\n" + "".join('    k%d: "s%d"\n' % (i, i) for i in range(n)),
    "tags": "CPU:\n  device_type: CPU\n  extra:\n" + "".join(
        "    k%d: !i32 %d\n    t%d: !type i%d\n    m%d: !mlir '%d : i16'\n    d%d: !array:i8 [1, 2]\n"
        % (i, i, i, i + 1, i, i, i) for i in range(n // 4)),
    "nested": "CPU:\n  device_type: CPU\n  extra:\n" + "".join(
        "    k%d: {a: [%d, %d], b: {c: x}}\n" % (i, i, i) for i in range(n // 2)),
    "alias": "A: &x\n  device_type: GPU\n  v: 1\n" + "".join("D%d: *x\n" % i for i in range(n // 4)),
    "layout": "data_layout:\n" + "".join("  !i%d : !array:i64 [%d]\n" % (i + 1, 8 * (i % 8 + 1))
                                         for i in range(n // 4)) + "CPU:\n  device_type: CPU\n",
    "devices": "".join("G%d:\n  device_type: GPU\n  num_compute_units: %d\n" % (i, i + 1)
                       for i in range(n // 4)),
}
write("parent.yaml", "CPU:\n  device_type: CPU\n  vendor: V\n  extra:\n" +
      "".join("    p%d: %d\n" % (i, i) for i in range(200)))
yaml["base"] = "CPU:\n  base: ./parent.yaml\n  extra:\n" + "".join("    k%d: %d\n" % (i, i) for i in range(200))
yaml["catalog"] = "GPU:\n  base: nvidia/h100-sxm\n  model: x\n"
files = {k: write(k + ".yaml", v) for k, v in yaml.items()}
files["mlir"] = write("spec.mlir", "module attributes {dlti.target_system_spec = #dlti.target_system_spec<"
                      '"CPU" = #dlti.target_device_spec<"device_type" = "CPU", "extra" = #dlti.map<'
                      + ", ".join('"k%d" = %d' % (i, i) for i in range(n)) + ">>>} {}\n")
module = write("in.mlir", "module {\n" + "".join('  func.func @f%d() { return }\n' % i for i in range(200)) + "}\n")
# a count makes its ids after the load, in the composition's own builder
one = write("one.yaml", "CPU:\n  device_type: CPU\n")
override = write("override.yaml", "CPU:\n  cache:\n    L1:\n      size_in_bytes: 4096\n")
xml = os.path.join(SRCDIR, "tests", "data", "xml", "gpu_server.xml")

runs = []  # (label, argv)
for k, f in files.items():
    runs += [(k + " convert", ["convert", "--to", "mlir", f]),
             (k + " query", ["query", f, "CPU"]),
             (k + " summary", ["summary", f]),
             (k + " check", ["check", f]),
             (k + " attach", ["attach", f, module]),
             (k + " compose", ["compose", f])]
runs += [("mlir fmt", ["fmt", files["mlir"]]),
         ("mlir layout", ["layout", files["mlir"], "i32"]),
         ("attach module", ["attach", files["ints"], module]),
         ("show", ["show", "nvidia/h100-sxm"]),
         ("counted compose", ["compose", one + ":20000"]),
         ("override", ["probe", "--xml", xml, "-q", "--override", override]),
         ("probe --xml", ["probe", "--xml", xml, "-q"]),
         ("probe cluster", ["probe", "--xml", xml, "--xml", os.path.join(SRCDIR, "tests", "data", "xml", "gpu.xml"), "-q"])]

failures = 0
reached = {}
bound = limit(30)
env = dict(os.environ, SYSDESC_PATH=os.path.join(SRCDIR, "systems"))
for label, argv in runs:
    command = label.split()[-1]
    for b in BUDGETS:
        what = "%s, SYSDESC_MAX_MEMORY=%s" % (label, b)
        try:
            r = subprocess.run([SYSDESC] + argv, capture_output=True, env=dict(env, SYSDESC_MAX_MEMORY=b),
                               timeout=bound)
        except subprocess.TimeoutExpired:
            print("FAIL: %s: still running after %ds" % (what, bound))
            failures += 1
            continue
        err = r.stderr.decode("utf-8", "replace")
        problem = None
        if r.returncode < 0 or r.returncode > 3:
            problem = "exit %d (a crash)" % r.returncode
        elif any(c < 0x20 and c not in (9, 10) or c == 0x7f for c in r.stderr):
            problem = "control bytes in its message"
        elif UNSET in err or any(line.rstrip().endswith("error:") for line in err.splitlines()):
            problem = "an error that was never set"
        elif "out of memory" in err:
            # no malloc fails here: the budget refused, and the error must say so
            problem = "'out of memory' where the budget refused"
        elif r.returncode == 0 and ("error:" in err or not r.stdout):
            problem = "exit 0 after a failure"
        elif r.returncode != 0 and (": error: " not in err and not err.startswith("error: ")
                                    and "sysdesc: error:" not in err):
            problem = "exit %d without an error line" % r.returncode
        if problem:
            failures += 1
            print("FAIL: %s: %s: %s" % (what, problem, err.strip()[:200]))
        if "memory budget of" in err:
            reached[command] = reached.get(command, 0) + 1

for label, argv in runs:
    command = label.split()[-1]
    # a catalog entry fits the context's first block of memory, whatever the budget
    if not reached.get(command) and command != "show":
        failures += 1
        print("FAIL: %s never reached the memory budget: the sweep does not test it" % command)
print("%d runs, %d failed; budget reached per command: %s" % (
    len(runs) * len(BUDGETS), failures, ", ".join("%s %d" % kv for kv in sorted(reached.items()))))
sys.exit(1 if failures else 0)
