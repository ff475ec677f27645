#!/usr/bin/env python3
"""The vendor runtimes of a host probe, whole processes, medians
of wall time over alternating repeats:

  cold: `sysdesc probe --no-cache` asking every runtime installed, beside
        `clinfo` and `vulkaninfo --summary` run back to back (what a person
        would run to see the same devices);
  warm: `sysdesc query --host DEVICE KEY` answered from the cache, beside
        `sysdesc query FILE DEVICE KEY` on the spec written once.

DEVICE KEY is GPU0 num_compute_units when a GPU is there, else the CPU's
OpenCL view (CPU runtimes opencl max_work_group_size).  The cache lives in a
temporary XDG_CACHE_HOME; vulkaninfo gets a temporary XDG_RUNTIME_DIR.

    python3 bench/runtimes_bench.py BUILD_DIR [RUNS]
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def median_ms(cmds, runs, env):
    """{name: median ms} of each command list, run alternately."""
    times = {name: [] for name in cmds}
    with open(os.devnull, "wb") as null:
        for name, seq in cmds.items():  # warm-up: page cache, loader, cache entry
            for c in seq:
                subprocess.run(c, stdout=null, stderr=null, env=env)
        for _ in range(runs):
            for name, seq in cmds.items():
                t0 = time.perf_counter()
                for c in seq:
                    subprocess.run(c, stdout=null, stderr=null, env=env, check=False)
                times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(t) * 1e3 for name, t in times.items()}


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    cli = os.path.join(build, "cli", "sysdesc")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"),
                   XDG_RUNTIME_DIR=os.path.join(tmp, "run"))
        os.mkdir(env["XDG_RUNTIME_DIR"], 0o700)
        spec = os.path.join(tmp, "host.mlir")
        subprocess.run([cli, "probe", "-q", "-o", spec], check=True, env=env)
        q = subprocess.run([cli, "query", spec, "GPU0", "num_compute_units"],
                           capture_output=True, env=env)
        key = (["GPU0", "num_compute_units"] if q.returncode == 0
               else ["CPU", "runtimes", "opencl", "max_work_group_size"])
        tools = [c for c in (["clinfo"], ["vulkaninfo", "--summary"]) if shutil.which(c[0])]
        cold = median_ms({
            "clinfo + vulkaninfo --summary": tools,
            "sysdesc probe --no-cache (all runtimes)": [[cli, "probe", "-q", "--no-cache"]],
        }, runs, env)
        warm = median_ms({
            "sysdesc query FILE " + " ".join(key): [[cli, "query", spec] + key],
            "sysdesc query --host (cached) " + " ".join(key): [[cli, "query", "--host", "-q"] + key],
        }, runs, env)
    print("medians of %d alternating runs, wall time" % runs)
    for title, res in (("cold", cold), ("warm", warm)):
        base = None
        for name, ms in res.items():
            ratio = "  %.2fx" % (ms / base) if base else ""
            print("%-5s %-62s %9.1f ms%s" % (title, name, ms, ratio))
            base = base or ms
    if not tools:
        print("(clinfo and vulkaninfo not found: the cold baseline ran nothing)")


if __name__ == "__main__":
    main()
