#!/usr/bin/env python3
"""sysdesc measure against references, in one run, repeated.

1. Triad bandwidth of memory: sysdesc measure's against bench/stream_ref (a
   plain STREAM-style triad compiled -O3 -march=native, OpenMP), with the
   same threads (one, and every allowed CPU, pinned: OMP_PROC_BIND=true) and
   the same total array size (measured.levels.memory.working_set_in_bytes).
2. Peak FMA rate: measured against cores x clock x FMA units x lanes x 2,
   with the clock sysdesc measure achieved in the same run and the FMA units
   per core from the vendor's optimisation guide (FMA_UNITS below).

Each repeat runs both; ratios are taken within a repeat and the medians over
the repeats are printed.  The host is shared: expect noise, read medians.
Ours is the best sample of each value (measured.best, beside the median
sysdesc stores), as STREAM's figure is its best of NTIMES and a theory's
peak is what no sample exceeds.

usage: measure_compare.py [--repeats N] [--mode quick|default|full]
                          [--stream-times N] [--sysdesc PATH] [--stream PATH]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

# FMA pipes per core and their width in bits, by (vendor, CPUID family,
# model range).  Sources:
#  - AMD family 1Ah (Zen 5): "Software Optimization Guide for the AMD Zen 5
#    Microarchitecture" (AMD pub. 58455), floating-point unit: four pipes,
#    two of them (FP0, FP1) FMA, full 512-bit datapath on server and
#    desktop parts.
#  - AMD family 19h models 10h-1Fh, 60h-7Fh, A0h-AFh (Zen 4): AMD pub. 57647:
#    two 256-bit FMA pipes; 512-bit instructions take both halves.
FMA_UNITS = [
    ("AuthenticAMD", 0x1A, range(0x00, 0x100), 2, 512, "Zen 5 (AMD pub. 58455)"),
    ("AuthenticAMD", 0x19, list(range(0x10, 0x20)) + list(range(0x60, 0x80)) +
     list(range(0xA0, 0xB0)), 2, 256, "Zen 4 (AMD pub. 57647)"),
]


def fma_units(cpu):
    for vendor, family, models, pipes, bits, src in FMA_UNITS:
        if (cpu.get("vendor") == vendor and cpu.get("cpu_family") == family and
                cpu.get("cpu_model_number") in models):
            return pipes, bits, src
    return None


def run_measure(sysdesc, mode):
    args = [sysdesc, "measure", "-q", "--format", "json"]
    if mode != "default":
        args.append("--" + mode)
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       check=True)
    return json.loads(r.stdout)["CPU"]


def best(m, *path):
    """The value's best sample (measured.best.<path>); the value itself in
    a map written before sysdesc stored medians (no `best`)."""
    tree = m.get("best", m)
    for k in path:
        tree = tree[k]
    return tree


def run_stream(stream, threads, elements, times):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_PROC_BIND="true")
    r = subprocess.run([stream, str(elements), str(times)], stdout=subprocess.PIPE, text=True,
                       env=env, check=True)
    fields = dict(f.split("=") for f in r.stdout.split())
    return float(fields["triad_best_bytes_per_second"])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--mode", default="default", choices=["quick", "default", "full"])
    # STREAM's NTIMES: 20 as STREAM; more gives its best-of as many chances
    # as sysdesc measure's samples on a loaded host (full: 41).
    ap.add_argument("--stream-times", type=int, default=20)
    ap.add_argument("--sysdesc", default=os.path.join(here, "..", "build", "cli", "sysdesc"))
    ap.add_argument("--stream", default=os.path.join(here, "..", "build", "bench", "stream_ref"))
    a = ap.parse_args()

    rows = []
    for i in range(a.repeats):
        cpu = run_measure(a.sysdesc, a.mode)
        m = cpu["measured"]
        mem = m["levels"]["memory"]
        threads = m["num_threads"]
        elements = mem["working_set_in_bytes"] // 24
        s_one = run_stream(a.stream, 1, elements, a.stream_times)
        s_all = run_stream(a.stream, threads, elements, a.stream_times)
        row = {
            "ours_1": best(m, "levels", "memory",
                           "triad_bandwidth_single_thread_in_bytes_per_second"),
            "ours_all": best(m, "levels", "memory", "triad_bandwidth_in_bytes_per_second"),
            "stream_1": s_one, "stream_all": s_all,
            "mhz": m.get("frequency_mhz"),
            "fp64_all": best(m, "peak_ops_per_second", "fp64_vector"),
            "fp32_all": best(m, "peak_ops_per_second", "fp32_vector"),
            "fp64_1": best(m, "peak_ops_per_second_single_thread", "fp64_vector"),
        }
        row["triad_ratio_1"] = row["ours_1"] / s_one
        row["triad_ratio_all"] = row["ours_all"] / s_all
        units = fma_units(cpu)
        if units and row["mhz"]:
            pipes, bits, src = units
            width = min(bits, m["vector_width_in_bits"])
            per_core64 = pipes * width / 64 * 2  # FLOP/cycle: an FMA is 2
            row["theory_fp64_all"] = threads * row["mhz"] * 1e6 * per_core64
            row["fma_ratio_fp64_all"] = row["fp64_all"] / row["theory_fp64_all"]
            row["fma_ratio_fp32_all"] = row["fp32_all"] / (2 * row["theory_fp64_all"])
            row["fma_ratio_fp64_1"] = row["fp64_1"] / (row["theory_fp64_all"] / threads)
        rows.append(row)
        print(f"repeat {i + 1}: triad ours/STREAM 1 thread {row['triad_ratio_1']:.3f} "
              f"({row['ours_1'] / 1e9:.1f} / {s_one / 1e9:.1f} GB/s), {threads} threads "
              f"{row['triad_ratio_all']:.3f} ({row['ours_all'] / 1e9:.1f} / {s_all / 1e9:.1f} GB/s); "
              f"clock {row['mhz']} MHz; fp64 {row['fp64_all'] / 1e9:.1f} GFLOP/s"
              + (f" = {row['fma_ratio_fp64_all']:.3f} x theory" if "fma_ratio_fp64_all" in row
                 else ""), flush=True)

    def med(k):
        v = [r[k] for r in rows if k in r]
        return statistics.median(v) if v else None

    load = os.getloadavg()[0]
    print(f"\nmedians over {len(rows)} repeats (mode {a.mode}, STREAM NTIMES {a.stream_times}, "
          f"{m['kernel_isa']}, {threads} threads on CPUs {m['cpus']}; load average now "
          f"{load:.1f}):")
    print(f"  triad memory, 1 thread:  ours {med('ours_1') / 1e9:.1f} GB/s, STREAM-style "
          f"-O3 -march=native {med('stream_1') / 1e9:.1f} GB/s, ratio {med('triad_ratio_1'):.3f}")
    print(f"  triad memory, {threads} threads: ours {med('ours_all') / 1e9:.1f} GB/s, "
          f"STREAM-style {med('stream_all') / 1e9:.1f} GB/s, ratio {med('triad_ratio_all'):.3f}")
    units = fma_units(cpu)
    if units and med("fma_ratio_fp64_all") is not None:
        pipes, bits, src = units
        print(f"  FMA units: {pipes} x {bits}-bit per core, from {src}; kernel vectors "
              f"{m['vector_width_in_bits']} bits; achieved clock median {med('mhz'):.0f} MHz")
        print(f"  peak fp64, {threads} threads: {med('fp64_all') / 1e9:.1f} GFLOP/s = "
              f"{med('fma_ratio_fp64_all'):.3f} x ({threads} cores x clock x {pipes} FMA x "
              f"{min(bits, m['vector_width_in_bits']) // 64} lanes x 2)")
        print(f"  peak fp64, 1 thread: {med('fp64_1') / 1e9:.1f} GFLOP/s = "
              f"{med('fma_ratio_fp64_1'):.3f} x theory")
        print(f"  peak fp32, {threads} threads: {med('fp32_all') / 1e9:.1f} GFLOP/s = "
              f"{med('fma_ratio_fp32_all'):.3f} x theory")
    else:
        print("  peak FMA: no FMA-unit count known for this CPU (FMA_UNITS): no ratio")
    return 0


if __name__ == "__main__":
    sys.exit(main())
