#!/usr/bin/env python3
"""sysdesc measure --device (docs/measure.md, "Devices").

With the real runtimes this machine has (pocl for OpenCL, lavapipe for
Vulkan: the host CPU's views):
1. `--quick --device all`: exit 0; the output passes `sysdesc check` and
   mlir-opt-22; the CPU measured by its own kernels and through each runtime
   the probe saw, with every key of a device measurement, every value
   positive, the provenance (runtime, driver, device, mode, version, date)
   and a source line each; the physics (the L2 working set read at least
   half as fast as memory, local memory and L2 within reach of each other,
   copy and triad of the same memory); the runtimes' figures against the
   CPU's own measurement of the same run, within bounds that allow the
   runtimes' overhead (docs/measure.md has the figures); each device's runs
   within the mode's time (limits scaled by tests/timebound.py);
2. the default mode of one runtime within 10 s of runs;
3. a broken triad (SYSDESC_MEASURE_BREAK_TRIAD) costs that runtime's
   measurement only: its source says which element was wrong, the output is
   written, the exit status is 3.

With the CUDA TEST DOUBLE (tests/probe/doubles: it runs the kernels' work
in C and proves nothing about a real driver, its JIT or the PTX; only the
host side's bookkeeping):
4. a GPU measured through cuda, the SM clock the double was told, the
   f16 kernel's JIT failure skipping f16 only;
   summary shows measured beside nominal with their ratio, roofline draws
   the device's measured ceilings;
5. a wrong result, a launch error, a hang (killed at --device-timeout) and a
   crash each cost that device's measurement, said in its source and on
   stderr, exit 3, the CPU still measured.

6. usage errors exit 2.

Under a sanitizer (SYSDESC_TEST_SLOWDOWN > 1) the runtimes' figures are
not compared with the CPU's nor with each other: pocl and lavapipe run
their driver code inside this process, through the sanitizer's
interceptors, and their timers count that (lavapipe's FMA rate falls a
thousandfold under ASan), nor are their run times held to the plain
build's bounds (the --device-timeout, scaled, still bounds them); every
kernel is still run and verified.  Lavapipe is left out there: through
ASan's interceptors (fast_unwind_on_malloc=0, as scripts/test-all sets)
its measurement does not finish within minutes.
Environment: SYSDESC, SRCDIR, CUDA_DOUBLE_DIR (the double's folder)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.environ["SRCDIR"], "tests"))
from timebound import limit  # noqa: E402
from topology import skip_if_foreign  # noqa: E402

PLAIN = float(os.environ.get("SYSDESC_TEST_SLOWDOWN", "1") or 1) <= 1
# A device's bound, scaled as the test's other limits are.
DEVICE_TIMEOUT = str(int(limit(30) * 1000))

SYSDESC = os.environ["SYSDESC"]
skip_if_foreign("the devices its runtimes measure")
DOUBLE = os.environ["CUDA_DOUBLE_DIR"]
failures = 0
T = tempfile.mkdtemp(prefix="sysdesc-measure-dev.")
# The real runtimes are asked without the double's folder (meson puts the
# folders of the libraries a test depends on in LD_LIBRARY_PATH).
os.environ["LD_LIBRARY_PATH"] = ":".join(
    p for p in os.environ.get("LD_LIBRARY_PATH", "").split(":")
    if p and os.path.realpath(p) != os.path.realpath(DOUBLE))

DEVICE_KEYS = ["method", "runtime", "driver", "device_name", "date", "sysdesc_version", "mode",
               "work_group_size", "repeats", "peak_ops_per_second",
               "memory_bandwidth_in_bytes_per_second", "levels", "transfer",
               "duration_in_seconds"]


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1
    return cond


def run(*args, env=None, timeout=600):
    e = dict(os.environ)
    e.update(env or {})
    t0 = time.monotonic()
    r = subprocess.run([SYSDESC, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, text=True, env=e, timeout=timeout)
    r.seconds = time.monotonic() - t0
    return r


def spec_of(path):
    j = run("convert", "--no-check", "--to", "json", path)
    return json.loads(j.stdout) if j.returncode == 0 else {}


def check_device_map(m, runtime, where):
    for k in DEVICE_KEYS:
        check(k in m, f"{where}: {k} present")
    check(m.get("runtime") == runtime, f"{where}: runtime {m.get('runtime')}")
    check(m.get("work_group_size") == 128, f"{where}: work_group_size 128")
    check(m.get("repeats", 0) >= 3, f"{where}: at least 3 launches a value")
    check(m.get("statistic") == "best", f"{where}: statistic {m.get('statistic')!r}, not best")
    lv = m.get("levels", {})
    mem = lv.get("memory", {})
    for k in ("read", "copy", "triad"):
        check(mem.get(f"{k}_bandwidth_in_bytes_per_second", 0) > 0, f"{where}: memory {k} > 0")
    check(m.get("memory_bandwidth_in_bytes_per_second") ==
          mem.get("triad_bandwidth_in_bytes_per_second"), f"{where}: memory bandwidth = triad")
    # 64 MiB at least (less the rounding to whole elements), or why not
    check(mem.get("working_set_in_bytes", 0) >= 63 << 20 or "bounded" in mem,
          f"{where}: memory working set of 64 MiB or more, or bounded says why")
    tr = m.get("transfer", {})
    for k in ("host_to_device", "device_to_host"):
        check(tr.get(f"{k}_bandwidth_in_bytes_per_second", 0) > 0, f"{where}: transfer {k}")
    pk = m.get("peak_ops_per_second", {})
    check(pk.get("fp32_vector", 0) > 0, f"{where}: fp32 peak")
    skipped = m.get("skipped", {})
    for t in ("fp64_vector", "fp16_vector"):
        check((pk.get(t, 0) > 0) != (t in skipped), f"{where}: {t} measured or skipped with why")
    check(("frequency_mhz" in m) != ("frequency_mhz" in skipped),
          f"{where}: the clock measured or skipped with why")
    return m


try:
    # ---- 1. the real runtimes, --quick, every device ----
    out = os.path.join(T, "all.mlir")
    # Under a sanitizer, OpenCL only: lavapipe's driver code through ASan's
    # interceptors takes minutes (or more) where it takes a second.
    r = run("measure", "--quick", "--device", "all", "--no-cache", "-o", out,
            "--device-timeout", DEVICE_TIMEOUT, *([] if PLAIN else ["--runtimes=opencl"]))
    check(r.returncode == 0, f"measure --quick --device all: exit {r.returncode}: {r.stderr[-600:]}")
    check("measure: [" in r.stderr and "done" in r.stderr, "the progress line on stderr")
    c = run("check", out)
    check(c.returncode == 0, f"sysdesc check of the output: {c.stdout}{c.stderr}")
    opt = shutil.which("mlir-opt-22")
    if opt:
        o = subprocess.run([opt, out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(o.returncode == 0, f"mlir-opt-22 accepts the output: {o.stderr[:300]}")
    spec = spec_of(out)
    cpu = spec.get("CPU", {})
    native = cpu.get("measured", {})
    check("levels" in native and "kernel_isa" in native, "the CPU measured by its own kernels")
    seen = [rt for rt in ("opencl", "vulkan") if rt in cpu.get("runtimes", {})]
    print("runtimes that see the CPU here:", seen or "none")
    views = native.get("runtimes", {})
    for rt in seen:
        where = f"CPU.measured.runtimes.{rt}"
        if not check(rt in views, f"{where} present ({cpu.get('source', {}).get(f'measured.runtimes.{rt}')})"):
            continue
        m = check_device_map(views[rt], rt, where)
        src = cpu.get("source", {}).get(f"measured.runtimes.{rt}", "")
        check(src.startswith(f"sysdesc measure through {rt}: ") and m["driver"] in src,
              f"{where}: source line {src!r}")
        check(m["device_name"] == cpu["runtimes"][rt]["device_name"],
              f"{where}: the device the probe saw")
        lv = m["levels"]
        mem_read = lv["memory"]["read_bandwidth_in_bytes_per_second"]
        check(lv.get("local", {}).get("read_bandwidth_in_bytes_per_second", 0) > 0,
              f"{where}: local memory read")
        if not PLAIN:
            print(f"skip: {where}: figures and run times not compared under a sanitizer "
                  f"(see above)")
            continue
        # the bound is 1-2 s a device on an idle machine; the suite runs
        # two tests at once, and the load average lags the contention
        check(m["duration_in_seconds"] <= 2 * limit(3),
              f"{where}: --quick runs took {m['duration_in_seconds']:.2f} s "
              f"(limit {2 * limit(3):.1f})")
        if "L2" in lv:
            check(lv["L2"]["read_bandwidth_in_bytes_per_second"] >= 0.25 * mem_read,
                  f"{where}: L2 read {lv['L2']['read_bandwidth_in_bytes_per_second']:.3g} >= "
                  f"a quarter of memory read {mem_read:.3g}")
        # Against the CPU's own kernels in the same run.  The bounds allow
        # the runtimes' overhead (docs/measure.md: lavapipe's 256-bit code is
        # 1/4-1/15 of the native FMA rate here, its triad 1/10, 1/45 under
        # the load of a full test run; the two run at different moments, so
        # a busy machine moves each alone) and catch a unit or count error (a
        # factor of 1000, a missed kernel).
        pairs = [("memory triad", m["memory_bandwidth_in_bytes_per_second"],
                  native.get("memory_bandwidth_in_bytes_per_second", 0), 1 / 300, 5),
                 ("fp32 peak", m["peak_ops_per_second"]["fp32_vector"],
                  native["peak_ops_per_second"]["fp32_vector"], 1 / 300, 5)]
        if "fp64_vector" in m["peak_ops_per_second"]:
            pairs.append(("fp64 peak", m["peak_ops_per_second"]["fp64_vector"],
                          native["peak_ops_per_second"]["fp64_vector"], 1 / 300, 5))
        for name, got, ref, lo, hi in pairs:
            ratio = got / ref if ref else 0
            check(lo <= ratio <= hi, f"{where}: {name} {got:.3g} / the CPU's {ref:.3g} = "
                                     f"{ratio:.3f}, within [{lo:.3f}, {hi}]")

    if seen:
        rt = seen[0]
        # ---- 2. the default mode within 10 s of runs ----
        r = run("measure", "--device", "CPU", f"--runtimes={rt}", "--no-cache", "-q",
                "--format", "json", "--device-timeout", DEVICE_TIMEOUT)
        check(r.returncode == 0, f"measure --device CPU --runtimes={rt}: exit {r.returncode}")
        m = json.loads(r.stdout)["CPU"]["measured"].get("runtimes", {}).get(rt, {}) \
            if r.returncode == 0 else {}
        check(m.get("mode") == "default" and 0 < m.get("duration_in_seconds", 99) <=
              (2 * limit(10) if PLAIN else 1e9),
              f"default mode through {rt}: {m.get('duration_in_seconds', 0):.2f} s of runs "
              f"(limit {2 * limit(10):.1f})")

        # ---- 3. a broken triad costs that measurement only ----
        out3 = os.path.join(T, "broken.mlir")
        r = run("measure", "--quick", "--device", "CPU", "--no-cache", "-o", out3,
                "--device-timeout", DEVICE_TIMEOUT, *([] if PLAIN else [f"--runtimes={rt}"]),
                env={"SYSDESC_MEASURE_BREAK_TRIAD": rt})
        cpu3 = spec_of(out3).get("CPU", {})
        src = cpu3.get("source", {}).get(f"measured.runtimes.{rt}", "")
        check(r.returncode == 3 and src.startswith(f"not measured through {rt}: the triad kernel")
              and src in r.stderr,
              f"a broken triad through {rt}: exit {r.returncode}, source {src!r}")
        views3 = cpu3.get("measured", {}).get("runtimes", {})
        check(rt not in views3 and "levels" in cpu3.get("measured", {}) and
              all(v in views3 for v in seen if v != rt),
              f"only {rt}'s measurement is lost: {sorted(views3)}")
    else:
        print("SKIP: no OpenCL or Vulkan runtime sees this CPU")

    # ---- 4. the CUDA test double ----
    conf = os.path.join(T, "cuda.conf")
    base = ("cuda.count = 1\ncuda.driver_version = 12040\n"
            "cuda.0.name = NVIDIA H100 80GB HBM3\n"
            "cuda.0.uuid = 0a1b2c3d4e5f60718293a4b5c6d7e8f9\n"
            "cuda.0.total_mem = 268435456 # 256 MiB: working sets of 32 MiB (an eighth)\n"
            "cuda.0.attr.16 = 2       # MULTIPROCESSOR_COUNT: a small grid for the double\n"
            "cuda.0.attr.10 = 32\ncuda.0.attr.1 = 1024\n"
            "cuda.0.attr.38 = 2097152 # L2_CACHE_SIZE\n"
            "cuda.0.attr.75 = 9\ncuda.0.attr.76 = 0\n"
            "cuda.0.sm_clock_mhz = 1755\n")
    denv = {"LD_LIBRARY_PATH": DOUBLE, "SYSDESC_DOUBLE_CONFIG": conf}

    def double(extra, *args):
        with open(conf, "w") as f:
            f.write(base + extra)
        o = os.path.join(T, "gpu.mlir")
        if os.path.exists(o):
            os.unlink(o)
        r = run("measure", "--quick", "--runtimes=cuda", "--no-cache", "-o", o, *args, env=denv)
        return r, spec_of(o) if os.path.exists(o) else {}

    r, spec = double("", "--device", "GPU0")
    check(r.returncode == 0, f"the double's GPU0 through cuda: exit {r.returncode}: "
                             f"{r.stderr[-400:]}")
    gpu = spec.get("GPU0", {})
    m = check_device_map(gpu.get("measured", {}), "cuda", "GPU0.measured (test double)")
    check(m.get("frequency_mhz") == 1755, f"the SM clock the double reports: {m.get('frequency_mhz')}")
    check(m.get("driver") == "CUDA 12.4", f"driver {m.get('driver')!r}")
    check(gpu.get("source", {}).get("measured") == "sysdesc measure through cuda: CUDA 12.4",
          f"GPU0's source line: {gpu.get('source', {}).get('measured')!r}")
    check("measured" not in spec.get("CPU", {}), "--device GPU0 measures GPU0 only")
    check(run("check", os.path.join(T, "gpu.mlir")).returncode == 0, "the double's spec checks")

    # summary: measured beside nominal with their ratio; roofline: the
    # device's measured ceilings (local and L2 by their read) beside nominal.
    nominal = {"memory_bandwidth_in_bytes_per_second": 3350000000000, "max_clock_in_mhz": 1980,
               "peak_ops_per_second.fp32_vector": 6.7e13}
    r, spec = double("", "--device", "GPU0",
                     *[a for k, v in nominal.items() for a in ("--set", f"GPU0.{k}={v}")])
    m = spec.get("GPU0", {}).get("measured", {})
    s = run("summary", os.path.join(T, "gpu.mlir"))
    lines = {ln[:20].strip(): ln[20:].strip() for ln in s.stdout.splitlines()
             if ln.startswith("  measured ")}
    for label, got, nom in (
            ("measured memory bw", m.get("memory_bandwidth_in_bytes_per_second", 0),
             nominal["memory_bandwidth_in_bytes_per_second"]),
            ("measured clock", m.get("frequency_mhz", 0), nominal["max_clock_in_mhz"]),
            ("measured FP32", m.get("peak_ops_per_second", {}).get("fp32_vector", 0),
             nominal["peak_ops_per_second.fp32_vector"])):
        pct = 100 * got / nom
        want = f"({pct:.0f}% of " if pct >= 10 else f"({pct:.2g}% of "
        check(want in lines.get(label, "") and lines[label].endswith(" nominal)"),
              f"summary: {label} {lines.get(label)!r} has {want}... nominal)")
    check("(" not in lines.get("measured FP64", "("), "summary: no ratio without a nominal twin")
    rf = run("roofline", "--device", "GPU0", "-o", os.path.join(T, "gpu.svg"),
             os.path.join(T, "gpu.mlir"))
    for key in ("measured.levels.local.read_bandwidth_in_bytes_per_second",
                "measured.levels.L2.read_bandwidth_in_bytes_per_second",
                "measured.levels.memory.triad_bandwidth_in_bytes_per_second",
                "measured.peak_ops_per_second.fp32_vector", "memory_bandwidth_in_bytes_per_second"):
        check(rf.returncode == 0 and key in rf.stderr, f"roofline of GPU0 draws {key}")
    check("through cuda, CUDA 12.4" in open(os.path.join(T, "gpu.svg")).read()
          if rf.returncode == 0 else False, "roofline names the runtime that measured")

    r, spec = double("cuda.jit_fp16 = 218\n", "--device", "GPU0")
    m = spec.get("GPU0", {}).get("measured", {})
    why = m.get("skipped", {}).get("fp16_vector", "")
    check(r.returncode == 0 and "fp16_vector" not in m.get("peak_ops_per_second", {}) and
          "cuModuleLoadDataEx" in why and "ptxas" in why,
          f"the f16 image refused by the JIT: f16 skipped ({why!r}), the rest measured")

    for extra, want, args in (
            ("cuda.break = sd_read\n", "the memory read kernel: work-item 0", ["all"]),
            ("cuda.break = sd_triad\n", "the triad kernel: x word 0", ["GPU0"]),
            ("cuda.launch = 719\n", "cuLaunchKernel", ["GPU0"]),
            ("cuda.launch_crash = 1\n", "crashed in its measurement (signal 11", ["GPU0"]),
            ("cuda.launch_hang = 1\n", "no answer within 2000 ms",
             ["all", "--device-timeout", "2000"])):
        t0 = time.monotonic()
        r, spec = double(extra, "--device", *args)
        src = spec.get("GPU0", {}).get("source", {}).get("measured", "")
        check(r.returncode == 3 and src.startswith("not measured through cuda: ") and want in src
              and "measured" not in spec.get("GPU0", {}),
              f"{extra.strip()}: exit {r.returncode}, GPU0 not measured: {src!r}")
        check(want in r.stderr, f"{extra.strip()}: said on stderr")
        if args[0] == "all":
            check("levels" in spec.get("CPU", {}).get("measured", {}),
                  f"{extra.strip()}: the CPU still measured")
        if "hang" in extra:
            check(time.monotonic() - t0 < limit(15),
                  f"the hanging launch killed at the bound ({time.monotonic() - t0:.1f} s)")

    # ---- 6. usage ----
    for args, what in ((["--device", "GPU7"], "the system has no CPU or GPU device \"GPU7\""),
                       (["--runtimes=opencl"], "go with --device"),
                       (["--device", "CPU", "--device-timeout", "0"], "--device-timeout: '0' is not a number")):
        r = run("measure", "--quick", *args)
        check(r.returncode == 2 and what in r.stderr, f"{args}: exit 2 naming it: {r.stderr[-200:]}")
finally:
    shutil.rmtree(T, ignore_errors=True)

print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)
