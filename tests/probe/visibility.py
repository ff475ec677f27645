#!/usr/bin/env python3
"""The GPUs this process may use (docs/allocation.md), end to end through
`sysdesc probe`, with the TEST DOUBLES of the CUDA driver and NVML, ROCm's
HSA and AMD SMI, and the Level Zero loader (doubles/README: they prove
nothing about real drivers).

Every case is probed twice where it can be: (a) the runtime answers and has
applied its variable itself, as the real CUDA driver, ROCr and the Level
Zero loader do (the doubles apply it with their own reading of the rules);
(b) the runtime does not answer and the probe applies the variable itself
to the GPUs NVML or AMD SMI report (they ignore the variables, as the real
ones do).  The two must leave the same GPUs in the same order, and that
order must be the one the vendors document, written below as the devices'
PCI bus ids (the configurations give each double its devices, so the test
knows them: nothing here is this machine's).  The whole node's view
(--whole-node) is the peer: every GPU, whatever the variables.

Then the hwloc XML fixtures with several GPUs of several vendors: a
described machine (--xml, HWLOC_XMLFILE) is never filtered (the variables
are this process's environment); HWLOC_THISSYSTEM=1 makes the file this
host's, and then its PCI GPUs are (path b, each vendor keeping its place).

Environment: SYSDESC (the tool), SRCDIR, DOUBLES (the doubles' folder).
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
DOUBLES = os.environ["DOUBLES"]
T = tempfile.mkdtemp(prefix="sysdesc-visibility-")
atexit.register(shutil.rmtree, T, True)
failures = 0

HELP = subprocess.run([SYSDESC, "probe", "--help"], capture_output=True, text=True).stdout
QUICK = ["--gcc=", "--clang="] + (["--llc="] if "--llc" in HELP else [])
VARIABLES = ["CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "ROCR_VISIBLE_DEVICES",
             "HIP_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "ZE_AFFINITY_MASK",
             "ZE_ENABLE_PCI_ID_DEVICE_ORDER", "ZE_FLAT_DEVICE_HIERARCHY"]


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1
    return cond


def write(name, text):
    path = os.path.join(T, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def probe(conf, runtimes, *args, cache="--no-cache", **env):
    """The spec's GPUs, in order: [(id, spec)]."""
    e = {k: v for k, v in os.environ.items()
         if k not in VARIABLES and k not in ("HWLOC_XMLFILE", "HWLOC_THISSYSTEM")}
    e.update(XDG_CACHE_HOME=os.path.join(T, "cache"))
    if conf:
        e.update(LD_LIBRARY_PATH=DOUBLES, SYSDESC_DOUBLE_CONFIG=conf)
    e.update(env)
    host = [] if "--xml" in args else \
        ([cache] if cache else []) + ["--runtimes=" + runtimes] + QUICK
    r = subprocess.run([SYSDESC, "probe", "--format", "json", "-q"] + host + list(args),
                       capture_output=True, text=True, env=e, timeout=120)
    if not check(r.returncode == 0, "probe %s %s: exit %d %s" %
                 (" ".join(args), env, r.returncode, r.stderr.strip()[:300])):
        return []
    d = json.loads(r.stdout)
    return [(k, v) for k, v in d.items() if k.startswith("GPU")]


def buses(gpus):
    return [g.get("pci_bus_id") for _, g in gpus]


def expect(what, gpus, want, value, runtime_applied):
    """The GPUs left are `want` (bus ids, in order), numbered GPU0.. with
    their allocation saying which variables chose them."""
    check(buses(gpus) == want, "%s: GPUs %s, want %s" % (what, buses(gpus), want))
    check([i for i, _ in gpus] == ["GPU%d" % k for k in range(len(gpus))],
          "%s: numbered GPU0.. in the runtime's order (%s)" % (what, [i for i, _ in gpus]))
    for k, (gid, g) in enumerate(gpus):
        a = g.get("allocation", {})
        check(a.get("runtime_index") == k and value in a.get("visible_devices", ""),
              "%s: %s.allocation = %s (runtime_index %d, %s)" % (what, gid, a, k, value))
        how = g.get("source", {}).get("allocation", "")
        who = "applied by the" if runtime_applied else "applied by sysdesc"
        check(who in how, "%s: %s.source.allocation says %r: %s" % (what, gid, who, how))


