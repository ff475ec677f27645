#!/usr/bin/env python3
"""sysdesc measure --quick: it runs; its output (MLIR, and YAML/JSON through
the same printer) passes `sysdesc check` and `mlir-opt-22`; every measured
value is positive and the levels are ordered as physics says (L1 bandwidth
>= memory bandwidth, L1 latency < memory latency); the provenance is there;
a broken triad kernel (the SYSDESC_MEASURE_BREAK_TRIAD hook) fails the run
with the element it got wrong; bad arguments exit 2 with a message naming
them; -o is atomic (an existing file survives a failed run).
Environment: SYSDESC (the tool)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
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
    for name, level in lv.items():
        for k in keys:
            check(level.get(k, 0) > 0, f"levels.{name}.{k} not positive")
    check(m.get("memory_bandwidth_in_bytes_per_second") ==
          lv.get("memory", {}).get("triad_bandwidth_in_bytes_per_second"),
          "memory_bandwidth_in_bytes_per_second is not the memory triad")

    # Physics: L1 outruns memory (by far: the check has a margin of 1x for noise).
    if "L1" in lv and "memory" in lv:
        l1, mem = lv["L1"], lv["memory"]
        for k in keys[:4]:
            check(l1[k] >= mem[k], f"L1 {k} {l1[k]} < memory's {mem[k]}")
        check(l1["latency_in_ns"] < mem["latency_in_ns"],
              f"L1 latency {l1['latency_in_ns']} ns >= memory's {mem['latency_in_ns']} ns")
        check(l1["working_set_in_bytes"] < mem["working_set_in_bytes"], "working sets not ordered")

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
                         (["--format", "xml"], "xml"), (["-o"], "-o"),
                         (["--frobnicate"], "--frobnicate"), (["extra"], "extra")):
        r = run("measure", *args)
        check(r.returncode == 2 and needle in r.stderr and r.stdout == "",
              f"measure {' '.join(args)}: exit {r.returncode}, stderr {r.stderr!r}")
    r = run("measure", "--quick", "-q", "-o", os.path.join(tmp, "no", "such", "dir", "x"))
    check(r.returncode == 3, f"-o into a missing directory: exit {r.returncode}")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{'FAIL' if failures else 'ok'}: measure.py, {len(failures)} failures")
sys.exit(1 if failures else 0)
