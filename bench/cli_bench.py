#!/usr/bin/env python3
"""The whole `sysdesc convert --to mlir FILE` process beside a minimal
libyaml process on the same file (`sysdesc-yaml-bench --parse-file FILE`:
read the file, parse it with the bare event loop, exit), run alternately,
medians of wall time and of CPU time (user + system, the OS's accounting of
the finished child).  Both start a process and read the file from the page
cache; the convert also checks, prints and writes (to /dev/null).

    python3 bench/cli_bench.py BUILD_DIR [RUNS] [DEVICES] [--base NAME]

--base NAME: every device of the file also names `base: NAME` (a catalog
entry, e.g. nvidia/arch/sm_90): one base named 2,000 times.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    args = sys.argv[1:]
    base_name = None
    if "--base" in args:
        i = args.index("--base")
        base_name = args[i + 1]
        del args[i:i + 2]
    build = args[0] if len(args) > 0 else "build"
    runs = int(args[1]) if len(args) > 1 else 31
    devices = args[2] if len(args) > 2 else "2000"
    bench = os.path.join(build, "bench", "sysdesc-yaml-bench")
    cli = os.path.join(build, "cli", "sysdesc")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "system.yaml")
        subprocess.run([bench, devices, "--runs", "1", "--only", "none", "--write", path],
                       check=True, stdout=subprocess.DEVNULL)
        if base_name:
            with open(path) as f:
                lines = f.readlines()
            with open(path, "w") as f:
                for line in lines:
                    f.write(line)
                    if line[:1] not in (" ", "#", "\n") and line.rstrip().endswith(":"):
                        f.write("  base: %s\n" % base_name)
        cmds = {
            "libyaml process (read + event parse)": [bench, "--parse-file", path],
            "sysdesc convert --to mlir FILE >/dev/null": [cli, "convert", "--to", "mlir", path],
        }
        times = {name: [] for name in cmds}
        cpus = {name: [] for name in cmds}
        with open(os.devnull, "wb") as null:
            for name, cmd in cmds.items():  # warm-up: page cache, loader
                subprocess.run(cmd, check=True, stdout=null)
            for _ in range(runs):
                for name, cmd in cmds.items():
                    t0 = time.perf_counter()
                    child = subprocess.Popen(cmd, stdout=null)
                    _, status, usage = os.wait4(child.pid, 0)
                    times[name].append(time.perf_counter() - t0)
                    cpus[name].append(usage.ru_utime + usage.ru_stime)
                    child.returncode = os.waitstatus_to_exitcode(status)
                    if child.returncode:
                        raise SystemExit(f"{cmd}: exit {child.returncode}")
        size = os.path.getsize(path)
    print(f"input: {devices} devices{', each with base: ' + base_name if base_name else ''}, "
          f"{size} bytes; medians of {runs} alternating runs")
    base = None
    for name in cmds:
        m = statistics.median(times[name]) * 1e3
        c = statistics.median(cpus[name]) * 1e3
        ratio = f"  {m / base[0]:.2f}x wall, {c / base[1]:.2f}x cpu" if base else ""
        print(f"{name:44s} {m:8.2f} ms wall {c:8.2f} ms cpu{ratio}")
        base = base or (m, c)


if __name__ == "__main__":
    main()
