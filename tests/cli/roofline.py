#!/usr/bin/env python3
"""sysdesc roofline: the SVG is well-formed XML (xml.etree parses it) and
holds exactly the ceilings the spec has, each with its key and kind
(measured, nominal), one ridge dot per bandwidth ceiling, text escaped;
the subtitle and stderr say which statistic of its samples each measured
value is (the measured map's `statistic`: median for this host measured
now, best for a map written before that key);
a catalog GPU (nvidia/h100-sxm) draws its nominal ceilings; --types picks
the compute ceilings; stderr says plainly which ceilings there were; a spec
without a compute or a bandwidth ceiling, or without the device, exits 1
naming what was looked for; bad usage exits 2; -o is atomic.  Kernels
(--point, --points FILE) are drawn as named diamonds, listed in the legend
and on stderr with the fraction of the roof each reaches, the roof computed
here from the ceilings the chart holds; a bad point is an error at its
place.
Environment: SYSDESC (the tool), SRCDIR (the source tree)."""
import json
import os
import re
import time
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.environ["SRCDIR"], "tests"))
from topology import foreign_topology  # noqa: E402

SYSDESC = os.environ["SYSDESC"]
DATA = os.path.join(os.environ["SRCDIR"], "tests", "data", "roofline")
NS = "{http://www.w3.org/2000/svg}"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    e = dict(os.environ, SYSDESC_PATH=os.path.join(os.environ["SRCDIR"], "systems"))
    return subprocess.run([SYSDESC, "roofline", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, env=e,
                          timeout=60)


def html_escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def ceilings(svg_text):
    """(kind, compute|bandwidth, key) of every ceiling group, and the number of ridge dots."""
    root = ET.fromstring(svg_text)
    out = []
    for g in root.iter(NS + "g"):
        cls = g.get("class", "").split()
        if cls[:1] == ["ceiling"]:
            out.append((cls[1], cls[2], g.get("data-key")))
    dots = sum(1 for _ in root.iter(NS + "circle"))
    return root, out, dots


# A catalog GPU: nominal ceilings only, the default types it has a peak for
# (a GPU's default adds the tensor types to the f64/f32 ones), as the
# catalog entry says (read here, not assumed).
GPU_DEFAULT = ("fp64_vector", "fp64_matrix", "fp32_vector", "fp32_matrix", "tf32_matrix",
               "fp16_matrix", "bf16_matrix", "fp8_matrix")
conv = subprocess.run([SYSDESC, "convert", "--to", "json", "nvidia/h100-sxm"],
                      stdout=subprocess.PIPE, text=True,
                      env=dict(os.environ, SYSDESC_PATH=os.path.join(os.environ["SRCDIR"], "systems")))
h100 = json.loads(conv.stdout)["GPU"]
r = run("nvidia/h100-sxm")
check(r.returncode == 0, f"h100: exit {r.returncode}: {r.stderr}")
try:
    root, cs, dots = ceilings(r.stdout)
    check(root.tag == NS + "svg", "h100: root is not <svg>")
    want = {("nominal", "compute", "peak_ops_per_second." + t)
            for t in GPU_DEFAULT if t in h100["peak_ops_per_second"]}
    want.add(("nominal", "bandwidth", "memory_bandwidth_in_bytes_per_second"))
    check(set(cs) == want and len(want) >= 6, f"h100 ceilings: {cs}, expected {want}")
    check(dots == 1, f"h100: {dots} ridge dots, expected 1")
    check("3.35 TB/s" in r.stdout and "33.5 TFLOP/s" in r.stdout, "h100: values not labelled")
    check("(FLOP/s)" in r.stdout and "FLOP/byte" in r.stdout, "h100: axes not labelled")
except ET.ParseError as e:
    check(False, f"h100: SVG is not well-formed: {e}")
check("measured ceilings: none" in r.stderr and "nominal ceilings: FP64 vector" in r.stderr,
      f"h100: stderr does not say which ceilings: {r.stderr}")

r = run("-q", "nvidia/h100-sxm", "--types", "fp16_matrix,fp8_matrix")
check(r.returncode == 0 and r.stderr == "", f"--types: exit {r.returncode}: {r.stderr}")
if r.returncode == 0:
    _, cs, _ = ceilings(r.stdout)
    check({k for _, _, k in cs} == {"peak_ops_per_second.fp16_matrix",
                                    "peak_ops_per_second.fp8_matrix",
                                    "memory_bandwidth_in_bytes_per_second"}, f"--types: {cs}")

# A measured CPU: a bandwidth ceiling per level, each with its ridge.
r = run(os.path.join(DATA, "cpu-measured.yaml"))
check(r.returncode == 0, f"cpu-measured: exit {r.returncode}: {r.stderr}")
try:
    root, cs, dots = ceilings(r.stdout)
    levels = [k for kind, what, k in cs if what == "bandwidth"]
    check(levels == [f"measured.levels.{l}.triad_bandwidth_in_bytes_per_second"
                     for l in ("L1", "L2", "L3", "memory")], f"cpu-measured levels: {levels}")
    check(all(kind == "measured" for kind, _, _ in cs), "cpu-measured: a ceiling is not measured")
    check({k for _, w, k in cs if w == "compute"} ==
          {"measured.peak_ops_per_second.fp64_vector", "measured.peak_ops_per_second.fp32_vector"},
          f"cpu-measured compute: {cs}")
    check(dots == 4, f"cpu-measured: {dots} ridge dots, expected 4")
    title = "".join(next(root.iter(NS + "text")).itertext())
    check('Fast & <Furious> "CPU"' in title, f"title not escaped and read back: {title!r}")
    # The memory ridge: 800 GFLOP/s over 50 GB/s = 16 FLOP/byte.
    check(">16</text>" in r.stdout, "cpu-measured: the memory ridge (16 FLOP/byte) is not labelled")
except ET.ParseError as e:
    check(False, f"cpu-measured: SVG is not well-formed: {e}")
check("nominal ceilings: none in this spec" in r.stderr, f"cpu-measured stderr: {r.stderr}")
# That fixture has no `statistic`: written when every value was the best sample.
check("best of samples" in r.stdout and "measured ceilings (sysdesc measure" in r.stderr and
      "best of samples" in r.stderr, f"cpu-measured: the statistic (best) not said: {r.stderr}")

# No SPEC: this host, probed and measured first; every ceiling measured.
# Another machine's topology (HWLOC_XMLFILE) is refused: measure runs here.
r = run("--quick")
if foreign_topology():
    check(r.returncode != 0 and "describes another machine" in r.stderr,
          f"another machine's topology: exit {r.returncode}: {r.stderr}")
else:
    check(r.returncode == 0, f"this host: exit {r.returncode}: {r.stderr}")
if r.returncode == 0:
    _, cs, dots = ceilings(r.stdout)
    check(any(k == "measured.levels.L1.triad_bandwidth_in_bytes_per_second" for _, _, k in cs) and
          any(k == "measured.peak_ops_per_second.fp64_vector" for _, _, k in cs),
          f"this host: ceilings {cs}")
    check(dots == sum(1 for _, w, _ in cs if w == "bandwidth"), "this host: a ridge per bandwidth")
    check("measuring this host" in r.stderr, "this host: no progress on stderr")
    check("median of samples" in r.stdout and "median of samples" in r.stderr,
          f"this host: the statistic (median) not said in the SVG and on stderr: {r.stderr}")

# What is missing, named.
r = run(os.path.join(DATA, "gpu-no-bandwidth.yaml"))
check(r.returncode == 1 and "no bandwidth ceiling" in r.stderr and
      "memory_bandwidth_in_bytes_per_second" in r.stderr and r.stdout == "",
      f"no bandwidth: exit {r.returncode}: {r.stderr}")
r = run(os.path.join(os.environ["SRCDIR"], "examples", "two-devices.mlir"))
check(r.returncode == 1 and "no compute ceiling" in r.stderr and "peak_ops_per_second" in r.stderr,
      f"no compute: exit {r.returncode}: {r.stderr}")
r = run("nvidia/h100-sxm", "--device", "GPU7")
check(r.returncode == 1 and "GPU7" in r.stderr, f"missing device: exit {r.returncode}: {r.stderr}")

# Rates no chart can hold (a spec read with --no-check): a denormal and an
# infinite peak are left out, the chart is drawn at once with finite
# coordinates (the denormal ran past 60 s and 4 GB; inf put NaN in the SVG).
odd = tempfile.mkdtemp(prefix="sysdesc-roofline-odd.")
for bad in ("4.9e-324", ".inf", "1e300"):
    f = os.path.join(odd, "odd-peak.yaml")
    with open(f, "w") as out:
        out.write("GPU:\n  device_type: GPU\n  memory_bandwidth_in_bytes_per_second: 1.0e12\n"
                  "  peak_ops_per_second:\n    fp32_vector: 1.0e13\n    fp64_vector: %s\n" % bad)
    t0 = time.monotonic()
    r = run("--no-check", f)
    took = time.monotonic() - t0
    check(r.returncode == 0 and "FP64" not in r.stderr and "FP32 vector" in r.stderr and took < 10,
          f"peak {bad}: exit {r.returncode} in {took:.1f} s: {r.stderr}")
    check(re.search(r"nan|inf", r.stdout, re.I) is None, f"peak {bad}: NaN or inf in the SVG")
shutil.rmtree(odd, ignore_errors=True)

# Kernels as points: each drawn, named, and placed against the roof that
# the chart's own ceilings give (the highest compute rate, the highest
# bandwidth times the intensity: nominal here, the H100 measures nothing).
pts = tempfile.mkdtemp(prefix="sysdesc-roofline-points.")
try:
    csv = os.path.join(pts, "kernels.csv")
    with open(csv, "w") as f:
        f.write("name,intensity,rate\n# from a tuner's log\nsoftmax,0.5,1.2T\nattn & <qk>,60,300T\n")
    r = run("nvidia/h100-sxm", "--point", "gemm:300:600T", "--points", csv)
    check(r.returncode == 0, f"points: exit {r.returncode}: {r.stderr}")
    root, cs, dots = ceilings(r.stdout)
    got = [(g.get("data-name"), float(g.get("data-intensity")), float(g.get("data-rate")))
           for g in root.iter(NS + "g") if g.get("class") == "point"]
    check(got == [("gemm", 300, 6e14), ("softmax", 0.5, 1.2e12), ("attn & <qk>", 60, 3e14)],
          f"points drawn: {got}")
    check(dots == 1, f"points: {dots} ridge dots (a point is no dot)")
    top_compute = max(h100["peak_ops_per_second"][t] for t in GPU_DEFAULT
                      if t in h100["peak_ops_per_second"])
    bw = h100["memory_bandwidth_in_bytes_per_second"]
    for name, i, rate in got:
        roof = min(top_compute, bw * i)
        pct = "%.0f%%" % (100 * rate / roof)
        line = next((l for l in r.stderr.splitlines() if l.startswith(f"sysdesc: roofline: point {name}:")), "")
        check(f"{pct} of the roof there" in line and
              ("memory-bound" if bw * i < top_compute else "compute-bound") in line,
              f"point {name}: stderr {line!r}, expected {pct} of the roof")
        check(f"{html_escape(name)}: " in r.stdout, f"point {name}: not in the legend")
finally:
    shutil.rmtree(pts, ignore_errors=True)
for args, code, needle in ((["--point", "gemm:x:1G"], 2, "INTENSITY"),
                           (["--point", "gemm:1"], 2, "NAME:INTENSITY:RATE"),
                           (["--point", "gemm:1:0.5"], 2, "outside 1 to"),
                           (["--points", "/nonexistent/k.csv"], 3, "/nonexistent/k.csv")):
    r = run("-q", "nvidia/h100-sxm", *args)
    check(r.returncode == code and needle in r.stderr and r.stdout == "",
          f"roofline {' '.join(args)}: exit {r.returncode}: {r.stderr}")
bad = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
bad.write("k1,1,1G\n\nk2,1,fast\n")
bad.close()
r = run("-q", "nvidia/h100-sxm", "--points", bad.name)
check(r.returncode == 2 and f"{bad.name}:3:6: error:" in r.stderr,
      f"a bad line of a points file: exit {r.returncode}: {r.stderr}")
os.unlink(bad.name)
r = run("-q", "nvidia/h100-sxm", *sum((["--point", f"k{i}:1:1G"] for i in range(33)), []))
check(r.returncode == 2 and "at most 32" in r.stderr, f"33 points: {r.returncode} {r.stderr}")

# Bad usage.
for args, needle in ((["nvidia/h100-sxm", "--types", "fp63_vector"], "fp63_vector"),
                     (["--frobnicate"], "--frobnicate"), (["nvidia/h100-sxm", "--device"], "--device"),
                     (["nvidia/h100-sxm", "nvidia/h100-sxm"], "one SPEC")):
    r = run(*args)
    check(r.returncode == 2 and needle in r.stderr and r.stdout == "",
          f"roofline {' '.join(args)}: exit {r.returncode}: {r.stderr}")

# -o: written atomically; kept when the run fails.
tmp = tempfile.mkdtemp(prefix="sysdesc-roofline.")
try:
    out = os.path.join(tmp, "roof.svg")
    r = run("-q", "nvidia/h100-sxm", "-o", out)
    check(r.returncode == 0 and r.stdout == "" and os.path.getsize(out) > 0, "-o: not written")
    before = open(out).read()
    r = run("-q", os.path.join(DATA, "gpu-no-bandwidth.yaml"), "-o", out)
    check(r.returncode == 1 and open(out).read() == before, "-o: changed by a failed run")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{'FAIL' if failures else 'ok'}: roofline.py, {len(failures)} failures")
sys.exit(1 if failures else 0)