# ---- NVIDIA: CUDA_VISIBLE_DEVICES ----
# Three GPUs; the double enumerates them in its configuration's order
# (CUDA's default FASTEST_FIRST), not by bus id: A, B, C.
A, B, C = "0000:c1:00.0", "0000:41:00.0", "0000:81:00.0"
NV = write("nvidia.conf", """cuda.driver_version = 12040
cuda.count = 3
cuda.0.name = NVIDIA Test A
cuda.0.pci_bus_id = 0000:C1:00.0
cuda.0.uuid = 8932f937d72c4106c12f20bd9faed9f6
cuda.1.name = NVIDIA Test B
cuda.1.pci_bus_id = 0000:41:00.0
cuda.1.uuid = 8932f9aa000000000000000000000001
cuda.2.name = NVIDIA Test C
cuda.2.pci_bus_id = 0000:81:00.0
cuda.2.uuid = 1234567800000000000000000000000f
nvml.count = 3
nvml.0.name = NVIDIA Test B
nvml.0.uuid = GPU-8932f9aa-0000-0000-0000-000000000001
nvml.0.pci_bus_id = 00000000:41:00.0
nvml.1.name = NVIDIA Test C
nvml.1.uuid = GPU-12345678-0000-0000-0000-00000000000f
nvml.1.pci_bus_id = 00000000:81:00.0
nvml.2.name = NVIDIA Test A
nvml.2.uuid = GPU-8932f937-d72c-4106-c12f-20bd9faed9f6
nvml.2.pci_bus_id = 00000000:C1:00.0
nvml.2.mig = 1
nvml.2.mig_max = 7
nvml.2.mig.0.uuid = MIG-5e1fd0a2-7d55-5b35-a8f4-6d1ae0e2a0c1
nvml.2.mig.0.name = NVIDIA Test A MIG 1g.10gb
nvml.2.mig.3.uuid = MIG-77aa0000-0000-0000-0000-000000000003
nvml.2.mig.3.name = NVIDIA Test A MIG 3g.40gb
""")
NV_NO_CUDA = write("nvidia-no-cuda.conf", open(NV).read() + "cuda.init = 3\n")

node = probe(NV, "cuda", "--whole-node")
check(buses(node) == [B, C, A], "the whole node: three GPUs in PCI bus id order (%s)" % buses(node))
plain = probe(NV, "cuda")
check(buses(plain) == buses(node) and all("allocation" not in g for _, g in plain),
      "no variable: the node's GPUs as they are, no allocation map")
wn = probe(NV, "cuda", "--whole-node", CUDA_VISIBLE_DEVICES="2,0")
check(buses(wn) == buses(node) and all("allocation" not in g for _, g in wn),
      "--whole-node with CUDA_VISIBLE_DEVICES=2,0: every GPU (%s)" % buses(wn))
check(all(g.get("runtimes", {}).get("cuda", {}).get("ordinal") is not None for _, g in wn),
      "--whole-node: the CUDA driver saw every GPU (its child ran without the variable)")
# The runtimes' cache keeps the two apart: a filtered answer is not the node's.
probe(NV, "cuda", cache="--refresh-cache", CUDA_VISIBLE_DEVICES="2,0")
for name in ("written", "read back"):
    got = probe(NV, "cuda", "--whole-node", cache=None, CUDA_VISIBLE_DEVICES="2,0")
    check(len(got) == 3 and all(g.get("runtimes", {}).get("cuda") for _, g in got),
          "--whole-node after a filtered probe, its cache entry %s: CUDA's view of every GPU"
          % name)
