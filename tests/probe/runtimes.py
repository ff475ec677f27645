#!/usr/bin/env python3
"""The vendor runtimes of a host probe (docs/runtimes.md), with the real ones
this machine has and with a test double of the OpenCL loader:

1. every value of every runtimes.opencl and runtimes.vulkan view against
   what `clinfo --raw` and `vulkaninfo` print for the same device (pocl and
   lavapipe on a machine without a GPU, where they are the CPU's views);
   the spec passes `sysdesc check` and `mlir-opt-22` prints it unchanged;
2. a runtime that is missing or finds no driver is skipped with a source line;
3. the cache of the runtimes' answers: used, bypassed with --no-cache,
   renewed with --refresh-cache, ignored when corrupt or stale (a library
   changed, another environment);
4. a runtime that hangs is abandoned within the bound, one that crashes
   costs its own view only, and a runtime's chatter stays out of the output;
5. a GPU only a runtime sees (the test double's, at a real PCI address of
   this machine) is one device: its PCI identity from sysfs; filled only from
   a catalog entry whose compute units are its own (a partition profile, not
   the whole product that alone claims the id), its live values winning over
   the entry where they disagree, the disagreement recorded.

Environment: SYSDESC (the tool), SRCDIR, FAKE_OPENCL_DIR (the folder of the
test double libOpenCL.so.1).  Parts whose runtime is absent are skipped.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.environ["SRCDIR"], "tests"))
from timebound import limit  # noqa: E402
from topology import skip_if_foreign  # noqa: E402

SYSDESC = os.environ["SYSDESC"]
skip_if_foreign("the vendor runtimes")
SRCDIR = os.environ["SRCDIR"]
FAKE = os.environ["FAKE_OPENCL_DIR"]
failures = 0
T = tempfile.mkdtemp(prefix="sysdesc-runtimes-")
RUNTIME_DIR = os.path.join(T, "xdg-runtime")
# meson puts the folders of the shared libraries a test depends on, the test
# double's included, in LD_LIBRARY_PATH: the real runtimes are asked without it.
os.environ["LD_LIBRARY_PATH"] = ":".join(
    p for p in os.environ.get("LD_LIBRARY_PATH", "").split(":")
    if p and os.path.realpath(p) != os.path.realpath(FAKE))
os.mkdir(RUNTIME_DIR, 0o700)


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1
    return cond


def env(**kw):
    e = dict(os.environ)
    e["XDG_CACHE_HOME"] = os.path.join(T, "cache")
    e["XDG_RUNTIME_DIR"] = RUNTIME_DIR  # vulkaninfo wants one
    for k, v in kw.items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    return e


def sysdesc(*args, e=None, timeout=120):
    return subprocess.run([SYSDESC] + list(args), capture_output=True, text=True,
                          env=e or env(), timeout=timeout)


def probe(*args, e=None):
    r = sysdesc("probe", "--format", "json", "-q", *args, e=e)
    check(r.returncode == 0, "probe %s: exit %d %s" % (" ".join(args), r.returncode, r.stderr.strip()[:300]))
    d = json.loads(r.stdout) if r.returncode == 0 else {}
    d.pop("data_layout", None)  # the CPU triple's data layout (docs/layout.md): no device
    return d


def have(tool):
    return shutil.which(tool) is not None


# ---- 1. every value against clinfo --raw and vulkaninfo ----

def clinfo_devices():
    """{(platform index, device index): {CL_NAME: value}} from clinfo --raw."""
    r = subprocess.run(["clinfo", "--raw"], capture_output=True, text=True, env=env())
    suffixes, devs, plat = [], {}, {}
    for line in r.stdout.splitlines():
        m = re.match(r"\[([^/\]]+)/(\*|\d+)\]\s+(\S+)\s*(.*)$", line)
        if not m:
            continue
        sfx, idx, name, val = m.groups()
        if sfx not in suffixes:
            suffixes.append(sfx)
        p = suffixes.index(sfx)
        if idx == "*":
            plat.setdefault(p, {})[name] = val.strip()
        else:
            devs.setdefault((p, int(idx)), {})[name] = val.strip()
    top = {}  # the platform lines before the first [X/*] (name, vendor, version), in order
    order = []
    for line in r.stdout.splitlines():
        m = re.match(r"\s+(CL_PLATFORM_\w+)\s+(.*)$", line)
        if m:
            if m.group(1) == "CL_PLATFORM_NAME":
                order.append({})
            order[-1][m.group(1)] = m.group(2).strip()
    for i, d in enumerate(order):
        top[i] = d
    return devs, top


def cl_bool(v):
    return {"CL_TRUE": True, "CL_FALSE": False}[v]


def uuid_hex(s):
    return re.sub(r"[^0-9a-f]", "", s.lower())


CACHE_KEYS = {"global_memory_cache_size_in_bytes": "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE",
              "global_memory_cache_line_size_in_bytes": "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE"}


def compare_cache(where, view, cl):
    """The global memory cache's size and line as clinfo prints them: only for
    a cache whose type is not CL_NONE (clinfo's dev_has_cache), and the
    probe leaves them out as clinfo does."""
    has = cl.get("CL_DEVICE_GLOBAL_MEM_CACHE_TYPE", "CL_NONE") != "CL_NONE"
    for k, name in CACHE_KEYS.items():
        if has:
            check(k in view and str(view[k]) == cl.get(name),
                  "%s: opencl %s = %r, clinfo %r" % (where, k, view.get(k), cl.get(name)))
        else:
            check(k not in view and name not in cl,
                  "%s: a cache of type none: no %s (clinfo prints no %s)" % (where, k, name))


def compare_opencl(where, view, devs, plats):
    key = (view["platform_index"], view["device_index"])
    cl = devs.get(key)
    if not check(cl is not None, "%s: clinfo lists OpenCL platform %d device %d" % ((where,) + key)):
        return
    pl = plats.get(view["platform_index"], {})
    exts = cl.get("CL_DEVICE_EXTENSIONS", "").split()
    vw = {"char": "CHAR", "short": "SHORT", "int": "INT", "long": "LONG", "float": "FLOAT",
          "double": "DOUBLE", "half": "HALF"}
    simple = {
        "platform_name": lambda: pl.get("CL_PLATFORM_NAME"),
        "platform_vendor": lambda: pl.get("CL_PLATFORM_VENDOR"),
        "platform_version": lambda: pl.get("CL_PLATFORM_VERSION"),
        "device_name": lambda: cl["CL_DEVICE_NAME"],
        "device_vendor": lambda: cl["CL_DEVICE_VENDOR"],
        "vendor_id": lambda: int(cl["CL_DEVICE_VENDOR_ID"], 0),
        "device_type": lambda: cl["CL_DEVICE_TYPE"].split()[0].replace("CL_DEVICE_TYPE_", ""),
        "device_version": lambda: cl["CL_DEVICE_VERSION"],
        "driver_version": lambda: cl["CL_DRIVER_VERSION"],
        "opencl_c_version": lambda: cl["CL_DEVICE_OPENCL_C_VERSION"],
        "max_compute_units": lambda: int(cl["CL_DEVICE_MAX_COMPUTE_UNITS"]),
        "max_clock_frequency_in_mhz": lambda: int(cl["CL_DEVICE_MAX_CLOCK_FREQUENCY"]),
        "max_work_group_size": lambda: int(cl["CL_DEVICE_MAX_WORK_GROUP_SIZE"]),
        "max_work_item_sizes": lambda: [int(x) for x in cl["CL_DEVICE_MAX_WORK_ITEM_SIZES"].split()],
        "max_num_subgroups": lambda: int(cl["CL_DEVICE_MAX_NUM_SUB_GROUPS"]),
        "local_memory_size_in_bytes": lambda: int(cl["CL_DEVICE_LOCAL_MEM_SIZE"]),
        "local_memory_type": lambda: {"CL_LOCAL": "local", "CL_GLOBAL": "global"}.get(
            cl["CL_DEVICE_LOCAL_MEM_TYPE"], "none"),
        "max_memory_allocation_in_bytes": lambda: int(cl["CL_DEVICE_MAX_MEM_ALLOC_SIZE"]),
        "global_memory_cache_type": lambda: {"CL_READ_WRITE_CACHE": "read_write",
                                             "CL_READ_ONLY_CACHE": "read_only"}.get(
            cl["CL_DEVICE_GLOBAL_MEM_CACHE_TYPE"], "none"),
        "max_constant_buffer_size_in_bytes": lambda: int(cl["CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE"]),
        "preferred_vector_width": lambda: {t: int(cl["CL_DEVICE_PREFERRED_VECTOR_WIDTH_" + c])
                                           for t, c in vw.items()},
        "native_vector_width": lambda: {t: int(cl["CL_DEVICE_NATIVE_VECTOR_WIDTH_" + c])
                                        for t, c in vw.items()},
        "fp64": lambda: cl.get("CL_DEVICE_DOUBLE_FP_CONFIG", "") != "",
        "fp16": lambda: "cl_khr_fp16" in exts,
        "error_correction_support": lambda: cl_bool(cl["CL_DEVICE_ERROR_CORRECTION_SUPPORT"]),
        "host_unified_memory": lambda: cl_bool(cl["CL_DEVICE_HOST_UNIFIED_MEMORY"]),
        "address_bits": lambda: int(cl["CL_DEVICE_ADDRESS_BITS"]),
        "preferred_work_group_size_multiple":
            lambda: int(cl["CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE"]),
        "extensions": lambda: exts,
        "subgroup_sizes": lambda: [int(x) for x in (
            cl.get("CL_DEVICE_SUB_GROUP_SIZES_INTEL") or cl.get("CL_DEVICE_WARP_SIZE_NV") or
            cl.get("CL_DEVICE_WAVEFRONT_WIDTH_AMD")).split()],
        "uuid": lambda: view["uuid"] if uuid_hex(cl.get("CL_DEVICE_UUID_KHR", "")) == uuid_hex(view["uuid"]) else cl.get("CL_DEVICE_UUID_KHR"),
        "pci_bus_id": lambda: view["pci_bus_id"] if any(
            v.endswith(view["pci_bus_id"]) or v.endswith(view["pci_bus_id"][5:])
            for k, v in cl.items() if "PCI" in k or "TOPOLOGY" in k) else None,
        "platform_index": lambda: view["platform_index"],  # the key itself
        "device_index": lambda: view["device_index"],
    }
    compare_cache(where, view, cl)
    # What clinfo prints, the view holds (clinfo's "(device)" multiple is the
    # OpenCL 3.0 device query).
    for k, name in (("preferred_work_group_size_multiple",
                     "CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE"),
                    ("extensions", "CL_DEVICE_EXTENSIONS")):
        if cl.get(name, "").strip():
            check(k in view, "%s: clinfo prints %s, the view has no %s" % (where, name, k))
    for k, v in view.items():
        if k in CACHE_KEYS:
            continue
        if k == "global_memory_size_in_bytes":
            # pocl's follows free memory: a value near clinfo's, never above the RAM
            want = int(cl["CL_DEVICE_GLOBAL_MEM_SIZE"])
            check(0 < v and abs(v - want) <= want // 2,
                  "%s: opencl %s %d near clinfo's %d (it moves with free memory)" % (where, k, v, want))
            continue
        if not check(k in simple, "%s: opencl %s has a clinfo counterpart" % (where, k)):
            continue
        want = simple[k]()
        check(v == want, "%s: opencl %s = %r, clinfo %r" % (where, k, v, want))


def vulkaninfo_devices():
    """{index: {name: value or [values] or heaps}} from vulkaninfo's GPU<i> blocks."""
    r = subprocess.run(["vulkaninfo"], capture_output=True, text=True, env=env())
    devs, cur, arr = {}, None, None
    heaps = sub = exts = None
    for line in r.stdout.splitlines():
        m = re.match(r"^GPU(\d+):$", line)
        if m:
            cur = devs.setdefault(int(m.group(1)), {"heaps": []})
            arr = sub = exts = None
            continue
        if cur is None:
            continue
        # "Device Extensions: count = N", then "\tNAME : extension revision R"
        if re.match(r"^Device Extensions: count = \d+$", line):
            exts = cur.setdefault("extensions", [])
            continue
        m = re.match(r"^\t(\S+)\s*: extension revision", line)
        if m and exts is not None:
            exts.append(m.group(1))
            continue
        exts = None
        # "\tconformanceVersion:", then "\t\tmajor    = 1" ...
        m = re.match(r"^\t(\w+):$", line)
        if m:
            sub = cur.setdefault(m.group(1), {})
            continue
        m = re.match(r"^\t\t(\w+)\s+=\s+(\S+)$", line)
        if m and sub is not None:
            sub[m.group(1)] = m.group(2)
            continue
        if not line.startswith("\t\t"):
            sub = None
        if line.startswith("memoryHeaps:"):
            heaps = cur["heaps"]
            continue
        if line.startswith("memoryTypes:"):
            heaps = None
            continue
        if heaps is not None:
            m = re.match(r"\t\tsize\s+=\s+(\d+)", line)
            if m:
                heaps.append({"size": int(m.group(1)), "local": False})
            elif "MEMORY_HEAP_DEVICE_LOCAL_BIT" in line and heaps:
                heaps[-1]["local"] = True
            continue
        m = re.match(r"^\t(\w+): count = \d+$", line)
        if m:
            arr = cur.setdefault(m.group(1), [])
            if cur[m.group(1)] is not arr:
                arr = None
            continue
        m = re.match(r"^\t\t(\d+)$", line)
        if m and arr is not None:
            arr.append(int(m.group(1)))
            continue
        m = re.match(r"^\t(\w+)\s+=\s+(.*)$", line)
        if m:
            arr = None
            cur.setdefault(m.group(1), m.group(2).strip())
    return devs


def compare_vulkan(where, view, vk):
    d = vk.get(view["device_index"])
    if not check(d is not None, "%s: vulkaninfo lists GPU%d" % (where, view["device_index"])):
        return
    num = lambda s: int(s.split()[0], 0)
    simple = {
        "device_index": lambda: view["device_index"],
        "device_name": lambda: d["deviceName"],
        "device_type": lambda: d["deviceType"].replace("PHYSICAL_DEVICE_TYPE_", "").lower(),
        "api_version": lambda: d["apiVersion"].split()[0],
        "driver_version": lambda: d["driverVersion"].split()[0],
        "vendor_id": lambda: num(d["vendorID"]),
        "device_id": lambda: num(d["deviceID"]),
        "driver_name": lambda: d["driverName"],
        "driver_info": lambda: d["driverInfo"],
        "conformance_version": lambda: "%s.%s.%s.%s" % tuple(
            d["conformanceVersion"][k] for k in ("major", "minor", "subminor", "patch")),
        # vulkaninfo sorts them; the view keeps the driver's order
        "extensions": lambda: sorted(view["extensions"]) == sorted(d["extensions"]) and
        view["extensions"] or sorted(d["extensions"]),
        "max_compute_work_group_invocations": lambda: num(d["maxComputeWorkGroupInvocations"]),
        "max_compute_work_group_size": lambda: d["maxComputeWorkGroupSize"],
        "max_compute_work_group_count": lambda: d["maxComputeWorkGroupCount"],
        "max_compute_shared_memory_size_in_bytes": lambda: num(d["maxComputeSharedMemorySize"]),
        "subgroup_size": lambda: num(d["subgroupSize"]),
        "min_subgroup_size": lambda: num(d["minSubgroupSize"]),
        "max_subgroup_size": lambda: num(d["maxSubgroupSize"]),
        "max_compute_workgroup_subgroups": lambda: num(d["maxComputeWorkgroupSubgroups"]),
        "memory_heap_sizes_in_bytes": lambda: [h["size"] for h in d["heaps"]],
        "device_local_heap_sizes_in_bytes": lambda: [h["size"] for h in d["heaps"] if h["local"]],
        "device_uuid": lambda: d["deviceUUID"],
        "pci_bus_id": lambda: "%04x:%02x:%02x.%x" % (num(d["pciDomain"]), num(d["pciBus"]),
                                                     num(d["pciDevice"]), num(d["pciFunction"])),
    }
    check(len(view.get("extensions", [])) == len(d.get("extensions", [])) > 0 and
          ("conformance_version" in view) == ("conformanceVersion" in d),
          "%s: vulkan: %d extensions against vulkaninfo's %d; conformance version %r" % (
              where, len(view.get("extensions", [])), len(d.get("extensions", [])),
              view.get("conformance_version")))
    for k, v in view.items():
        if not check(k in simple, "%s: vulkan %s has a vulkaninfo counterpart" % (where, k)):
            continue
        want = simple[k]()
        check(v == want, "%s: vulkan %s = %r, vulkaninfo %r" % (where, k, v, want))


spec = probe("--no-cache")
seen = {"opencl": 0, "vulkan": 0}
devs, plats = clinfo_devices() if have("clinfo") else ({}, {})
vk = vulkaninfo_devices() if have("vulkaninfo") else {}
for dev, d in spec.items():
    for rt, view in d.get("runtimes", {}).items():
        if rt == "opencl" and have("clinfo"):
            compare_opencl(dev, view, devs, plats)
            seen["opencl"] += 1
        elif rt == "vulkan" and have("vulkaninfo"):
            compare_vulkan(dev, view, vk)
            seen["vulkan"] += 1
# pocl and lavapipe (install-deps installs them) are the host CPU's views.
cpu_rts = spec.get("CPU", {}).get("runtimes", {})
for rt, tool, pkg in (("opencl", "clinfo", "pocl-opencl-icd"), ("vulkan", "vulkaninfo", "mesa-vulkan-drivers")):
    if have(tool) and (devs if rt == "opencl" else vk):
        check(seen[rt] >= 1, "%s: a device has a %s view (%s)" % (rt, rt, pkg))
for rt, want in (("opencl", "CPU"), ("vulkan", "cpu")):
    if rt in cpu_rts:
        check(cpu_rts[rt]["device_type"] == want, "the CPU's %s view is a CPU device" % rt)
check(all(d.get("device_type") != "GPU" or "llvmpipe" not in d.get("model", "") and "pthread" not in d.get("model", "")
          for d in spec.values()), "pocl and lavapipe are not new accelerators")
out = os.path.join(T, "host.mlir")
r = sysdesc("probe", "-q", "-o", out)
check(r.returncode == 0, "probe -o")
r = sysdesc("check", out)
check(r.returncode == 0, "sysdesc check accepts the spec with its runtimes: %s" % r.stdout.strip()[:300])
if have("mlir-opt-22"):
    r = subprocess.run(["mlir-opt-22", out], capture_output=True, text=True)
    check(r.returncode == 0 and r.stdout == open(out).read(),
          "mlir-opt-22 prints the spec with runtimes unchanged %s" % r.stderr[:300])

# The peer's output is the variable here (pocl's cache type differs between
# hosts): the test double's CPU device with and without a global memory
# cache, against what clinfo --raw prints for such a device.
for cache, lines in (("none", {"CL_DEVICE_GLOBAL_MEM_CACHE_TYPE": "CL_NONE"}),
                     ("read_write", {"CL_DEVICE_GLOBAL_MEM_CACHE_TYPE": "CL_READ_WRITE_CACHE",
                                     "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE": "1048576",
                                     "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE": "64"})):
    d = probe("--no-cache", "--runtimes=opencl",
              e=env(LD_LIBRARY_PATH=FAKE, FAKE_OPENCL="gpu", FAKE_OPENCL_CACHE=cache))
    view = d.get("CPU", {}).get("runtimes", {}).get("opencl", {})
    check(view.get("global_memory_cache_type") == cache,
          "test double, cache %s: the type is %r" % (cache, view.get("global_memory_cache_type")))
    compare_cache("test double (cache %s)" % cache, view, lines)

# ---- 2. a runtime missing or without a driver ----

empty = os.path.join(T, "empty")
os.mkdir(empty)
bogus = os.path.join(T, "bogus-lib")
os.mkdir(bogus)
with open(os.path.join(bogus, "libvulkan.so.1"), "w") as f:
    f.write("not a shared library\n")
with open(os.path.join(bogus, "libOpenCL.so.1"), "w") as f:
    f.write("not a shared library\n")


def cpu_source(*args, e=None):
    d = probe("--no-cache", *args, e=e)
    return d.get("CPU", {}).get("source", {}), d.get("CPU", {}).get("runtimes", {})


src, rts = cpu_source(e=env(OCL_ICD_VENDORS=empty, VK_ICD_FILENAMES=os.path.join(empty, "none.json"),
                            VK_DRIVER_FILES=os.path.join(empty, "none.json")))
check("opencl" not in rts and "no OpenCL platform" in src.get("runtimes.opencl", ""),
      "OCL_ICD_VENDORS at an empty folder: opencl skipped: %r" % src.get("runtimes.opencl"))
check("vulkan" not in rts and "no Vulkan" in src.get("runtimes.vulkan", ""),
      "no Vulkan ICD: vulkan skipped: %r" % src.get("runtimes.vulkan"))
src, rts = cpu_source(e=env(LD_LIBRARY_PATH=bogus))
for rt, lib in (("opencl", "libOpenCL.so.1"), ("vulkan", "libvulkan.so.1")):
    check(rt not in rts and src.get("runtimes." + rt, "").startswith(lib + " not loaded"),
          "%s that is not a library: %s skipped: %r" % (lib, rt, src.get("runtimes." + rt)))
src, rts = cpu_source("--runtimes=none")
check(not rts and src.get("runtimes.opencl") == "not asked (runtimes option)" and
      "runtimes" not in src, "--runtimes=none asks none")
src, rts = cpu_source("--runtimes=vulkan")
check("opencl" not in rts and src.get("runtimes.opencl") == "not asked (runtimes option)",
      "--runtimes=vulkan leaves OpenCL out")

# ---- 3. the cache ----

ask_log = os.path.join(T, "asked")
fake_env = env(LD_LIBRARY_PATH=FAKE, FAKE_OPENCL_LOG=ask_log, FAKE_OPENCL="gpu")
cache_dir = os.path.join(T, "cache", "sysdesc")
shutil.rmtree(cache_dir, ignore_errors=True)


def asked():
    return len(open(ask_log).readlines()) if os.path.exists(ask_log) else 0


def query(*args, e=fake_env):
    r = sysdesc("query", "--host", "-q", *args, e=e)
    return r.returncode, r.stdout.strip()


rc, out1 = query("CPU", "runtimes", "opencl", "device_name")
check(rc == 0 and out1 == '"Fake CPU"' and asked() == 1, "the test double answers (asked once): %s" % out1)
entries = [f for f in os.listdir(cache_dir) if f.startswith("runtimes-")] if os.path.isdir(cache_dir) else []
check(len(entries) == 1, "one cache entry written: %s" % entries)
rc, out2 = query("CPU", "runtimes", "opencl", "device_name")
check(rc == 0 and out2 == out1 and asked() == 1, "the second query answers from the cache (not asked)")
cold = sysdesc("probe", "-q", "--refresh-cache", e=fake_env).stdout
check(asked() == 2, "--refresh-cache asks again")
warm = sysdesc("probe", "-q", e=fake_env).stdout
check(asked() == 2, "and the entry it wrote answers the next probe")
strip = lambda s: re.sub(r', "runtimes" = "[^"]*"', "", s)
check(strip(cold) == strip(warm) and cold != warm,
      "a cached answer gives the same spec; only CPU.source.runtimes says it came from the cache")
query("--no-cache", "CPU", "device_type")
check(asked() == 3, "--no-cache asks the runtimes")
path = os.path.join(cache_dir, entries[0]) if entries else os.path.join(T, "none")
for what, data in (("truncated", open(path).read()[:200] if entries else ""),
                   ("not DLTI", "garbage\x00\xff\n"),
                   ("another key", '#dlti.map<"key" = "something else", "answer" = #dlti.map<>>\n'),
                   ("an answer of the wrong shape",
                    None)):
    if data is None:
        text = open(path).read()
        data = re.sub(r'"devices" = \[', '"devices" = [1, ', text, count=1)
    with open(path, "w", errors="surrogateescape") as f:
        f.write(data)
    before = asked()
    rc, out = query("CPU", "runtimes", "opencl", "device_name")
    check(rc == 0 and out == out1 and asked() == before + 1,
          "a cache entry that is %s is ignored: the runtimes are asked again" % what)
    check(open(path).read().startswith('#dlti.map<"key"'), "... and the entry is written anew")
before = asked()
lib = os.path.join(FAKE, "libOpenCL.so.1")
st = os.stat(lib)
os.utime(lib, ns=(st.st_atime_ns, st.st_mtime_ns + 1000000000))
query("CPU", "device_type")
check(asked() == before + 1, "a library the runtime loaded changed: the entry is stale, asked again")
query("CPU", "device_type")
check(asked() == before + 1, "... and the new entry answers")
query("CPU", "device_type", e=dict(fake_env, CUDA_VISIBLE_DEVICES="1"))
check(asked() == before + 2, "another CUDA_VISIBLE_DEVICES is another entry")
os.chmod(cache_dir, 0o500)
rc, out = query("--refresh-cache", "CPU", "device_type")
check(rc == 0 and out == '"CPU"', "a cache directory that cannot be written is no error")
os.chmod(cache_dir, 0o700)

# ---- 4. bounded time, crashes, chatter ----

for mode in ("hang", "crash"):
    t0 = time.monotonic()
    # 3 s: lavapipe, asked at the same time, answers within it even under a
    # sanitizer on a loaded machine
    bound = ["--runtime-timeout=3000"] if mode == "hang" else []
    r = sysdesc("probe", "--format", "json", "-q", "--no-cache", *bound,
                e=dict(fake_env, FAKE_OPENCL=mode), timeout=60)
    took = time.monotonic() - t0
    d = json.loads(r.stdout) if r.returncode == 0 else {}
    src = d.get("CPU", {}).get("source", {})
    rts = d.get("CPU", {}).get("runtimes", {})
    why = src.get("runtimes.opencl", "")
    if mode == "hang":
        most = 3 + limit(5)
        check(r.returncode == 0 and took < most and why.startswith("no answer within 3000 ms"),
              "a hanging OpenCL is abandoned at the bound (%.2f s, limit %.0f s): %r"
              % (took, most, why))
    else:
        check(r.returncode == 0 and why.startswith("crashed in its probe (signal 11"),
              "a crashing OpenCL costs its own view: %r" % why)
    check("opencl" not in rts and ("vulkan" in rts or not vk), "%s: the other runtimes still answer" % mode)
check(not [f for f in os.listdir(cache_dir) if f.startswith(".runtimes-")], "no temporary file left behind")
r = sysdesc("probe", "-q", "--no-cache", e=dict(fake_env, FAKE_OPENCL="chatter"))
check(r.returncode == 0 and "chatter" not in r.stdout and "chatter" not in r.stderr
      and r.stdout.startswith("module attributes"), "a runtime's chatter stays out of the output")

# ---- 5. a GPU only a runtime sees, filled from the catalog ----

def not_accelerator(bus):
    """A PCI device that hwloc's discovery does not make a GPU (a bridge, a NIC)."""
    try:
        cls = int(open("/sys/bus/pci/devices/%s/class" % bus).read(), 0) >> 16
    except OSError:
        return False
    return cls not in (0x03, 0x12)


pci = sorted(b for b in os.listdir("/sys/bus/pci/devices") if not_accelerator(b)) \
    if os.path.isdir("/sys/bus/pci/devices") else []
if not pci:
    print("SKIP: no /sys/bus/pci/devices: the GPU part needs a real PCI address")
else:
    bus = pci[0]
    rd = lambda a: int(open("/sys/bus/pci/devices/%s/%s" % (bus, a)).read(), 0)
    ven, dev = rd("vendor"), rd("device")
    cat = os.path.join(T, "catalog", "test")
    os.makedirs(cat)
    with open(os.path.join(cat, "fake-gpu.yaml"), "w") as f:
        f.write("""GPU:
  device_type: GPU
  schema_version: 1
  vendor: Test
  model: The whole fake GPU
  pci_vendor_id: %d
  pci_device_ids: [%d]
  num_compute_units: 132
  max_threads_per_block: 1024
  tdp_in_watts: 700
""" % (ven, dev))
    # The test double only (a machine with GPUs has other runtimes, and
    # hwloc's GPUs come first with --io).
    ge = dict(fake_env, FAKE_OPENCL_BUS_ID=bus, SYSDESC_PATH=os.path.join(T, "catalog"))

    def runtime_gpu(io):
        d = probe("--no-cache", "--runtimes=opencl", io, e=ge)
        gpus = [k for k, v in d.items() if v.get("device_type") == "GPU" and v.get("pci_bus_id") == bus]
        if not check(len(gpus) == 1 and (io == "--io" or gpus == ["GPU0"]),
                     "%s: the runtime's GPU at %s is one device (GPU0 without I/O): %s" % (io, bus, gpus)):
            return d, {}
        return d, d[gpus[0]]

    # The device (14 compute units, a slice) is not the whole product (132):
    # nothing of the whole GPU is filled, and source.catalog says why.
    d, g = runtime_gpu("--no-io")
    how = g.get("source", {}).get("catalog", "")
    check(g.get("num_compute_units") == 14 and "tdp_in_watts" not in g and
          "nothing filled, the device is not that product" in how and
          "not test/fake-gpu: num_compute_units 14, not 132" in how,
          "a 14-CU device is not filled from the 132-CU product that alone claims its id: %r" % how)
    # Its partition profile, declared a variant of the product, is what it is.
    with open(os.path.join(cat, "fake-gpu-slice.yaml"), "w") as f:
        f.write("""# A partition of the whole fake GPU.
# variant-of: test/fake-gpu
GPU:
  device_type: GPU
  schema_version: 1
  vendor: Test
  model: The fake GPU, one slice
  is_partition: true
  num_partitions_per_package: 7
  pci_vendor_id: %d
  pci_device_ids: [%d]
  num_compute_units: 14
  max_threads_per_block: 512
  memory_size_in_bytes: 10200547328
  tdp_in_watts: 100
""" % (ven, dev))
    for io in ("--no-io", "--io"):
        d, g = runtime_gpu(io)
        if not g:
            continue
        check(g.get("pci_vendor_id") == ven and g.get("pci_device_id") == dev,
              "%s: its PCI identity (%04x:%04x)" % (io, ven, dev))
        how = g["source"].get("catalog", "")
        check(": the device is test/fake-gpu-slice (" in how and
              "not test/fake-gpu: num_compute_units 14, not 132" in how,
              "%s: the slice is told from the whole product: %r" % (io, how))
        check(g.get("num_compute_units") == 14 and
              g["source"].get("num_compute_units", "").startswith("opencl: Fake OpenCL, driver 1.2.3"),
              "%s: the live SM count (14) stays, with its runtime and driver as source" % io)
        check(g.get("disagreements", {}).get("max_threads_per_block") == {"catalog test/fake-gpu-slice": 512},
              "%s: the catalog's 512 threads a block are recorded as a disagreement" % io)
        check(g.get("tdp_in_watts") == 100 and g["source"].get("tdp_in_watts") == "catalog test/fake-gpu-slice",
              "%s: what no runtime says comes from the partition's entry, and says so" % io)
        check(g.get("subgroup_sizes") == [32] and g.get("runtimes", {}).get("opencl", {}).get("uuid")
              == "abcdef01-2345-6789-abcd-ef0123456789", "%s: the GPU's own OpenCL view" % io)
        check("opencl" in d["CPU"].get("runtimes", {}) and
              d["CPU"]["runtimes"]["opencl"]["device_name"] == "Fake CPU",
              "%s: the runtime's CPU device stays the CPU's view" % io)
    r = sysdesc("query", "--host", "-q", "--no-cache", "--runtimes=opencl", "GPU0", "num_compute_units", e=ge)
    check(r.returncode == 0 and r.stdout.strip() == "14 : i64", "query --host GPU0 num_compute_units: %s" % r.stdout.strip())
    out = os.path.join(T, "gpu.mlir")
    sysdesc("probe", "-q", "--no-cache", "--runtimes=opencl", "-o", out, e=ge)
    r = sysdesc("check", out)
    check(r.returncode == 0, "the spec with the runtime's GPU passes sysdesc check: %s" % (r.stdout + r.stderr)[:600])
    if have("mlir-opt-22"):
        r = subprocess.run(["mlir-opt-22", out], capture_output=True, text=True)
        check(r.returncode == 0 and r.stdout == open(out).read(), "mlir-opt-22 prints it unchanged")

shutil.rmtree(T, ignore_errors=True)
print("%d failure(s)" % failures if failures else "all runtime checks passed")
sys.exit(1 if failures else 0)
