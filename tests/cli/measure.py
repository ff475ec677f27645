#!/usr/bin/env python3
"""sysdesc measure --quick: it runs; its output (MLIR, and YAML/JSON through
the same printer) passes `sysdesc check` and `mlir-opt-22`; every measured
value is positive and the levels are ordered as physics says (L1 bandwidth
>= memory bandwidth, L1 latency < memory latency); the provenance is there;
the bounds (docs/measure.md): every working set within the mode's bound, a
cache size the probe marks suspect not measured and said so, --set
correcting it first, a cache too large for the bound capped or left out
with the reason; a broken triad kernel (the SYSDESC_MEASURE_BREAK_TRIAD
hook) fails the run with the element it got wrong; bad arguments exit 2
with a message naming them; -o is atomic (an existing file survives a
failed run).
Environment: SYSDESC (the tool), SRCDIR."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["SRCDIR"], "tests"))
from topology import skip_if_foreign  # noqa: E402

SYSDESC = os.environ["SYSDESC"]
skip_if_foreign("measure: this machine's kernels")
ODD_VM = os.path.join(os.environ["SRCDIR"], "tests", "data", "xml", "odd_vm.xml")
QUICK_BOUND = 64 << 20  # bytes a thread a run may take with --quick (docs/measure.md)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([SYSDESC, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True, env=e, timeout=120)


tmp = tempfile.mkdtemp(prefix="sysdesc-measure.")
try:
    mlir = os.path.join(tmp, "m.mlir")
    r = run("measure", "--quick", "-o", mlir)
    check(r.returncode == 0, f"measure --quick: exit {r.returncode}: {r.stderr}")
    check("measure:" in r.stderr and "done" in r.stderr, "measure: no progress line on stderr")
    check(r.stdout == "", "measure -o: something on stdout")

    c = run("check", mlir)
    check(c.returncode == 0, f"sysdesc check of the output: {c.stdout}{c.stderr}")
    opt = shutil.which("mlir-opt-22")
    if opt:
        o = subprocess.run([opt, mlir], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        check(o.returncode == 0, f"mlir-opt-22 rejects the output: {o.stderr[:400]}")
    else:
        print("SKIP: mlir-opt-22 not found")

    j = run("convert", "--to", "json", mlir)
    check(j.returncode == 0, f"convert --to json: {j.stderr}")
    m = json.loads(j.stdout)["CPU"]["measured"] if j.returncode == 0 else {}

    # Provenance.
    for k in ("method", "date", "sysdesc_version", "mode", "kernel_isa"):
        check(isinstance(m.get(k), str) and m.get(k), f"measured.{k} missing")
    v = run("--version").stdout.split()[-1]
    check(m.get("sysdesc_version") == v, f"sysdesc_version {m.get('sysdesc_version')} != {v}")
    check(m.get("mode") == "quick", "mode is not quick")
    allowed = len(os.sched_getaffinity(0))
    check(m.get("num_threads") == allowed, f"num_threads {m.get('num_threads')} != {allowed}")
    check(sorted(m.get("cpus", [])) == sorted(os.sched_getaffinity(0)), "cpus != the allowed set")

    # Positive values.
    for t in ("fp64_vector", "fp32_vector"):
        for p in ("peak_ops_per_second", "peak_ops_per_second_single_thread"):
            check(m.get(p, {}).get(t, 0) > 0, f"{p}.{t} not positive")
    check(m.get("memory_bandwidth_in_bytes_per_second", 0) > 0, "memory bandwidth not positive")
    if "frequency_mhz" in m:
        check(100 <= m["frequency_mhz"] <= 10000, f"clock {m['frequency_mhz']} MHz implausible")
    lv = m.get("levels", {})
    check("L1" in lv and "memory" in lv, f"levels: {list(lv)}")
    keys = ("read_bandwidth_in_bytes_per_second", "triad_bandwidth_in_bytes_per_second",
            "read_bandwidth_single_thread_in_bytes_per_second",
            "triad_bandwidth_single_thread_in_bytes_per_second", "latency_in_ns",
            "working_set_in_bytes")
    single = keys[2:5]  # left out where the bound leaves out a level's single-thread runs
    for name, level in lv.items():
        for k in keys:
            if k in single + ("working_set_in_bytes",) and "single-thread runs left out" in \
                    level.get("bounded", ""):
                check(k not in level, f"levels.{name}.{k} given though its runs were left out")
                continue
            check(level.get(k, 0) > 0, f"levels.{name}.{k} not positive")
        for k in ("working_set_in_bytes", "working_set_per_thread_in_bytes"):
            check(level.get(k, 0) <= QUICK_BOUND,
                  f"levels.{name}.{k} {level.get(k)} above the quick bound {QUICK_BOUND}")
    check(m.get("memory_bandwidth_in_bytes_per_second") ==
          lv.get("memory", {}).get("triad_bandwidth_in_bytes_per_second"),
          "memory_bandwidth_in_bytes_per_second is not the memory triad")

    # Physics: L1 outruns memory (by far: the check has a margin of 1x for noise).
    if "L1" in lv and "memory" in lv:
        l1, mem = lv["L1"], lv["memory"]
        # (under a sanitizer every load of a kernel is checked, which bounds
        # L1 and memory alike: their bandwidths are not ordered there)
        for k in keys[:4] if os.environ.get("SYSDESC_TEST_SANITIZE", "none") == "none" else ():
            check(l1[k] >= mem[k], f"L1 {k} {l1[k]} < memory's {mem[k]}")
        check(l1["latency_in_ns"] < mem["latency_in_ns"],
              f"L1 latency {l1['latency_in_ns']} ns >= memory's {mem['latency_in_ns']} ns")
        check(l1["working_set_in_bytes"] < mem["working_set_in_bytes"], "working sets not ordered")

    # The bounds.  A host whose hwloc reports a 508 MiB L3 for one core (as
    # one VM of the project's kind did): the probe marks it suspect, and
    # measure leaves it out, says why on stderr and in `skipped`, and sizes
    # memory's working set without it.
    def measured(*args, env=None):
        r = run("measure", "--quick", "--format", "json", *args, env=env)
        ok = r.returncode == 0
        check(ok, f"measure {' '.join(args)}: exit {r.returncode}: {r.stderr[-400:]}")
        return (json.loads(r.stdout)["CPU"]["measured"] if ok else {}), r.stderr

    # The odd VM stands for this machine (HWLOC_THISSYSTEM=1): measure runs
    # here, sized by its caches.  Another machine's topology is refused.
    r = run("measure", "--quick", env={"HWLOC_XMLFILE": ODD_VM})
    check(r.returncode == 2 and "describes another machine" in r.stderr and
          "HWLOC_THISSYSTEM=1" in r.stderr,
          f"measure of another machine's topology refused: exit {r.returncode}: {r.stderr[-300:]}")
    odd = {"HWLOC_XMLFILE": ODD_VM, "HWLOC_THISSYSTEM": "1"}
    mo, err = measured(env=odd)
    check("L3" in mo.get("skipped", {}) and "suspect" in mo["skipped"]["L3"] and
          "--set CPU.cache.L3.size_in_bytes=" in mo["skipped"]["L3"],
          f"odd VM: the suspect L3 is skipped with its reason: {mo.get('skipped')}")
    check("L3" not in mo.get("levels", {}), "odd VM: the suspect L3 was measured")
    check("memory" in mo.get("levels", {}) and "L3 not measured: its size" in err,
          f"odd VM: memory measured, the skip said on stderr: {err[-300:]}")
    # --set corrects the level before measuring: then it is measured.
    mo, err = measured("--set", "CPU.cache.L3.size_in_bytes=33554432", env=odd)
    check("L3" in mo.get("levels", {}) and "skipped" not in mo,
          f"odd VM, --set L3=32 MiB: L3 measured, nothing skipped: {mo.get('skipped')}")
    # A level the user says is larger than the bound can hold: capped, or
    # left out where beyond it cannot fit; each said.
    mo, err = measured("--set", "CPU.cache.L3.size_in_bytes=209715200", env=odd)
    l3 = mo.get("levels", {}).get("L3", {})
    check(l3.get("working_set_in_bytes") == QUICK_BOUND and "capped" in l3.get("bounded", ""),
          f"L3 of 200 MiB: its working set capped at the bound, said: {l3}")
    check("bound" in mo.get("skipped", {}).get("memory", "") and "memory not measured" in err,
          f"L3 of 200 MiB: memory cannot exceed it within the quick bound: {mo.get('skipped')}")
    check("memory_bandwidth_in_bytes_per_second" not in mo,
          "memory skipped, yet a memory bandwidth is given")

    # Every format through the library's printer.
    for f in ("yaml", "json", "attr"):
        r = run("measure", "--quick", "-q", "--threads", "1", "--format", f)
        check(r.returncode == 0 and "measured" in r.stdout and r.stderr == "",
              f"measure --format {f}: exit {r.returncode} {r.stderr}")
    r = run("measure", "--quick", "-q", "--threads=1", "--format=json")
    if r.returncode == 0:
        mm = json.loads(r.stdout)["CPU"]["measured"]
        check(mm["num_threads"] == 1, "--threads 1: num_threads is not 1")

    # The triad's verification fails when the kernel is broken; -o keeps the old file.
    with open(mlir) as fh:
        before = fh.read()
    r = run("measure", "--quick", "-q", "-o", mlir, env={"SYSDESC_MEASURE_BREAK_TRIAD": "1"})
    check(r.returncode == 3, f"broken triad: exit {r.returncode}, expected 3")
    check("triad kernel: a[" in r.stderr and "expected" in r.stderr,
          f"broken triad: message does not name the element: {r.stderr}")
    with open(mlir) as fh:
        check(fh.read() == before, "broken triad: -o FILE was changed")

    # Bad arguments: exit 2, the argument named, nothing on stdout.
    for args, needle in ((["--threads", "0"], "--threads"), (["--threads", "x"], "--threads"),
                         (["--threads"], "--threads"), (["--quick", "--full"], "--full"),
                         (["--format", "xml"], "xml"), (["-o"], "-o"), (["--set"], "--set"),
                         (["--set", "CPU.cache.L9.size_in_bytes=1"], "L9"),

                         (["--frobnicate"], "--frobnicate"), (["extra"], "extra")):
        r = run("measure", *args)
        check(r.returncode == 2 and needle in r.stderr and r.stdout == "",
              f"measure {' '.join(args)}: exit {r.returncode}, stderr {r.stderr!r}")
    r = run("measure", "--quick", "-q", "--override", os.path.join(tmp, "none.yaml"))
    check(r.returncode == 3 and "none.yaml" in r.stderr and r.stdout == "",
          f"measure --override of a missing file: exit {r.returncode}: {r.stderr}")
    r = run("measure", "--quick", "-q", "-o", os.path.join(tmp, "no", "such", "dir", "x"))
    check(r.returncode == 3, f"-o into a missing directory: exit {r.returncode}")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{'FAIL' if failures else 'ok'}: measure.py, {len(failures)} failures")
sys.exit(1 if failures else 0)