got = probe(NV, "cuda", cache=None, CUDA_VISIBLE_DEVICES="2,0")
check(buses(got) == [C, A],
      "the filtered probe's cache entry read back (the driver's order): %s" % buses(got))

# In PCI bus id order (B, C, A), as the guide's rules and PyTorch's emulation read them.
NV_CASES = [
    ("2,0", [A, B]),
    ("0,2,-1,1", [B, A]),    # the guide's example: the list ends at -1
    ("", []),                # set but empty: no GPU
    ("1,1", []),             # a device named twice: none
    ("1gpu,0", [C, B]),      # strtoul: "1gpu" is 1
    (" 2 , 1", [A, C]),      # blanks around an index
    ("5,0", []),             # the first entry is invalid
    ("0,5,1", [B]),          # the list ends at the invalid one
    ("GPU-8932f9", []),      # a prefix two GPUs share names neither
    ("GPU-8932f93", [A]),    # a prefix one GPU alone has
    ("GPU-12345678,GPU-8932f937", [C, A]),
    ("GPU-12345678,1", [C]),  # a UUID list ends at an index
    ("0,GPU-12345678", [B]),  # an index list ends at a UUID
]
for value, want in NV_CASES:
    a = probe(NV, "cuda", CUDA_VISIBLE_DEVICES=value, CUDA_DEVICE_ORDER="PCI_BUS_ID")
    b = probe(NV_NO_CUDA, "cuda", CUDA_VISIBLE_DEVICES=value)
    expect("CUDA_VISIBLE_DEVICES=%r, the CUDA driver's" % value, a, want, value, True)
    expect("CUDA_VISIBLE_DEVICES=%r, sysdesc's" % value, b, want, value, False)

# The driver's own order wins where it answered: "0" is its first device (A,
# the configuration's first), where the probe alone takes the PCI bus order (B).
a = probe(NV, "cuda", CUDA_VISIBLE_DEVICES="0")
expect("CUDA_VISIBLE_DEVICES=0, FASTEST_FIRST, the driver's order", a, [A], "0", True)
b = probe(NV_NO_CUDA, "cuda", CUDA_VISIBLE_DEVICES="0")
expect("CUDA_VISIBLE_DEVICES=0 without CUDA: PCI bus id order", b, [B], "0", False)
check(b and "FASTEST_FIRST" in b[0][1]["source"]["allocation"],
      "without CUDA the source says the FASTEST_FIRST order was taken as the bus order")

# MIG instances (NVML's partitions; the CUDA double has none, so the probe
# applies the list): the parent GPU, with the instances named.
for value, parts in [("MIG-5e1fd0a2", ["MIG-5e1fd0a2-7d55-5b35-a8f4-6d1ae0e2a0c1"]),
                     ("MIG-77aa,MIG-5e1f", ["MIG-77aa0000-0000-0000-0000-000000000003",
                                            "MIG-5e1fd0a2-7d55-5b35-a8f4-6d1ae0e2a0c1"])]:
    b = probe(NV, "cuda", CUDA_VISIBLE_DEVICES=value)
    expect("CUDA_VISIBLE_DEVICES=%s" % value, b, [A], value, False)
    check(b and b[0][1]["allocation"].get("partitions") == parts,
          "CUDA_VISIBLE_DEVICES=%s: allocation.partitions %s" %
          (value, b and b[0][1]["allocation"].get("partitions")))

# ---- AMD: ROCR_VISIBLE_DEVICES, then HIP's variable over what it leaves ----
P, Q, R = "0000:11:00.0", "0000:81:00.0", "0000:c1:00.0"


def hsa_agent(i, bdf, uuid):
    return ("hsa.{i}.name = gfx942\nhsa.{i}.vendor = AMD\nhsa.{i}.product = AMD Test {i}\n"
            "hsa.{i}.uuid = {u}\nhsa.{i}.attr.0xa006 = {b}\nhsa.{i}.attr.0xa00f = 0\n"
            ).format(i=i, u=uuid, b=bdf)


