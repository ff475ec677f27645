#!/usr/bin/env python3
"""sysdesc measure --quick: it runs; its output (MLIR, and YAML/JSON through
the same printer) passes `sysdesc check` and `mlir-opt-22`; every measured
value is positive and the levels are ordered as physics says (L1 bandwidth
>= memory bandwidth, L1 latency < memory latency); the provenance is there;
each value is the median of its samples, with its best, spread and count at
the same path under best, spread and samples (best >= median for a rate, <=
for a latency; spread >= |best - median| / median; the fewest counts =
repeats); each cache level's effective capacity lies on the run's own latency
sweep where the curve steps above twice the level's latency, its flag says
whether the step lies under half the probed size, its working sets sit
inside it, and a cache claimed far larger than any the sweep finds is
flagged;
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
    for k in ("method", "date", "sysdesc_version", "mode", "kernel_isa", "statistic"):
        check(isinstance(m.get(k), str) and m.get(k), f"measured.{k} missing")
    v = run("--version").stdout.split()[-1]
    check(m.get("sysdesc_version") == v, f"sysdesc_version {m.get('sysdesc_version')} != {v}")
    check(m.get("mode") == "quick", "mode is not quick")
    check(m.get("statistic") == "median" and "median" in m.get("method", ""),
          f"statistic {m.get('statistic')!r}: the values are not said to be medians")
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
    skipped = m.get("skipped", {})
    keys = ("read_bandwidth_in_bytes_per_second", "triad_bandwidth_in_bytes_per_second",
            "read_bandwidth_single_thread_in_bytes_per_second",
            "triad_bandwidth_single_thread_in_bytes_per_second", "latency_in_ns",
            "working_set_in_bytes")
    single = keys[2:5]  # left out where the bound leaves out a level's single-thread runs
    for name, level in lv.items():
        if name in skipped:  # a cache that keeps nothing of its own: its capacity only
            check(not any(k in level for k in keys), f"levels.{name}: skipped yet measured")
            continue
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

    # Each value's statistics: the median, with its best, spread and count
    # at the same path under best, spread and samples.
    STAT_TREES = ("best", "spread", "samples")

    def values(tree, path=()):
        """(path, number) of every measured value: the twins' shape."""
        for k, v in tree.items():
            if k in STAT_TREES + ("latency_sweep", "skipped", "cpus") or isinstance(v, str):
                continue
            if isinstance(v, dict):
                yield from values(v, path + (k,))
            elif isinstance(v, (int, float)) and not isinstance(v, bool) and (
                    k.endswith("_per_second") or k in ("latency_in_ns", "frequency_mhz",
                                                       "fp64_vector", "fp32_vector")):
                yield path + (k,), v

    def at(tree, path):
        for k in path:
            tree = tree.get(k, {}) if isinstance(tree, dict) else {}
        return tree

    seen = []
    for path, median in values(m):
        dotted = ".".join(path)
        best, spread, n = (at(m.get(t, {}), path) for t in STAT_TREES)
        if not all(isinstance(x, (int, float)) for x in (best, spread, n)):
            check(False, f"{dotted}: best/spread/samples missing: {best} {spread} {n}")
            continue
        seen.append(n)
        latency = path[-1] == "latency_in_ns"
        check(best <= median if latency else best >= median,
              f"{dotted}: best {best} is not at least as good as the median {median}")
        check(spread >= 0 and spread * median >= abs(best - median) * (1 - 1e-9) - 1,
              f"{dotted}: spread {spread} below |best - median| / median ({best}, {median})")
        check(n >= 3, f"{dotted}: {n} samples, fewer than 3")
    check(len(seen) >= 10, f"only {len(seen)} measured values found")
    check(seen and m.get("repeats") == min(seen),
          f"repeats {m.get('repeats')} is not the fewest samples {min(seen) if seen else None}")

    # Effective capacities, against the run's own latency sweep: each lies
    # on it, where the curve steps above twice the level's own latency (two
    # points in a row: the lowest latency of the level's stretch of the
    # curve is at most its own), or at its end (no step within the sweep);
    # the flag is whether the step lies under half the probed size; each
    # level's working sets sit inside its capacity and above the one below.
    def capacities(mm, cache):
        sweep = mm.get("latency_sweep", {})
        ws = sweep.get("working_sets_in_bytes", [])
        ns = [x / 1000 for x in sweep.get("latencies_in_ps", [])]
        check(len(ws) == len(ns) and len(ws) >= 8 and ws == sorted(set(ws)),
              f"latency sweep: {len(ws)} working sets, {len(ns)} latencies, not growing")
        if len(ws) != len(ns) or not ws:
            return {}
        found, below_e, below_c = {}, 0, 0
        for name in ("L1", "L2", "L3", "L4"):
            level = mm.get("levels", {}).get(name)
            if level is None or "effective_capacity_in_bytes" not in level:
                continue
            e = level["effective_capacity_in_bytes"]
            reported = cache.get(name, {}).get("size_in_bytes", 0)
            flag = level.get("effective_capacity_below_reported")
            found[name] = (e, flag)
            if name in mm.get("skipped", {}):  # keeps nothing of its own: the level below's
                check(e == below_e and flag == (e <= reported // 2),
                      f"{name}: keeps nothing, yet capacity {e} (below: {below_e}), flag {flag}")
                continue
            check(e in ws, f"{name}: effective capacity {e} is none of the sweep's working sets")
            if e not in ws:
                continue
            i = ws.index(e)
            stretch = [ns[j] for j in range(len(ws)) if below_e < ws[j] <= e]
            if i + 1 < len(ws):
                past = ns[i + 1:i + 3]
                check(stretch and all(x > 2 * min(stretch) for x in past),
                      f"{name}: the curve past {e} bytes ({past} ns) is not above twice the "
                      f"level's lowest latency ({min(stretch) if stretch else None} ns)")
                check(flag == (ws[i + 1] <= reported // 2),
                      f"{name}: flag {flag}, step at {ws[i + 1]} bytes, probed size {reported}")
            else:
                check(flag is False, f"{name}: no step within the sweep, yet flagged")
            inside = min(e, reported)
            one = level.get("working_set_in_bytes", 0)
            check(below_c < one <= inside,
                  f"{name}: working set {one} not inside ({below_c}, {inside}]")
            below_e, below_c = e, inside
        return found

    cpu = json.loads(j.stdout)["CPU"] if j.returncode == 0 else {}
    found = capacities(m, cpu.get("cache", {}))
    check("L1" in found, f"no effective capacity of L1: {found}")

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
    # A level the user says is larger than any cache the sweep finds (a
    # 200 MiB L3; the quick sweep ends at its 64 MiB bound): flagged where
    # the sweep finds its step, its working sets inside what it delivers;
    # where it finds none, the capacity is the bound's, said.
    mo, err = measured("--set", "CPU.cache.L3.size_in_bytes=209715200", env=odd)
    l3 = mo.get("levels", {}).get("L3", {})
    r = run("probe", "--no-io", "--format", "json", env=odd)  # the odd VM's L1 and L2
    check(r.returncode == 0, f"probe of the odd VM: exit {r.returncode}: {r.stderr[-300:]}")
    odd_cache = json.loads(r.stdout)["CPU"]["cache"] if r.returncode == 0 else {}
    odd_cache["L3"] = {"size_in_bytes": 209715200}
    capacities(mo, odd_cache)
    sweep_end = mo.get("latency_sweep", {}).get("working_sets_in_bytes", [0])[-1]
    if l3.get("effective_capacity_in_bytes", sweep_end) < sweep_end:
        check(l3.get("effective_capacity_below_reported") is True,
              f"L3 claimed 200 MiB, found {l3.get('effective_capacity_in_bytes')}: not flagged")
        check(l3.get("working_set_in_bytes", QUICK_BOUND) < l3["effective_capacity_in_bytes"],
              f"L3 claimed 200 MiB: working set not inside the effective capacity: {l3}")
    else:
        print(f"NOTE: the quick sweep (to {sweep_end} bytes) found no step of this host's "
              "last cache: the 200 MiB L3's flag is not exercised here")
        check("sweep ended" in l3.get("bounded", "") and
              l3.get("working_set_in_bytes", QUICK_BOUND + 1) <= QUICK_BOUND,
              f"L3 of 200 MiB without a step: said in bounded, within the bound: {l3}")
    check("bound" in mo.get("skipped", {}).get("memory", "") and "memory not measured" in err,
          f"L3 of 200 MiB: memory cannot exceed it within the quick bound: {mo.get('skipped')}")
    check("memory_bandwidth_in_bytes_per_second" not in mo,
          "memory skipped, yet a memory bandwidth is given")

    # A tiny level (schema-valid: 64 bytes, a page): its working set is below
    # what the kernels hold, so it is left out with that reason and the
    # levels above it measured ("out of memory for the latency chain", exit 3,
    # before; 4096 measured 8192 bytes as if they were 2048).
    for tiny in (64, 4096):
        mo, err = measured("--set", "CPU.cache.L1.size_in_bytes=%d" % tiny)
        why = mo.get("skipped", {}).get("L1", "")
        check("below the 8192 bytes the kernels hold a thread" in why and
              "L1 not measured" in err and
              "latency_in_ns" not in mo.get("levels", {}).get("L1", {}) and
              "latency_in_ns" in mo.get("levels", {}).get("L2", {}),
              f"--set L1={tiny}: L1 left out with its reason, L2 measured: {mo.get('skipped')} "
              f"{sorted(mo.get('levels', {}))}")

    # A level that holds the kernels' 8192 bytes but whose half does not
    # (12 KiB): measured at the kernels' least, inside its size, whatever
    # step the sweep finds (half of a noisy early step left L1 out before).
    mo, err = measured("--set", "CPU.cache.L1.size_in_bytes=12288")
    l1 = mo.get("levels", {}).get("L1", {})
    check("L1" not in mo.get("skipped", {}) and "latency_in_ns" in l1 and
          8192 <= l1.get("working_set_in_bytes", 0) <= 12288,
          f"--set L1=12288: L1 measured inside its size: {mo.get('skipped')} {l1}")

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
