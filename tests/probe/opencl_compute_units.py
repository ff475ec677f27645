#!/usr/bin/env python3
"""What CL_DEVICE_MAX_COMPUTE_UNITS becomes, end to end through `sysdesc
probe --runtimes=opencl`, with the TEST DOUBLE of the OpenCL ICD loader
(doubles/opencl_double.c; doubles/README: it proves nothing about real
drivers).  AMD's own OpenCL (ROCm's platform "AMD Accelerated Parallel
Processing") counts work-group processors on RDNA (gfx10 and later), two CUs
each (ROCm/hip issues 2687, 3198, 3767): such a GPU gets no top-level
num_compute_units from OpenCL, its view keeps max_compute_units; CDNA on the
same platform, and Mesa's rusticl on an RDNA GPU, count CUs and give it
(probe/runtimes/opencl.c, counts_wgps; docs/runtimes.md, "Unified keys").

Every expected value is one this script writes into the double's
configuration: nothing here is this machine's.

Environment: SYSDESC (the tool), DOUBLES (the doubles' folder).
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["SRCDIR"], "tests"))
from topology import skip_if_foreign  # noqa: E402

skip_if_foreign("the OpenCL runtime")
SYSDESC = os.environ["SYSDESC"]
DOUBLES = os.environ["DOUBLES"]
T = tempfile.mkdtemp(prefix="sysdesc-opencl-units-")
atexit.register(shutil.rmtree, T, True)
failures = 0

HELP = subprocess.run([SYSDESC, "probe", "--help"], capture_output=True, text=True).stdout
QUICK = ["--gcc=", "--clang="] + (["--llc="] if "--llc" in HELP else [])

AMD_APP = ("AMD Accelerated Parallel Processing", "Advanced Micro Devices, Inc.",
           "OpenCL 2.1 AMD-APP (3614.0)", "3614.0 (HSA1.1,LC)")
RUSTICL = ("rusticl", "Mesa/X.org", "OpenCL 3.0 ", "24.3.4-1")


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1
    return cond


def config(platform, name, units, clock, memory):
    """One platform with one GPU of vendor 0x1002, a CPU device after it
    (which must stay a CPU: no GPU from it)."""
    pname, pvendor, pversion, driver = platform
    return f"""opencl.platforms = 1
opencl.0.name = {pname}
opencl.0.vendor = {pvendor}
opencl.0.version = {pversion}
opencl.0.devices = 2
opencl.0.0.type = 4
opencl.0.0.name = {name}
opencl.0.0.vendor = Advanced Micro Devices, Inc.
opencl.0.0.vendor_id = 0x1002
opencl.0.0.version = OpenCL 2.0
opencl.0.0.driver_version = {driver}
opencl.0.0.compute_units = {units}
opencl.0.0.clock_mhz = {clock}
opencl.0.0.global_mem = {memory}
opencl.0.0.local_mem = 65536
opencl.0.0.local_mem_type = 1
opencl.0.0.work_group_size = 256
opencl.0.0.work_item_sizes = 1024,1024,1024
opencl.0.0.extensions = cl_khr_fp64 cl_khr_pci_bus_info cl_amd_device_attribute_query
opencl.0.0.pci_bus_info = 0000:c3:00.0
opencl.0.0.wavefront_width_amd = 32
opencl.0.1.type = 2
opencl.0.1.name = a CPU device
opencl.0.1.vendor_id = 0x1022
opencl.0.1.compute_units = 7
"""


def probe(conf_text):
    """The spec's GPUs: [(id, device)]."""
    conf = os.path.join(T, "opencl.conf")
    with open(conf, "w") as f:
        f.write(conf_text)
    env = dict(os.environ, LD_LIBRARY_PATH=DOUBLES, SYSDESC_DOUBLE_CONFIG=conf,
               XDG_CACHE_HOME=os.path.join(T, "cache"))
    # --no-catalog: the catalog may fill num_compute_units for a GPU it
    # knows; the question here is what OpenCL gives.
    r = subprocess.run([SYSDESC, "probe", "--format", "json", "-q", "--no-cache",
                        "--no-catalog", "--runtimes=opencl"] + QUICK,
                       capture_output=True, text=True, env=env, timeout=120)
    if not check(r.returncode == 0, "probe: exit %d %s" % (r.returncode, r.stderr.strip()[:300])):
        return []
    d = json.loads(r.stdout)
    return [(k, v) for k, v in d.items() if k.startswith("GPU")]


def one_gpu(what, gpus, name):
    """The double's one GPU, seen through OpenCL (its other values lifted)."""
    if not check(len(gpus) == 1, "%s: one GPU (%s)" % (what, [k for k, _ in gpus])):
        return {}, {}
    g = gpus[0][1]
    view = g.get("runtimes", {}).get("opencl", {})
    check(view.get("device_name") == name, "%s: runtimes.opencl.device_name %r, want %r"
          % (what, view.get("device_name"), name))
    check(g.get("pci_bus_id") == "0000:c3:00.0",
          "%s: pci_bus_id from cl_khr_pci_bus_info (%s)" % (what, g.get("pci_bus_id")))
    return g, view


def lifted(what, g, key, want):
    check(g.get(key) == want and g.get("source", {}).get(key, "").startswith("opencl:"),
          "%s: %s = %s from opencl (%s; source %r)" %
          (what, key, want, g.get(key), g.get("source", {}).get(key)))


# (a) ROCm's OpenCL on RDNA 3: 48 units are 48 WGPs (96 CUs); no
# num_compute_units from it, the view keeps the driver's number.
what = "(a) AMD APP, gfx1100, 48 units"
g, view = one_gpu(what, probe(config(AMD_APP, "gfx1100", 48, 2371, 25753026560)), "gfx1100")
check("num_compute_units" not in g and "num_compute_units" not in g.get("source", {}),
      "%s: no top-level num_compute_units (%s; source %r)" %
      (what, g.get("num_compute_units"), g.get("source", {}).get("num_compute_units")))
check(view.get("max_compute_units") == 48,
      "%s: runtimes.opencl.max_compute_units = 48 (%s)" % (what, view.get("max_compute_units")))
# Only that key is left out: the device's other unified keys are lifted.
lifted(what, g, "max_clock_in_mhz", 2371)
lifted(what, g, "memory_size_in_bytes", 25753026560)
lifted(what, g, "subgroup_sizes", [32])

# (b) The same platform on CDNA 3 (gfx942) counts CUs: 304.
what = "(b) AMD APP, gfx942, 304 units"
g, view = one_gpu(what, probe(config(AMD_APP, "gfx942", 304, 2100, 206141652992)), "gfx942")
lifted(what, g, "num_compute_units", 304)
check(view.get("max_compute_units") == 304,
      "%s: runtimes.opencl.max_compute_units = 304 (%s)" % (what, view.get("max_compute_units")))
lifted(what, g, "max_clock_in_mhz", 2100)

# (c) Mesa's rusticl on an RDNA 3 GPU counts CUs: its number is lifted.
what = "(c) rusticl, RDNA 3, 96 units"
name = "AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 19.1.7, DRM 3.61, 6.12.0)"
g, view = one_gpu(what, probe(config(RUSTICL, name, 96, 2482, 25753026560)), name)
lifted(what, g, "num_compute_units", 96)
check(view.get("max_compute_units") == 96,
      "%s: runtimes.opencl.max_compute_units = 96 (%s)" % (what, view.get("max_compute_units")))

print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
