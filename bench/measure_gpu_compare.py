#!/usr/bin/env python3
"""`sysdesc measure --device` on this machine's GPUs against references.

For each GPU the measurement holds: its memory copy against a PyTorch
device-to-device copy of the same bytes (y.copy_(x), timed by CUDA events,
best of --repeats; counted as sysdesc counts a copy: the bytes loaded and
stored), and its measured triad, FMA peaks and clock against the nominal
values (the catalog's, as the probe filled them, or --catalog NAME's).
Prints one markdown table a GPU.

    python3 bench/measure_gpu_compare.py [--sysdesc PATH] [--mode quick|default|full]
                                         [--catalog NAME] [--repeats N]

Without PyTorch (or its CUDA) the copy's reference column says so.  Run
on an NVIDIA machine with a build of this tree (scripts/gpu-check's bundle
works: --sysdesc build-gpu/sysdesc).  Exit status: 0 tables printed; 1 the
measurement failed; 77 no GPU was measured here."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def get(d, path):
    for k in path.split("."):
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def torch_copy(index, nbytes, repeats):
    """Best device-to-device copy bandwidth (bytes loaded and stored / s), or None."""
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    dev = torch.device("cuda", index)
    n = nbytes // 4
    x = torch.ones(n, dtype=torch.float32, device=dev)
    y = torch.empty_like(x)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    best = None
    for _ in range(repeats + 1):  # the first is a warm-up
        start.record()
        y.copy_(x)
        end.record()
        end.synchronize()
        s = start.elapsed_time(end) * 1e-3
        if best is None or s < best:
            best = s
    assert torch.equal(x, y), "the PyTorch copy is wrong"
    return 2 * n * 4 / best


def ratio(a, b):
    return f"{a / b:.3g}" if a and b else "—"


def fmt(v, scale, unit):
    return f"{v / scale:.4g} {unit}" if v else "—"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sysdesc", default=os.path.join(HERE, "..", "build", "cli", "sysdesc"))
    ap.add_argument("--mode", choices=("quick", "default", "full"), default="default")
    ap.add_argument("--catalog", help="take the nominal values from this catalog entry")
    ap.add_argument("--repeats", type=int, default=20)
    a = ap.parse_args()
    mode = [] if a.mode == "default" else [f"--{a.mode}"]
    r = subprocess.run([a.sysdesc, "measure", *mode, "--device", "all", "--no-cache", "-q",
                        "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if not r.stdout:
        print(f"sysdesc measure failed (exit {r.returncode}): {r.stderr}", file=sys.stderr)
        return 1
    spec = json.loads(r.stdout)
    nominal_of = {}
    if a.catalog:
        c = subprocess.run([a.sysdesc, "convert", "--to", "json", a.catalog],
                           stdout=subprocess.PIPE, text=True, check=True)
        devs = [v for v in json.loads(c.stdout).values()
                if isinstance(v, dict) and v.get("device_type") == "GPU"]
        nominal_of = devs[0] if devs else {}
    gpus = [(k, v) for k, v in spec.items() if isinstance(v, dict) and v.get("device_type") == "GPU"]
    measured_any = False
    for gid, g in gpus:
        m = g.get("measured")
        print(f"\n### {gid}: {g.get('model', '?')}\n")
        if not m:
            print(f"not measured: {get(g, 'source.measured')}")
            continue
        measured_any = True
        nom = nominal_of or g
        ordinal = get(g, "runtimes.cuda.ordinal")
        ws = get(m, "levels.memory.working_set_in_bytes") or (1 << 30)
        tc = torch_copy(ordinal, ws // 2, a.repeats) if ordinal is not None else None
        print(f"{m.get('method', '')[:80]}... ({m.get('runtime')}, {m.get('driver')}, "
              f"{m.get('mode')}, {m.get('date')})\n")
        print("| value | sysdesc measure | reference | ratio |")
        print("|---|---|---|---|")
        copy = get(m, "levels.memory.copy_bandwidth_in_bytes_per_second")
        rows = [
            ("memory copy", copy, tc, "PyTorch y.copy_(x)" if tc else "no PyTorch with CUDA",
             1e9, "GB/s"),
            ("memory triad", get(m, "levels.memory.triad_bandwidth_in_bytes_per_second"),
             get(nom, "memory_bandwidth_in_bytes_per_second"), "nominal", 1e9, "GB/s"),
            ("FMA f32", get(m, "peak_ops_per_second.fp32_vector"),
             get(nom, "peak_ops_per_second.fp32_vector"), "nominal", 1e12, "TFLOP/s"),
            ("FMA f64", get(m, "peak_ops_per_second.fp64_vector"),
             get(nom, "peak_ops_per_second.fp64_vector"), "nominal", 1e12, "TFLOP/s"),
            ("FMA f16", get(m, "peak_ops_per_second.fp16_vector"),
             get(nom, "peak_ops_per_second.fp16_vector"), "nominal", 1e12, "TFLOP/s"),
            ("clock", get(m, "frequency_mhz"), get(nom, "max_clock_in_mhz"), "nominal max", 1,
             "MHz"),
        ]
        for name, got, ref, what, scale, unit in rows:
            print(f"| {name} | {fmt(got, scale, unit)} | {fmt(ref, scale, unit)} ({what}) | "
                  f"{ratio(got, ref)} |")
        for k in ("L2", "local"):
            v = get(m, f"levels.{k}.read_bandwidth_in_bytes_per_second")
            print(f"| {k} read | {fmt(v, 1e9, 'GB/s')} | | |")
        for k in ("host_to_device", "device_to_host"):
            v = get(m, f"transfer.{k}_bandwidth_in_bytes_per_second")
            print(f"| {k.replace('_', ' ')} | {fmt(v, 1e9, 'GB/s')} | | |")
    if not measured_any:
        print("no GPU measured here", file=sys.stderr)
        return 77
    return 0 if r.returncode in (0, 3) else 1


if __name__ == "__main__":
    sys.exit(main())
