#!/usr/bin/env python3
"""The time `sysdesc measure` takes, in each mode, on this host and on
topologies given to hwloc, and what its bounds did (docs/measure.md,
"Bounds").

The topologies: this host as hwloc sees it; tests/data/xml/odd_vm.xml (a
VM whose hwloc reports a 508 MiB L3 for each of its 2 cores: the probe
marks it suspect); the same with the L3 corrected to 32 MiB by --set; and
the same with an L3 the user says is 200 MiB (above what --quick can
hold).  The kernels run on this machine in every case: the topology only
chooses the working sets.

Each case runs REPEATS times, alternating; the medians of the wall time and
of the CPU time (user + system, from wait4) are printed with what was
skipped or bounded.  On a shared machine read the CPU time: the wall time
of the all-thread runs grows with the other processes' load.

usage: measure_bound.py [--repeats N] [--modes quick,default] [--sysdesc PATH]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ODD_VM = os.path.join(HERE, "..", "tests", "data", "xml", "odd_vm.xml")
CASES = [
    ("this host", {}, []),
    ("odd VM (508 MiB L3 a core, suspect)", {"HWLOC_XMLFILE": ODD_VM, "HWLOC_THISSYSTEM": "1"}, []),
    ("odd VM, --set L3=32 MiB", {"HWLOC_XMLFILE": ODD_VM, "HWLOC_THISSYSTEM": "1"},
     ["--set", "CPU.cache.L3.size_in_bytes=33554432"]),
    ("odd VM, --set L3=200 MiB", {"HWLOC_XMLFILE": ODD_VM, "HWLOC_THISSYSTEM": "1"},
     ["--set", "CPU.cache.L3.size_in_bytes=209715200"]),
]


def run(sysdesc, mode, env, args):
    argv = [sysdesc, "measure", "-q", "--format", "json"] + args
    if mode != "default":
        argv.append("--" + mode)
    e = dict(os.environ)
    e.update(env)
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e)
    out, err = p.communicate()
    wall = time.monotonic() - t0
    return p.returncode, out, err, wall


def children_cpu():
    """CPU time of the waited-for children so far: its difference is a run's."""
    t = os.times()
    return t.children_user + t.children_system


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--modes", default="quick,default")
    ap.add_argument("--sysdesc", default=os.path.join(HERE, "..", "build", "cli", "sysdesc"))
    a = ap.parse_args()
    modes = a.modes.split(",")
    res = {(m, c[0]): {"wall": [], "cpu": [], "notes": ""} for m in modes for c in CASES}
    for _ in range(a.repeats):
        for m in modes:
            for name, env, args in CASES:
                before = children_cpu()
                rc, out, err, wall = run(a.sysdesc, m, env, args)
                cpu = children_cpu() - before
                if rc != 0:
                    sys.exit("measure failed (%s, %s): %s" % (m, name, err.decode()[-400:]))
                r = res[(m, name)]
                r["wall"].append(wall)
                r["cpu"].append(cpu)
                meas = json.loads(out)["CPU"]["measured"]
                notes = ["%s skipped" % k for k in meas.get("skipped", {})]
                notes += ["%s bounded (%s)" % (k, "single-thread runs left out"
                                               if "left out" in v["bounded"] else
                                               "no step within the bound"
                                               if "sweep ended" in v["bounded"] else "capped")
                          for k, v in meas["levels"].items() if "bounded" in v]
                # a cache that keeps far less than its size (docs/measure.md,
                # "Effective capacity"): where the latency sweep found its end
                notes += ["%s flagged (%d KiB)" % (k, v["effective_capacity_in_bytes"] >> 10)
                          for k, v in meas["levels"].items()
                          if v.get("effective_capacity_below_reported")]
                ws = max(v.get("working_set_in_bytes", 0) for v in meas["levels"].values())
                r["notes"] = "; ".join(notes) or "-"
                r["ws"] = ws
    print("sysdesc measure, %d repeats a case, medians (load average now %.1f on %d CPUs)"
          % (a.repeats, os.getloadavg()[0], len(os.sched_getaffinity(0))))
    print()
    print("| mode | topology | wall s | CPU s | largest working set | skipped / bounded |")
    print("|---|---|---:|---:|---:|---|")
    for m in modes:
        for name, _, _ in CASES:
            r = res[(m, name)]
            print("| %s | %s | %.2f | %.2f | %d MiB | %s |" % (
                m, name, statistics.median(r["wall"]), statistics.median(r["cpu"]),
                r["ws"] >> 20, r["notes"]))


if __name__ == "__main__":
    main()
