#!/usr/bin/env python3
"""The Python module's speed (docs/benchmarks.md, "Python"): one run,
timeit, the median of REPEAT repeats, nanoseconds per call.

  lookups   spec["CPU"]["cache"]["L1"]["size_in_bytes"], spec.query(...),
            a precompiled spec.path(...)(), against the same 4-deep lookup
            in a plain nested dict (spec.to_dict()'s); then L1 and L2 in
            turn, which defeats the answer each node keeps.
  loading   sysdesc.host() as an autotuner calls it again (the answer kept
            for the process, as by default), host(runtimes=False,
            cache=False) (a probe: hwloc and the CPU sources), and
            sysdesc.load() of the same spec from a file (MLIR and YAML).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py [--repeat 15]
"""

import argparse
import os
import statistics
import sys
import tempfile
import timeit
import warnings

import sysdesc


def median_ns(stmt, number, repeat, glb):
    times = timeit.repeat(stmt, number=number, repeat=repeat, globals=glb)
    return statistics.median(times) / number * 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--number", type=int, default=200_000)
    args = ap.parse_args()
    warnings.simplefilter("ignore", sysdesc.ProbeWarning)

    spec = sysdesc.host()
    plain = {dev: spec[dev].to_dict() for dev in spec}
    path = spec.path("CPU", "cache", "L1", "size_in_bytes")
    glb = {"spec": spec, "plain": plain, "path": path}
    assert plain["CPU"]["cache"]["L1"]["size_in_bytes"] == path() == spec.query(
        "CPU", "cache", "L1", "size_in_bytes")

    print(f"python {sys.version.split()[0]}, sysdesc {sysdesc.__version__}; "
          f"median of {args.repeat} repeats; input: this host's spec "
          f"({len(spec['CPU'])} CPU keys)")
    rows = [
        ("dict  plain['CPU']['cache']['L1']['size_in_bytes']",
         'plain["CPU"]["cache"]["L1"]["size_in_bytes"]'),
        ("spec  spec['CPU']['cache']['L1']['size_in_bytes']",
         'spec["CPU"]["cache"]["L1"]["size_in_bytes"]'),
        ("query spec.query('CPU', 'cache', 'L1', 'size_in_bytes')",
         'spec.query("CPU", "cache", "L1", "size_in_bytes")'),
        ("path  path()  (spec.path(...) precompiled)", "path()"),
    ]
    base = None
    for label, stmt in rows:
        ns = median_ns(stmt, args.number, args.repeat, glb)
        base = base or ns
        print(f"  {label:60s} {ns:8.1f} ns  {ns / base:5.2f}x dict")
    # A node keeps its last answer (the same key object again: no lookup);
    # asking L1 and L2 in turn makes every step below "cache" a lookup and
    # the L1/L2 maps new objects: the cost of a first access.
    rows = [
        ("dict  plain[...]['L1'][...] then ['L2'][...]",
         'plain["CPU"]["cache"]["L1"]["size_in_bytes"]; '
         'plain["CPU"]["cache"]["L2"]["size_in_bytes"]'),
        ("spec  spec[...]['L1'][...] then ['L2'][...]  (kept answers defeated)",
         'spec["CPU"]["cache"]["L1"]["size_in_bytes"]; '
         'spec["CPU"]["cache"]["L2"]["size_in_bytes"]'),
    ]
    base = None
    for label, stmt in rows:
        ns = median_ns(stmt, args.number, args.repeat, glb) / 2
        base = base or ns
        print(f"  {label:60s} {ns:8.1f} ns  {ns / base:5.2f}x dict  (per lookup chain)")

    with tempfile.TemporaryDirectory() as d:
        mlir, yaml = os.path.join(d, "host.mlir"), os.path.join(d, "host.yaml")
        open(mlir, "w").write(spec.to_mlir())
        open(yaml, "w").write(spec.to_yaml())
        n = 50
        rows = [
            ("sysdesc.load(host.mlir)", lambda: sysdesc.load(mlir)),
            ("sysdesc.load(host.yaml)", lambda: sysdesc.load(yaml)),
            ("sysdesc.host()  (the answer kept for the process)", lambda: sysdesc.host()),
            ("sysdesc.host(runtimes=False, cache=False)  (a probe)",
             lambda: sysdesc.host(runtimes=False, cache=False)),
        ]
        base = None
        for label, fn in rows:
            us = statistics.median(timeit.repeat(fn, number=n, repeat=args.repeat)) / n * 1e6
            base = base or us
            print(f"  {label:60s} {us:8.1f} us  {us / base:5.2f}x load(mlir)")


if __name__ == "__main__":
    main()
