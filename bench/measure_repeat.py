#!/usr/bin/env python3
"""sysdesc measure, run N times one after the other: how far a value moves
from run to run, against how far its samples move within a run.

For each value (memory bandwidth; each cache level's triad bandwidth and
latency; memory latency; peak fp64; the clock) it prints, over the runs:
the median of the runs' values (each run's value is the median of its
samples), the best sample of all runs, the spread of the runs' values
((max - min) / median), the range of each run's own spread (its samples'
(max - min) / median), and the range of the runs' best samples (what a
measurement stored before medians: one lucky sample each).  Then each run's
effective capacities (docs/measure.md, "Effective capacity") with their
flags, and each run's duration.

Nothing else should run meanwhile: the runs measure the machine.

usage: measure_repeat.py [--runs N] [--mode quick|default|full] [--sysdesc PATH]
                         [--json FILE]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

# (label, path in the measured map, unit divisor, unit, a latency: lower is better)
VALUES = [
    ("memory triad bandwidth", ("memory_bandwidth_in_bytes_per_second",), 1e9, "GB/s", False),
    ("L1 triad bandwidth", ("levels", "L1", "triad_bandwidth_in_bytes_per_second"), 1e9, "GB/s",
     False),
    ("L2 triad bandwidth", ("levels", "L2", "triad_bandwidth_in_bytes_per_second"), 1e9, "GB/s",
     False),
    ("L3 triad bandwidth", ("levels", "L3", "triad_bandwidth_in_bytes_per_second"), 1e9, "GB/s",
     False),
    ("L1 latency", ("levels", "L1", "latency_in_ns"), 1, "ns", True),
    ("L2 latency", ("levels", "L2", "latency_in_ns"), 1, "ns", True),
    ("L3 latency", ("levels", "L3", "latency_in_ns"), 1, "ns", True),
    ("memory latency", ("levels", "memory", "latency_in_ns"), 1, "ns", True),
    ("peak fp64, all threads", ("peak_ops_per_second", "fp64_vector"), 1e9, "GFLOP/s", False),
    ("clock", ("frequency_mhz",), 1, "MHz", False),
]


def at(tree, path):
    for k in path:
        if not isinstance(tree, dict) or k not in tree:
            return None
        tree = tree[k]
    return tree


def run_measure(sysdesc, mode):
    args = [sysdesc, "measure", "-q", "--format", "json"]
    if mode != "default":
        args.append("--" + mode)
    t0 = time.monotonic()
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    if r.returncode != 0:
        sys.exit(f"measure_repeat: {' '.join(args)}: exit {r.returncode}: {r.stderr}")
    cpu = json.loads(r.stdout)["CPU"]
    return cpu, wall


def fmt(x, div):
    v = x / div
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def spread(xs):
    med = statistics.median(xs)
    return (max(xs) - min(xs)) / med if med else float("nan")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--mode", default="default", choices=["quick", "default", "full"])
    ap.add_argument("--sysdesc", default=os.path.join(here, "..", "build", "cli", "sysdesc"))
    ap.add_argument("--json", help="write every run's CPU device here")
    a = ap.parse_args()

    runs = []
    for i in range(a.runs):
        cpu, wall = run_measure(a.sysdesc, a.mode)
        runs.append({"cpu": cpu, "wall": wall, "load": os.getloadavg()[0]})
        print(f"run {i + 1}/{a.runs}: {wall:.2f} s, load average {runs[-1]['load']:.1f}",
              file=sys.stderr, flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(runs, f, indent=1)

    ms = [r["cpu"]["measured"] for r in runs]
    first = ms[0]
    print(f"{a.runs} runs of `sysdesc measure{'' if a.mode == 'default' else ' --' + a.mode}`, "
          f"one after the other ({first.get('kernel_isa')}, {first.get('num_threads')} threads; "
          f"each value the {first.get('statistic', 'best')} of its samples, at least "
          f"{min(m.get('repeats', 0) for m in ms)})\n")
    print("| value | median of the runs | best sample of all runs | spread of the runs "
          "| each run's own spread | the runs' best samples (min-max) |")
    print("|---|---|---|---|---|---|")
    for label, path, div, unit, lower in VALUES:
        vals = [at(m, path) for m in ms]
        bests = [at(m.get("best", {}), path) for m in ms]
        own = [at(m.get("spread", {}), path) for m in ms]
        if any(v is None for v in vals):
            print(f"| {label} | not in every run | | | | |")
            continue
        best_all = min(bests) if lower else max(bests)
        own_txt = (f"{min(own):.2f}-{max(own):.2f}" if all(o is not None for o in own) else "-")
        print(f"| {label} ({unit}) | {fmt(statistics.median(vals), div)} | {fmt(best_all, div)} "
              f"| {spread(vals):.2f} ({fmt(min(vals), div)}-{fmt(max(vals), div)}) "
              f"| {own_txt} | {fmt(min(bests), div)}-{fmt(max(bests), div)} |")

    cache = runs[0]["cpu"].get("cache", {})
    names = [n for n in ("L1", "L2", "L3", "L4") if n in first.get("levels", {})]
    print("\n| run | " + " | ".join(
        f"{n} effective capacity (of {cache.get(n, {}).get('size_in_bytes', '?')} B)"
        for n in names) + " | duration |")
    print("|---|" + "---|" * (len(names) + 1))
    for i, (r, m) in enumerate(zip(runs, ms)):
        cells = []
        for n in names:
            lv = m["levels"].get(n, {})
            e = lv.get("effective_capacity_in_bytes")
            flag = " (below half: flagged)" if lv.get("effective_capacity_below_reported") else ""
            cells.append(f"{e / 1024:.0f} KiB{flag}" if e else "-")
        print(f"| {i + 1} | " + " | ".join(cells) +
              f" | {m.get('duration_in_seconds', 0):.2f} s (wall {r['wall']:.2f} s) |")
    for n in names:
        es = [m["levels"][n].get("effective_capacity_in_bytes") for m in ms
              if m["levels"].get(n, {}).get("effective_capacity_in_bytes")]
        if es:
            print(f"\n{n}: effective capacity median {statistics.median(es) / 1024:.0f} KiB, "
                  f"{min(es) / 1024:.0f}-{max(es) / 1024:.0f} KiB over {len(es)} runs", end="")
    print(f"\n\nload average after the runs: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