def amd_conf(name, order):
    """HSA's agents (a CPU first) in `order` of (bdf, uuid); AMD SMI's by socket."""
    text = "hsa.version_major = 1\nhsa.version_minor = 14\nhsa.count = %d\n" % (len(order) + 1)
    text += "hsa.0.device = 0\nhsa.0.name = AMD EPYC Test\n"
    for i, (bdf, uuid) in enumerate(order):
        text += hsa_agent(i + 1, bdf, uuid)
    text += "smi.sockets = 3\n"
    for k, bdf in enumerate(["0x1100", "0x8100", "0xc100"]):
        text += "smi.%d.count = 1\nsmi.%d.0.bdf = %s\n" % (k, k, bdf)
    return write(name, text)


GPUS = [("0x1100", "GPU-aa00000000000001"), ("0x8100", "GPU-bb00000000000002"),
        ("0xc100", "GPU-cc00000000000003")]
AMD = amd_conf("amd.conf", GPUS)
AMD_NO_HSA = write("amd-no-hsa.conf", open(AMD).read() + "hsa.init = 4104\n")
node = probe(AMD, "rocm", "--whole-node")
check(buses(node) == [P, Q, R], "AMD, the whole node: %s" % buses(node))
AMD_CASES = [  # (variables, GPUs left); HSA's order is the bus order here
    ({"ROCR_VISIBLE_DEVICES": "2,0"}, [R, P]),
    ({"ROCR_VISIBLE_DEVICES": "2,0", "HIP_VISIBLE_DEVICES": "1"}, [P]),
    ({"HIP_VISIBLE_DEVICES": "2,1"}, [R, Q]),
    ({"CUDA_VISIBLE_DEVICES": "1"}, [Q]),       # HIP honours it where HIP_VISIBLE_DEVICES is unset
    ({"GPU_DEVICE_ORDINAL": "0,2"}, [P, R]),
    ({"HIP_VISIBLE_DEVICES": "1", "CUDA_VISIBLE_DEVICES": "0"}, [Q]),  # HIP's own wins
    ({"ROCR_VISIBLE_DEVICES": ""}, []),
    ({"ROCR_VISIBLE_DEVICES": "1,7,0"}, [Q]),
]
for env, want in AMD_CASES:
    value = "; ".join("%s=%s" % kv for kv in env.items() if kv[0] != "CUDA_VISIBLE_DEVICES"
                      or "HIP_VISIBLE_DEVICES" not in env)
    a = probe(AMD, "rocm", **env)
    b = probe(AMD_NO_HSA, "rocm", **env)
    runtime = "ROCR_VISIBLE_DEVICES" in env and want
    expect("%s, ROCm's" % env, a, want, value, runtime)
    expect("%s, sysdesc's" % env, b, want, value, False)
# UUIDs and indices in one list (the ROCm guide's example); AMD SMI knows no UUID.
a = probe(AMD, "rocm", ROCR_VISIBLE_DEVICES="1,GPU-aa00000000000001")
expect("ROCR_VISIBLE_DEVICES=1,GPU-aa...", a, [Q, P], "ROCR_VISIBLE_DEVICES=1,GPU-aa", True)
# HSA's own order wins where it answered: its first GPU agent is R here.
AMD_R_FIRST = amd_conf("amd-r-first.conf", [GPUS[2], GPUS[0], GPUS[1]])
a = probe(AMD_R_FIRST, "rocm", ROCR_VISIBLE_DEVICES="0", HIP_VISIBLE_DEVICES="0")
expect("ROCR_VISIBLE_DEVICES=0, HSA's order", a, [R], "ROCR_VISIBLE_DEVICES=0", True)

# ---- Intel: ZE_AFFINITY_MASK (the Level Zero loader applies it) ----
X, Y, Z = "0000:1a:00.0", "0000:3a:00.0", "0000:9a:00.0"
ZE = write("ze.conf", "".join(
    "ze.{i}.name = Intel Test {i}\nze.{i}.device_id = 0x0bd5\nze.{i}.pci = {p}\n"
    "ze.{i}.subdevices = 2\nze.{i}.sub.0.name = tile 0\nze.{i}.sub.1.name = tile 1\n"
    .format(i=i, p=p) for i, p in enumerate(["0000:1A:00.0", "0000:3A:00.0", "0000:9A:00.0"]))
    + "ze.api_version = 0x10003\nze.driver_version = 1\nze.count = 3\n")
node = probe(ZE, "level_zero", "--whole-node")
check(buses(node) == [X, Y, Z], "Intel, the whole node: %s" % buses(node))
for mask, want, parts in [("1", [Y], [None]),
                          ("2,0", [X, Z], [None, None]),   # the mask's order does not matter
                          ("1.1,0", [X, Y], [None, ["1"]]),
                          ("0,9", [X], [None]),            # 9 names no device
                          ("2.0,2.1", [Z], [["0", "1"]])]:
    a = probe(ZE, "level_zero", ZE_AFFINITY_MASK=mask)
    expect("ZE_AFFINITY_MASK=%s" % mask, a, want, mask, True)
    got = [g.get("allocation", {}).get("partitions") for _, g in a]
    check(got == parts, "ZE_AFFINITY_MASK=%s: partitions %s, want %s" % (mask, got, parts))
a = probe(ZE, "level_zero", ZE_AFFINITY_MASK="")
check(buses(a) == [X, Y, Z] and all("allocation" not in g for _, g in a),
      "ZE_AFFINITY_MASK empty: every device (the specification's default)")

# ---- hwloc XML fixtures with GPUs of several vendors ----
XML = os.path.join(SRCDIR, "tests", "data", "xml", "gpu_server.xml")
ALL = {"CUDA_VISIBLE_DEVICES": "1", "ROCR_VISIBLE_DEVICES": "", "ZE_AFFINITY_MASK": "0"}
described = probe(None, "none", "--xml", XML, "--no-catalog")
check(probe(None, "none", "--xml", XML, "--no-catalog", **ALL) == described,
      "--xml: the variables do not apply to a described machine")
env_xml = probe(None, "none", "--no-catalog", HWLOC_XMLFILE=XML)
check(probe(None, "none", "--no-catalog", HWLOC_XMLFILE=XML, **ALL) == env_xml,
      "HWLOC_XMLFILE (another machine's topology): the variables do not apply")
here = probe(None, "none", "--no-catalog", HWLOC_XMLFILE=XML, HWLOC_THISSYSTEM="1")
check(buses(here) == buses(env_xml), "HWLOC_THISSYSTEM=1, no variable: the same GPUs")
nv = [g["pci_bus_id"] for _, g in here if g.get("vendor") == "NVIDIA"]
amd = [g["pci_bus_id"] for _, g in here if g.get("vendor") == "AMD"]
check(len(nv) == 2 and len(amd) == 1,
      "gpu_server.xml: two NVIDIA GPUs, one AMD (%s, %s)" % (nv, amd))
filtered = probe(None, "none", "--no-catalog", HWLOC_XMLFILE=XML, HWLOC_THISSYSTEM="1",
                 CUDA_VISIBLE_DEVICES="1", HIP_VISIBLE_DEVICES="0")
# NVIDIA keeps the place of its first GPU; the other vendors theirs.
want = [b for b in buses(here) if b not in nv] if nv else []
if nv:
    want.insert(buses(here).index(nv[0]), nv[1])
check(buses(filtered) == want, "this host's PCI GPUs: NVIDIA's second in the first's place, "
      "the others kept (%s, want %s)" % (buses(filtered), want))
check([g.get("allocation", {}).get("runtime_index") for _, g in filtered
       if g.get("vendor") in ("NVIDIA", "AMD")] == [0, 0] if nv and amd else False,
      "each vendor's GPUs numbered from 0 in their runtime")

print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
