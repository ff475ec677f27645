#!/usr/bin/env python3
"""Checks every value `sysdesc probe --xml F` prints against the XML fixture
itself: an independent reading of the hwloc XML (ElementTree) computes the
whole expected CPU and GPU devices, rules of docs/keys.md included, and the
parsed spec must equal it exactly (keys, values, and the documented order of
the cache map).  Also covers several files (node ids), --set, -o, errors."""
import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
XMLDIR = os.path.join(SRCDIR, "tests", "data", "xml")
failures = []
# The schema version every probed device names (include/sysdesc/schema.h,
# docs/keys.md), written here rather than read from the header.
SCHEMA_VERSION = 1


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


# ---- a parser for the MLIR attributes sysdesc prints ----
class P:
    def __init__(self, s):
        self.s, self.i = s, 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] in " \n\t":
            self.i += 1

    def eat(self, t):
        self.ws()
        if not self.s.startswith(t, self.i):
            raise ValueError("expected %r at %d: %r" % (t, self.i, self.s[self.i:self.i + 40]))
        self.i += len(t)

    def peek(self, t):
        self.ws()
        return self.s.startswith(t, self.i)

    def string(self):
        self.eat('"')
        out = bytearray()
        while self.s[self.i] != '"':
            if self.s[self.i] == "\\":
                out.append(int(self.s[self.i + 1:self.i + 3], 16))
                self.i += 3
            else:
                out += self.s[self.i].encode()
                self.i += 1
        self.i += 1
        return out.decode()

    def value(self):
        self.ws()
        for kind in ("#dlti.target_system_spec<", "#dlti.target_device_spec<", "#dlti.map<"):
            if self.peek(kind):
                self.eat(kind)
                d = {}
                while not self.peek(">"):
                    k = self.string()
                    self.eat("=")
                    d[k] = self.value()
                    if self.peek(","):
                        self.eat(",")
                self.eat(">")
                return d
        if self.peek('"'):
            return self.string()
        if self.peek("["):
            self.eat("[")
            a = []
            while not self.peek("]"):
                a.append(self.value())
                if self.peek(","):
                    self.eat(",")
            self.eat("]")
            return a
        if self.peek("array<i64"):
            self.eat("array<i64")
            a = []
            if self.peek(":"):
                self.eat(":")
                while True:
                    m = re.compile(r"\s*(-?\d+)").match(self.s, self.i)
                    a.append(int(m.group(1)))
                    self.i = m.end()
                    if not self.peek(","):
                        break
                    self.eat(",")
            self.eat(">")
            return ("array", a)
        for b in ("true", "false"):
            if self.peek(b):
                self.eat(b)
                return b == "true"
        m = re.compile(r"\s*(-?\d+\.\d+(?:e[-+]\d+)?) : f64").match(self.s, self.i)
        if m:  # catalog-filled GPUs carry f64 values (peaks)
            self.i = m.end()
            return float(m.group(1))
        m = re.compile(r"\s*(-?\d+)( : i64)?").match(self.s, self.i)
        if not m:
            raise ValueError("bad value at %d: %r" % (self.i, self.s[self.i:self.i + 40]))
        self.i = m.end()
        return int(m.group(1)) if m.group(2) else ("untyped", int(m.group(1)))


def parse(text):
    p = P(text.strip())
    v = p.value()
    p.ws()
    assert p.i == len(p.s), "trailing text"
    return v


def probe(*args, rc=0):
    r = subprocess.run([SYSDESC, "probe", "--format", "attr"] + list(args), capture_output=True,
                       text=True, cwd=XMLDIR)
    check(r.returncode == rc, "probe %s: exit %d, expected %d: %s" % (args, r.returncode, rc,
                                                                      r.stderr.strip()))
    return r


# ---- the expected spec from the XML ----
def bits(s):
    if s is None:
        return None
    return int("".join(p.replace("0x", "") for p in s.split(",")), 16)


def objects(root):
    out = []

    def walk(e, ancestors):
        if e.tag == "object":
            out.append((e, ancestors))
            ancestors = ancestors + [e]
        for c in e:
            walk(c, ancestors)
    walk(root, [])
    return out


def infos(e):
    return {i.get("name"): i.get("value") for i in e.findall("info")}


CACHE_ORDER = [("L1", "L1Cache", 1, False), ("L1i", "L1iCache", 1, True), ("L2", "L2Cache", 2, False),
               ("L2i", "L2iCache", 2, True), ("L3", "L3Cache", 3, False), ("L3i", "L3iCache", 3, True),
               ("L4", "L4Cache", 4, False), ("L5", "L5Cache", 5, False)]
CTYPE = {"0": "unified", "1": "data", "2": "instruction"}
MiB = 1024 * 1024


def popcount(x):
    return bin(x).count("1")


# Normalised vendors of well-known PCI vendor ids (pci.ids: 10de NVIDIA
# Corporation, 1002 Advanced Micro Devices, Inc. [AMD/ATI], 1022 Advanced Micro
# Devices, Inc. [AMD], 8086 Intel Corporation, 13b5 ARM, 5143 Qualcomm Inc,
# 1da3 Habana Labs Ltd., 1d0f Amazon.com, Inc., 1e52 Tenstorrent Inc); Habana's
# and Amazon's as the catalog's Gaudi and Trainium entries name them.
VENDORS = {0x10de: "NVIDIA", 0x1002: "AMD", 0x1022: "AMD", 0x8086: "Intel", 0x13b5: "ARM",
           0x5143: "Qualcomm", 0x1da3: "Intel", 0x1d0f: "AWS", 0x1e52: "Tenstorrent"}


RUNTIMES = ("CUDA", "OpenCL", "NVML", "RSMI", "LevelZero")


def expected(path, prefix=""):
    tree = ET.parse(os.path.join(XMLDIR, path))
    top = tree.getroot()
    objs = objects(top)
    machine = objs[0][0]
    allowed = bits(machine.get("allowed_cpuset")) or bits(machine.get("complete_cpuset"))
    allowed_nodes = bits(machine.get("allowed_nodeset")) or bits(machine.get("complete_nodeset"))
    bytype = {}
    for e, anc in objs:
        bytype.setdefault(e.get("type"), []).append((e, anc))

    def usable(e):
        cs = bits(e.get("cpuset"))
        return cs is not None and cs & allowed != 0

    cpu = {"device_type": "CPU", "schema_version": SCHEMA_VERSION}
    mi = infos(machine)
    pkgs = [e for e, _ in bytype.get("Package", []) if usable(e)]
    pinfo = infos(pkgs[0]) if pkgs else {}

    def ident(name):
        return pinfo.get(name, mi.get(name))
    for key, name in (("vendor", "CPUVendor"), ("model", "CPUModel")):
        if ident(name) and ident(name).strip():
            cpu[key] = ident(name).strip()
    if mi.get("Architecture"):
        cpu["arch"] = mi["Architecture"]
    for key, name in (("cpu_family", "CPUFamilyNumber"), ("cpu_model_number", "CPUModelNumber"),
                      ("cpu_stepping", "CPUStepping")):
        if ident(name):
            cpu[key] = int(ident(name), 0)
    if mi.get("HostName"):
        cpu["hostname"] = mi["HostName"]
    # LLVM's triple for the architecture (Linux, glibc); the
    # microarchitecture keys are adopted by adopt_uarch() below.
    if mi.get("Architecture") in ("x86_64", "aarch64", "riscv64"):
        cpu["triple"] = mi["Architecture"] + "-unknown-linux-gnu"
    for t, key in (("Package", "num_packages"), ("Core", "num_cores"), ("PU", "num_threads")):
        allobjs = [e for e, _ in bytype.get(t, [])]
        if not allobjs:
            continue
        n = sum(1 for e in allobjs if usable(e))
        cpu[key] = n
        if n != len(allobjs):
            cpu["total_" + key] = len(allobjs)
    numa = [e for e, _ in bytype.get("NUMANode", [])]
    numa_ok = [e for e in numa if allowed_nodes >> int(e.get("os_index")) & 1]
    if numa:
        cpu["num_numa_nodes"] = len(numa_ok)
        if len(numa_ok) != len(numa):
            cpu["total_num_numa_nodes"] = len(numa)
    mem_total = sum(int(e.get("local_memory", "0")) for e in numa_ok)

    first_pu = min(i for i in range(allowed.bit_length()) if allowed >> i & 1)
    suspect = []
    cache = {}
    prev = None
    flat = {}
    for name, xtype, level, icache in CACHE_ORDER:
        inst = [e for e, _ in bytype.get(xtype, []) if usable(e)]
        if not inst:
            continue
        rep = next((e for e in inst if bits(e.get("cpuset")) >> first_pu & 1), inst[0])
        size = int(rep.get("cache_size"))
        line = int(rep.get("cache_linesize"))
        assoc = int(rep.get("cache_associativity"))
        c = {}
        if size > 0:
            c["size_in_bytes"] = size
        else:
            suspect.append("cache.%s.size_in_bytes" % name)
        if line > 0:
            c["line_size_in_bytes"] = line
        if assoc != 0:
            c["associativity"] = -1 if assoc < 0 else assoc
        c["num_instances"] = len(inst)
        c["threads_per_instance"] = popcount(bits(rep.get("cpuset")))
        inc = infos(rep).get("Inclusive")
        if inc is not None:
            c["inclusive"] = inc == "1"
        c["type"] = CTYPE[rep.get("cache_type")]
        sizes = [int(e.get("cache_size")) for e in inst]
        if min(sizes) != max(sizes):
            c["min_size_in_bytes"] = min(sizes)
            c["max_size_in_bytes"] = max(sizes)
        if size > 0 and size > 256 * MiB:
            suspect.append("cache.%s.size_in_bytes" % name)
        if size > 0 and mem_total and size > mem_total:
            suspect.append("cache.%s.size_in_bytes" % name)
        if size > 0 and not icache and prev and size < prev:
            suspect.append("cache.%s.size_in_bytes" % name)
        if line <= 0:
            suspect.append("cache.%s.line_size_in_bytes" % name)
        if not icache:
            prev = size
        if not icache and level <= 3 and size > 0:
            flat["L%d_cache_size_in_bytes" % level] = size
        cache[name] = c
    cpu.update(flat)
    if cache:
        cpu["cache"] = cache
    memory = {}
    if mem_total:
        # an XML file carries no MemTotal: what a process may use is the
        # NUMA nodes' sum there (docs/keys.md, "memory")
        memory["total_in_bytes"] = mem_total
        memory["numa_total_in_bytes"] = mem_total
        memory["numa_node_size_in_bytes"] = ("array", [int(e.get("local_memory")) for e in numa_ok])
    pt = numa_ok[0].findall("page_type") if numa_ok else []
    sizes = [int(p.get("size")) for p in pt if int(p.get("size")) > 0]
    if sizes:
        memory["page_size_in_bytes"] = min(sizes)
        memory["page_sizes_in_bytes"] = ("array", sizes)
    if memory:
        cpu["memory"] = memory
    kinds = sorted(top.findall("cpukind"), key=lambda k: int(k.get("forced_efficiency", "-1")))
    source = {}
    backends = [i.get("value") for i in machine.findall("info") if i.get("name") == "Backend"]
    source["topology"] = "hwloc XML %s" % path + (" (backend %s)" % ",".join(backends) if backends else "")
    source["cache"] = "hwloc"
    source["memory"] = "hwloc"
    if "triple" in cpu:
        source["triple"] = "hwloc Architecture, Linux with glibc"
    if kinds:
        km = {}
        for idx, k in enumerate(kinds):
            cs = bits(k.get("cpuset")) & allowed
            ki = infos(k)
            d = {}
            if k.get("forced_efficiency") is not None:
                d["efficiency_rank"] = int(k.get("forced_efficiency"))
            d["num_cores"] = sum(1 for e, _ in bytype.get("Core", []) if bits(e.get("cpuset")) & cs)
            d["num_threads"] = popcount(cs)
            for key, iname, num in (("core_type", "CoreType", False), ("max_frequency_mhz", "FrequencyMaxMHz", True),
                                    ("base_frequency_mhz", "FrequencyBaseMHz", True),
                                    ("linux_capacity", "LinuxCapacity", True)):
                if iname in ki:
                    d[key] = int(ki[iname]) if num else ki[iname]
            km[str(idx)] = d
        cpu["num_cpu_kinds"] = len(kinds)
        cpu["cpu_kinds"] = km
        source["cpu_kinds"] = "hwloc cpukinds"
    cpu["source"] = source
    if suspect:
        seen = []
        for s in suspect:
            if s not in seen:
                seen.append(s)
        cpu["suspect"] = seen
    # Network and OpenFabrics OS devices (I/O is on for XML): kind, the NUMA
    # node of the nearest non-I/O ancestor when it is one, the PCI parent's
    # identity; no addresses or GUIDs.
    net = {}
    for e, anc in objs:
        if e.get("type") != "OSDev" or e.get("osdev_type") not in ("2", "3"):
            continue
        d = {"type": "network" if e.get("osdev_type") == "2" else "openfabrics"}
        cpu_side = [a for a in anc if a.get("type") not in ("Bridge", "PCIDev", "OSDev")]
        nodes = bits(cpu_side[-1].get("nodeset")) if cpu_side else None
        if nodes and nodes & (nodes - 1) == 0:
            d["numa_node"] = nodes.bit_length() - 1
        pci = [a for a in anc if a.get("type") == "PCIDev"]
        if pci:
            m = re.match(r"[0-9a-f]{4} \[([0-9a-f]{4}):([0-9a-f]{4})\]", pci[-1].get("pci_type"))
            d.update({"pci_bus_id": pci[-1].get("pci_busid"), "pci_vendor_id": int(m.group(1), 16),
                      "pci_device_id": int(m.group(2), 16)})
            if infos(pci[-1]).get("PCIDevice"):
                d["model"] = infos(pci[-1])["PCIDevice"]
        net[e.get("name")] = d
    if net:
        cpu["network"] = net
        source["network"] = "hwloc OS devices"
    spec = {prefix + "CPU": cpu}

    # GPUs (docs/keys.md, "Which devices are GPUs"): PCI devices with an OS
    # device of a compute runtime, processing accelerators (0x12xx) of AMD/ATI
    # and NVIDIA, display devices (0x03xx) of the GPU vendors but the ES1000;
    # then runtime OS devices without a PCI parent; then the other processing
    # accelerators, ACCEL0, ... (counted apart).
    gi = 0

    def gpu_osdev(o):
        return o.get("type") == "OSDev" and o.get("osdev_type") in ("1", "5")

    def runtime_osdev(o):
        return gpu_osdev(o) and (o.get("subtype") in RUNTIMES or infos(o).get("Backend") in RUNTIMES)

    def kind(cls, ven, dev, osd):
        if any(runtime_osdev(o) for o in osd):
            return "GPU"
        if cls >> 8 == 0x12:
            return "GPU" if ven in (0x10de, 0x1002) else "ACCEL"
        if cls >> 8 == 0x03 and ven in (0x10de, 0x1002, 0x8086) and (ven, dev) != (0x1002, 0x515e):
            return "GPU"
        return None

    def osdev_keys(g, osd, src):
        """The keys a GPU's OS devices give: the first OS device that has a value wins;
        src gets each numeric key's OS device ("hwloc OS device cuda0 (CUDA)")."""
        oi = [infos(o) for o in osd]
        for key, iname in (("vendor", "GPUVendor"), ("model", "GPUModel")):
            v = next((i[iname] for i in oi if iname in i), None)
            if v:
                g[key] = v
        # Catalog-schema names (docs/keys.md); several infos give one key: the
        # first OS device that has one wins, and within it the last in this list.
        for o, i in reversed(list(zip(osd, oi))):
            sub = o.get("subtype")
            where = "hwloc OS device %s%s" % (o.get("name"), " (%s)" % sub if sub else "")
            for iname, key, scale in (("CUDAGlobalMemorySize", "memory_size_in_bytes", 1024),
                                      ("CUDAL2CacheSize", "L2_cache_size_in_bytes", 1024),
                                      ("CUDAMultiProcessors", "num_compute_units", 1),
                                      ("CUDACoresPerMP", "cores_per_compute_unit", 1),
                                      ("CUDASharedMemorySizePerMP", "shared_memory_per_block_in_bytes", 1024),
                                      ("OpenCLComputeUnits", "num_compute_units", 1),
                                      ("OpenCLGlobalMemorySize", "memory_size_in_bytes", 1024)):
                if i.get(iname):
                    g[key] = int(i[iname]) * scale
                    src[key] = where
        for iname, key in (("OpenCLDeviceType", "opencl_device_type"), ("OpenCLPlatformName", "opencl_platform_name")):
            v = next((i[iname] for i in oi if iname in i), None)
            if v:
                g[key] = v

    def osdev_lists(g, osd, src):
        """os_devices, hwloc_info and source."""
        if osd:
            g["os_devices"] = [o.get("name") for o in osd]
            # an OS device without info strings adds nothing; an empty map is left out
            hi = {o.get("name"): infos(o) for o in osd if infos(o)}
            if hi:
                g["hwloc_info"] = hi
            src["os_devices"] = "hwloc OS devices: " + ",".join(o.get("subtype") or o.get("name") for o in osd)
        g["source"] = src

    # In PCI bus id order (domain, bus, device, function), not the document's.
    def bus_order(e):
        return tuple(int(x, 16) for x in re.split(r"[:.]", e.get("pci_busid")))
    ancestors_of = {id(e): anc for e, anc in objs}
    accels = []
    for e in sorted((e for e, _ in bytype.get("PCIDev", [])), key=bus_order):
        m = re.match(r"([0-9a-f]{4}) \[([0-9a-f]{4}):([0-9a-f]{4})\] \[([0-9a-f]{4}):([0-9a-f]{4})\]",
                     e.get("pci_type"))
        cls, ven, dev, sven, sdev = (int(x, 16) for x in m.groups())
        osd = [o for o in e.findall("object") if gpu_osdev(o)]
        k = kind(cls, ven, dev, osd)
        if not k:
            continue
        # An accelerator has no runtime's OS device, and os_devices and
        # hwloc_info are GPU keys: its PCI keys only.
        if k == "ACCEL":
            osd = []
        g = {"device_type": k, "schema_version": SCHEMA_VERSION}
        src = {"pci": "hwloc PCI discovery"}
        osdev_keys(g, osd, src)
        # A well-known vendor id gives the normalised vendor (the catalog's
        # names), whatever GPUVendor or PCIVendor say; other ids keep hwloc's
        # name.  PCIVendor itself is pci_vendor_name.
        pci_vendor = (infos(e).get("PCIVendor") or "").strip()
        if ven in VENDORS:
            g["vendor"] = VENDORS[ven]
        elif "vendor" not in g and pci_vendor:
            g["vendor"] = pci_vendor
        if "model" not in g and infos(e).get("PCIDevice"):
            g["model"] = infos(e)["PCIDevice"]
        g.update({"pci_vendor_id": ven, "pci_device_id": dev, "pci_subvendor_id": sven,
                  "pci_subdevice_id": sdev, "pci_class_id": cls, "pci_bus_id": e.get("pci_busid")})
        if pci_vendor:
            g["pci_vendor_name"] = pci_vendor
        osdev_lists(g, osd, src)
        # Locality: the nodeset of the nearest ancestor that is not I/O, when it is one node.
        cpu_side = [a for a in ancestors_of[id(e)] if a.get("type") not in ("Bridge", "PCIDev", "OSDev")]
        nodes = bits(cpu_side[-1].get("nodeset")) if cpu_side else None
        if nodes and nodes & (nodes - 1) == 0:
            g["numa_node"] = nodes.bit_length() - 1
            g.setdefault("source", {})["numa_node"] = "hwloc PCI locality"
        if k == "ACCEL":
            accels.append(g)
            continue
        spec["%sGPU%d" % (prefix, gi)] = g
        gi += 1
    # Then runtime OS devices without a PCI parent, one device each, in document order.
    for e, anc in objs:
        if not runtime_osdev(e) or (anc and anc[-1].get("type") == "PCIDev"):
            continue
        g = {"device_type": "GPU", "schema_version": SCHEMA_VERSION}
        src = {}
        osdev_keys(g, [e], src)
        osdev_lists(g, [e], src)
        spec["%sGPU%d" % (prefix, gi)] = g
        gi += 1
    for ai, g in enumerate(accels):
        spec["%sACCEL%d" % (prefix, ai)] = g
    return spec


# The microarchitecture keys come from the table that
# tests/probe/test_uarch.c checks against recorded CPUs and LLVM; here they
# are checked for shape and consistency, then taken into the expectation.
UARCH_KEYS = ("uarch", "uarch_ancestors", "compiler")


def adopt_uarch(got, exp):
    for dev, keys in got.items():
        if not dev.endswith("CPU") or dev not in exp:
            continue
        if exp[dev].get("arch") not in ("x86_64", "aarch64", "riscv64"):
            check(not any(k in keys for k in UARCH_KEYS), "%s: uarch keys without arch" % dev)
            continue
        u = keys.get("uarch")
        check(isinstance(u, str) and u, "%s: no uarch" % dev)
        anc = keys.get("uarch_ancestors", [])
        check(u not in anc and len(set(anc)) == len(anc), "%s: ancestors %r" % (dev, anc))
        cpu = keys.get("compiler", {}).get("llvm", {}).get("cpu")
        check(isinstance(cpu, str) and cpu, "%s: no compiler.llvm.cpu" % dev)
        for k in UARCH_KEYS:
            if k in keys:
                exp[dev][k] = keys[k]
        for k in ("uarch", "compiler"):
            if k in keys.get("source", {}):
                exp[dev]["source"][k] = keys["source"][k]


def same(a, b, where=""):
    if isinstance(a, dict) and isinstance(b, dict):
        ok = True
        for k in set(a) | set(b):
            if k not in a or k not in b:
                print("  %s%s: got %r expected %r" % (where, k, a.get(k, "<absent>"), b.get(k, "<absent>")))
                ok = False
            elif not same(a[k], b[k], where + k + "."):
                ok = False
        return ok
    if a != b:
        print("  %s: got %r expected %r" % (where.rstrip("."), a, b))
        return False
    return True


FIXTURES = ["one_socket.xml", "two_socket_numa.xml", "restricted.xml", "smt_off.xml", "hybrid.xml", "gpu.xml",
            "gpu_server.xml", "nic_node.xml"]
for f in FIXTURES:
    r = probe("--xml", f, "--no-catalog")
    got = parse(r.stdout)
    exp = expected(f)
    adopt_uarch(got, exp)
    check(same(got, exp), "%s: spec differs from the fixture" % f)
    check(list(got) == list(exp), "%s: device order %s, want %s" % (f, list(got), list(exp)))
    for dev, keys in got.items():
        check(list(keys)[:2] == ["device_type", "schema_version"],
              "%s: %s does not start with device_type, schema_version" % (f, dev))
    cache = got["CPU"].get("cache", {})
    order = [n for n, _, _, _ in CACHE_ORDER if n in cache]
    check(list(cache) == order, "%s: cache map order %s" % (f, list(cache)))
    for lvl in cache.values():
        keys = [k for k in ["size_in_bytes", "line_size_in_bytes", "associativity", "num_instances",
                            "threads_per_instance", "inclusive", "type", "min_size_in_bytes",
                            "max_size_in_bytes"] if k in lvl]
        check(list(lvl) == keys, "%s: cache level key order %s" % (f, list(lvl)))
    # Every suspect value is also announced on stderr, naming the key.
    for s in got["CPU"].get("suspect", []):
        check("CPU." + s in r.stderr, "%s: no warning for %s" % (f, s))
    # The documented sanity warnings were raised where the fixture is wrong.
    if f == "smt_off.xml":
        check(got["CPU"]["suspect"] == ["cache.L2.line_size_in_bytes", "cache.L3.size_in_bytes"],
              "smt_off: suspect list")
    # The required L1 path works.
    q = subprocess.run([SYSDESC, "query", "-", "CPU", "cache", "L1", "size_in_bytes"], input=r.stdout,
                       capture_output=True, text=True)
    check(q.returncode == 0 and q.stdout.strip().endswith(": i64"), "%s: L1 query" % f)

# By default a probed GPU whose PCI ids match a catalog entry takes the
# entry's keys it lacks, deeply; what the probe measured wins.  The expected
# device is computed here from the two JSON documents.
def probe_json(*args):
    r = subprocess.run([SYSDESC, "probe", "--format", "json", "-q"] + list(args),
                       capture_output=True, text=True, cwd=XMLDIR)
    check(r.returncode == 0, "probe --format json %s: %s" % (args, r.stderr.strip()))
    doc = json.loads(r.stdout)
    # one machine's data layout, named by its CPU's triple (docs/layout.md): no device
    dl = doc.pop("data_layout", None)
    check(dl is None or dl == doc.get("CPU", {}).get("triple"),
          "probe --format json %s: data_layout %r is not the CPU's triple" % (args, dl))
    return doc


def fill(probed, entry, name, src, dis, path=""):
    """The keys of catalog entry `name` that the probed map lacks, deeply;
    each filled key's dotted path gets "catalog NAME" in `src`, and a
    measured value (one with a line in `src`) that the entry gives
    differently goes into `dis` (docs/runtimes.md)."""
    out = dict(probed)
    for k, v in entry.items():
        p = path + k
        if k not in out:
            out[k] = v
            src[p] = "catalog " + name
        elif isinstance(out[k], dict) and isinstance(v, dict):
            out[k] = fill(out[k], v, name, src, dis, p + ".")
        elif out[k] != v and p in src:
            dis.setdefault(p, {})["catalog " + name] = v
    return out


def filled_device(probed, entry, name, got):
    """What the catalog hook makes of a probed device: filled, its provenance
    and disagreements recorded, and source.catalog saying which entry the
    device is (its text, from `got`, is checked to name the entry)."""
    how = got.get("source", {}).get("catalog", "")
    check(how.startswith("PCI id %04x:%04x is claimed by " % (probed.get("pci_vendor_id", 0),
                                                            probed.get("pci_device_id", 0)))
          and (": the device is %s (" % name) in how, "source.catalog names %s: %r" % (name, how))
    src = dict(probed.get("source", {}), catalog=how)
    dis = {k: dict(v) for k, v in probed.get("disagreements", {}).items()}
    out = fill(probed, entry, name, src, dis)
    out["source"] = src
    if dis:
        out["disagreements"] = dis
    return out


def show(name):
    r = subprocess.run([SYSDESC, "show", name, "--format", "json"], capture_output=True, text=True)
    check(r.returncode == 0, "show %s: %s" % (name, r.stderr.strip()))
    return json.loads(r.stdout)


raw = probe_json("--xml", "gpu.xml", "--no-catalog")
filled = probe_json("--xml", "gpu.xml")
entry = next(iter(show("nvidia/h100-sxm").values()))
check(raw["GPU0"]["pci_device_id"] == 0x2330 and 0x2330 in entry["pci_device_ids"],
      "gpu.xml GPU0 is the catalog's H100 SXM by PCI id")
check(same(filled["GPU0"], filled_device(raw["GPU0"], entry, "nvidia/h100-sxm", filled["GPU0"])),
      "GPU0 filled from nvidia/h100-sxm, each filled key's source recorded")
check("num_compute_units" in filled["GPU0"] and "num_compute_units" in raw["GPU0"] and
      filled["GPU0"]["num_compute_units"] == raw["GPU0"]["num_compute_units"],
      "the measured SM count wins over the catalog's")
check(list(filled) == list(raw) and filled["CPU"] == raw["CPU"], "the CPU is left alone")

# Every GPU of gpu_server.xml against the catalog entry its PCI ids name, if any.
by_pci = {}
listing = subprocess.run([SYSDESC, "list"], capture_output=True, text=True).stdout.splitlines()[1:]
for name in (line.split()[0] for line in listing if line.strip()):
    doc = show(name)
    e = next(iter(doc.values()))
    # Architecture bases (nvidia/arch/...) have no PCI ids; a declared variant (a MIG
    # profile) shares its product's ids and is never taken, and sorts after it: the first
    # entry is the product (docs/catalog.md).  gpu_server.xml has no id that siblings
    # share (siblings.xml below has).
    if len(doc) == 1 and "pci_device_ids" in e:
        for d in e["pci_device_ids"]:
            by_pci.setdefault((e["pci_vendor_id"], d), (name, e))
raw = probe_json("--xml", "gpu_server.xml", "--no-catalog")
filled = probe_json("--xml", "gpu_server.xml")
check(list(filled) == list(raw), "gpu_server.xml: the catalog adds or drops no device")
matched = []
for dev, r in raw.items():
    hit = by_pci.get((r.get("pci_vendor_id"), r.get("pci_device_id")))
    if hit:
        matched.append(hit[0])
        check(same(filled[dev], filled_device(r, hit[1], hit[0], filled[dev])),
              "gpu_server.xml %s filled from %s" % (dev, hit[0]))
    else:
        check(filled[dev] == r, "gpu_server.xml %s: the catalog does not know it, left alone" % dev)
check(matched == ["amd/mi210", "nvidia/h100-pcie", "nvidia/l40s", "intel/gaudi2"],
      "gpu_server.xml catalog matches %s" % matched)
# The Gaudi2 (1da3:1020, class 0x1200) is an accelerator that is no GPU: ACCEL1
# after the Tenstorrent at 80:00.0 (ACCEL0), filled from intel/gaudi2, an ACCEL
# entry, with the entry's own keys (num_matrix_engines: no GPU's).
gaudi = next(iter(show("intel/gaudi2").values()))
acc = {dev: g for dev, g in filled.items() if dev.startswith("ACCEL")}
check(list(acc) == ["ACCEL0", "ACCEL1", "ACCEL2", "ACCEL3"] and
      [g.get("pci_bus_id") for g in acc.values()] ==
      ["0000:80:00.0", "0000:82:00.0", "0000:83:00.0", "0000:84:00.0"],
      "gpu_server.xml: the four processing accelerators are ACCEL0..3 in bus id order: %s" %
      [(d, g.get("pci_bus_id")) for d, g in acc.items()])
g2 = acc.get("ACCEL1", {})
check(g2.get("device_type") == "ACCEL" == gaudi.get("device_type") and
      g2.get("pci_device_id") in gaudi.get("pci_device_ids", []) and
      "intel/gaudi2" in g2.get("source", {}).get("catalog", ""),
      "gpu_server.xml ACCEL1 is the Gaudi2, filled from intel/gaudi2: %r" % g2.get("source"))
check(all(g2.get(k) == gaudi[k] for k in ("vendor", "arch", "num_compute_units", "compute_unit_name",
                                          "num_matrix_engines", "memory_size_in_bytes",
                                          "memory_bandwidth_in_bytes_per_second",
                                          "peak_ops_per_second") if k in gaudi) and
      "num_matrix_engines" in gaudi and raw["ACCEL1"].get("vendor") == gaudi.get("vendor"),
      "ACCEL1 holds the catalog's Gaudi2 values, and the probe names the vendor as the entry does")
check(not any(k in g for g in acc.values() for k in ("os_devices", "hwloc_info", "runtimes")),
      "accelerators carry no GPU bookkeeping keys")

def told_apart(xml, want):
    """Each GPU of `xml` (by PCI bus id) filled from the catalog entry `want`
    names, or from none (None) with the reason in source.catalog."""
    raw = probe_json("--xml", xml, "--no-catalog")
    filled = probe_json("--xml", xml)
    by_bus = {g.get("pci_bus_id"): (dev, g) for dev, g in filled.items() if dev.startswith("GPU")}
    check(sorted(by_bus) == sorted(want), "%s GPUs %s" % (xml, sorted(by_bus)))
    for bus, name in want.items():
        dev, g = by_bus.get(bus, (None, {}))
        r = raw.get(dev, {})
        how = g.get("source", {}).get("catalog", "")
        if name:
            e = next(iter(show(name).values()))
            check(same(g, filled_device(r, e, name, g)),
                  "%s %s (%s) filled from %s" % (xml, dev, bus, name))
        else:
            unfilled = dict(r)
            unfilled["source"] = dict(r.get("source", {}), catalog=how)
            check(same(g, unfilled), "%s %s (%s): nothing filled" % (xml, dev, bus))
            check("nothing filled" in how, "%s %s: why said: %r" % (xml, dev, how))
    return {bus: by_bus.get(bus, (None, {}))[1].get("source", {}).get("catalog", "") for bus in want}


# Siblings sharing a PCI id (siblings.xml, docs/catalog.md "PCI ids, siblings and
# partitions"): each device is filled from the product its OpenCL compute units,
# memory or name say, or from none, with the reason in source.catalog; never from a
# sibling.
how = told_apart("siblings.xml", {
    "0000:01:00.0": "amd/rx-7900-xtx", "0000:02:00.0": "amd/rx-7900-xt",
    "0000:03:00.0": None, "0000:04:00.0": None, "0000:05:00.0": "amd/mi250x",
    "0000:06:00.0": "amd/mi250", "0000:07:00.0": "amd/rx-7900-xtx",
    "0000:08:00.0": "amd/rx-9070", "0000:09:00.0": "amd/rx-9070-xt",
    "0000:0a:00.0": "intel/arc-a770", "0000:0b:00.0": "intel/arc-a770-8gb"})
check("not intel/arc-a770: memory_size_in_bytes" in how["0000:0b:00.0"],
      "the A770 8GB is not the 16GB card: %r" % how["0000:0b:00.0"])
check("not amd/rx-9070-xt: num_compute_units 56, not 64" in how["0000:08:00.0"],
      "the RX 9070 is not the XT: %r" % how["0000:08:00.0"])
check("amd/rx-7900-xt" in how["0000:04:00.0"] and "amd/rx-7900-xtx" in how["0000:04:00.0"] and
      "the device's runtimes do not tell which" in how["0000:04:00.0"],
      "siblings.xml, no runtime: the ambiguity said: %r" % how["0000:04:00.0"])
# The GRE (80 CUs) is neither: each product's reason is given.
gre = how["0000:03:00.0"]
check("not amd/rx-7900-xt: num_compute_units 80, not 84" in gre and
      "not amd/rx-7900-xtx: num_compute_units 80, not 96" in gre, "the GRE's reasons: %r" % gre)

# Partitions (partitions.xml): a MIG instance and an MI300X CPX partition take
# their profile's entry (declared variants), the whole GPUs their product's
# (a whole H100 is not its 7g.80gb profile, though the SMs are the same), and
# the A100's 1g.5gb, a profile the catalog lacks, nothing: not the whole A100.
how = told_apart("partitions.xml", {
    "0000:01:00.0": "nvidia/h100-sxm", "0000:02:00.0": "nvidia/mig/h100-sxm-1g.10gb",
    "0000:03:00.0": None, "0000:04:00.0": "amd/mi300x-cpx", "0000:05:00.0": "amd/mi300x"})
check("not nvidia/mig/h100-sxm-7g.80gb: a partition profile, and the whole product fits"
      in how["0000:01:00.0"], "the whole H100 is not its 7g.80gb profile: %r" % how["0000:01:00.0"])
check("not nvidia/a100-sxm-40gb: num_compute_units 14, not 108" in how["0000:03:00.0"],
      "the A100 MIG slice's reason: %r" % how["0000:03:00.0"])

# Processing accelerators (class 0x12xx) of the GPU vendors: AMD's Instinct
# MI200/MI300 report that class (1002:74a1 MI300X), and one that hwloc saw
# without a runtime (no ROCm in the process that wrote the file) is still a
# GPU; Intel's class-0x12 device is its NPU (8086:7d1d), an ACCEL.  A copy of
# partitions.xml with those two devices' OS devices removed, the second made
# Intel's NPU.
scratch = tempfile.mkdtemp(prefix="sysdesc-probe-xml-")
atexit.register(shutil.rmtree, scratch, True)


def edited_copy(src, edits):
    """src with each PCI device `bus` of `edits` {bus: (pci_type or None,
    {info: value})} stripped of its OS devices, its type and infos set."""
    tree = ET.parse(os.path.join(XMLDIR, src))
    for e in tree.getroot().iter("object"):
        if e.get("type") != "PCIDev" or e.get("pci_busid") not in edits:
            continue
        pci_type, names = edits[e.get("pci_busid")]
        for c in [c for c in e if c.tag == "object" and c.get("type") == "OSDev"]:
            e.remove(c)
        if pci_type:
            e.set("pci_type", pci_type)
        for i in e.findall("info"):
            if i.get("name") in names:
                i.set("value", names[i.get("name")])
    path = os.path.join(scratch, src)
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE topology SYSTEM "hwloc2.dtd">\n')
        f.write(ET.tostring(tree.getroot(), encoding="unicode"))
    return path


npu = edited_copy("partitions.xml", {
    "0000:05:00.0": (None, {}),
    "0000:04:00.0": ("1200 [8086:7d1d] [8086:7d1d] 04",
                     {"PCIVendor": "Intel Corporation", "PCIDevice": "Meteor Lake NPU"})})
got = parse(probe("--xml", npu, "--no-catalog", "-q").stdout)
exp = expected(npu)
adopt_uarch(got, exp)
check(same(got, exp) and list(got) == list(exp), "edited partitions.xml: spec differs from the fixture")
raw = probe_json("--xml", npu, "--no-catalog")
by_bus = {g.get("pci_bus_id"): (dev, g) for dev, g in raw.items() if isinstance(g, dict)}
dev, mi300 = by_bus.get("0000:05:00.0", (None, {}))
check(dev == "GPU3" and mi300.get("device_type") == "GPU" and mi300.get("pci_class_id") == 0x1200 and
      mi300.get("vendor") == "AMD" and "os_devices" not in mi300,
      "an MI300X (class 0x1200) without a runtime's OS device stays a GPU: %s %r" % (dev, mi300))
dev, intel_npu = by_bus.get("0000:04:00.0", (None, {}))
check(dev == "ACCEL0" and intel_npu.get("device_type") == "ACCEL" and
      intel_npu.get("vendor") == "Intel" and intel_npu.get("model") == "Meteor Lake NPU",
      "Intel's NPU (8086:7d1d, class 0x1200) is ACCEL0: %s %r" % (dev, intel_npu))
filled = probe_json("--xml", npu)
check(same(filled[by_bus["0000:05:00.0"][0]],
           filled_device(mi300, next(iter(show("amd/mi300x").values())), "amd/mi300x",
                         filled[by_bus["0000:05:00.0"][0]])),
      "the MI300X without a runtime is filled from amd/mi300x, a GPU entry")
check(filled.get("ACCEL0") == intel_npu, "no catalog entry claims the NPU: left alone")

# The visibility variables choose GPUs; an accelerator is none: on "this host"
# (HWLOC_THISSYSTEM=1 over gpu_server.xml) CUDA_VISIBLE_DEVICES and
# HIP_VISIBLE_DEVICES hide and renumber GPUs, and every ACCEL stays, the same.
def host_probe(**env):
    e = {k: v for k, v in os.environ.items()
         if not re.match(r"(CUDA|ROCR|HIP|GPU|ZE)_|HWLOC_", k)}
    e.update(HWLOC_XMLFILE=os.path.join(XMLDIR, "gpu_server.xml"), HWLOC_THISSYSTEM="1",
             XDG_CACHE_HOME=os.path.join(scratch, "cache"), **env)
    r = subprocess.run([SYSDESC, "probe", "--format", "json", "-q", "--no-catalog", "--no-cache",
                        "--runtimes=none", "--gcc=", "--clang=", "--llc="], capture_output=True, text=True, env=e)
    check(r.returncode == 0, "host probe over gpu_server.xml %s: %s" % (env, r.stderr.strip()[:300]))
    return json.loads(r.stdout) if r.returncode == 0 else {}


whole = host_probe()
hidden = host_probe(CUDA_VISIBLE_DEVICES="1", HIP_VISIBLE_DEVICES="0")
gpus = lambda d: [g.get("pci_bus_id") for k, g in d.items() if k.startswith("GPU")]
accels = lambda d: {k: g for k, g in d.items() if k.startswith("ACCEL")}
check(len(accels(whole)) == 4 and accels(hidden) == accels(whole) and
      len(gpus(hidden)) == len(gpus(whole)) - 1 and gpus(hidden) != gpus(whole),
      "the variables hide a GPU (%s of %s) and leave ACCEL0..3 alone (%s)" %
      (gpus(hidden), gpus(whole), list(accels(hidden))))

# --no-io drops the GPUs of an XML file; --quiet silences warnings.
got = parse(probe("--xml", "gpu.xml", "--no-io").stdout)
check(list(got) == ["CPU"], "--no-io keeps only the CPU")
r = probe("--xml", "smt_off.xml", "--quiet")
check(r.stderr == "", "--quiet prints nothing")

# Several files: node classes (docs/cluster.md).  Each class's devices are
# its first node's, without the host name, provenance naming no file; the
# "cluster" device maps node names (HostName, else node<i>) to classes.
def as_class(spec, cls):
    out = {}
    for dev, keys in spec.items():
        keys = dict(keys)
        keys.pop("hostname", None)
        if "source" in keys and "topology" in keys["source"]:
            keys["source"] = dict(keys["source"])
            keys["source"]["topology"] = re.sub(r"^hwloc XML \S+", "hwloc XML of each node of the class",
                                                keys["source"]["topology"])
        out["%s.%s" % (cls, dev)] = keys
    return out


r = probe("--xml", "one_socket.xml", "--xml", "gpu.xml", "--xml", "one_socket.xml", "--no-catalog", rc=2)
check("a second node named 'node-a'" in r.stderr, "two nodes of one name: %s" % r.stderr.strip())
r = probe("--xml", "one_socket.xml", "--xml", "gpu.xml", "--xml", "smt_off.xml", "--no-catalog", "-q")
got = parse(r.stdout)
exp = {}
exp.update(as_class(expected("one_socket.xml"), "class0"))
exp.update(as_class(expected("gpu.xml"), "class1"))
exp.update(as_class(expected("smt_off.xml"), "class2"))
cluster = got.pop("cluster", {})
adopt_uarch(got, exp)
check(same(got, exp), "cluster spec differs")
check(list(got) == ["class0.CPU", "class1.CPU", "class1.GPU0", "class2.CPU"], "cluster ids %s" % list(got))
check(cluster.get("nodes") == {"node-a": "class0", "node1": "class1", "node2": "class2"},
      "cluster nodes %r" % cluster.get("nodes"))
check(cluster.get("classes") == {"class0": ["node-a"], "class1": ["node1"], "class2": ["node2"]},
      "cluster classes %r" % cluster.get("classes"))
check(cluster.get("num_nodes") == 3 and cluster.get("num_classes") == 3, "cluster counts")
q = subprocess.run([SYSDESC, "query", "-", "node1.GPU0", "pci_bus_id"], input=r.stdout,
                   capture_output=True, text=True)
check(q.returncode == 0 and q.stdout.strip() == '"%s"' % exp["class1.GPU0"]["pci_bus_id"],
      "node1.GPU0 through its class: %s %s" % (q.stdout, q.stderr))

# Overrides.
r = probe("--xml", "smt_off.xml", "-q", "--set", "CPU.cache.L3.size_in_bytes=33554432",
          "--set", 'CPU.vendor="Acme"', "--set", "CPU.cache.L2.line_size_in_bytes=128")
got = parse(r.stdout)["CPU"]
check(got["cache"]["L3"]["size_in_bytes"] == 33554432, "--set L3")
check(got["L3_cache_size_in_bytes"] == 33554432, "--set L3 updates the flat key")
check(got["vendor"] == "Acme", "--set vendor")
check(got["cache"]["L2"]["line_size_in_bytes"] == 128, "--set L2 line")
check("suspect" not in got, "overridden keys leave suspect: %r" % got.get("suspect"))
check(got["source"]["cache.L3.size_in_bytes"] == "override", "override recorded in source")
# The mechanics of --set, unchecked (--no-check): any path, new devices.
r = probe("--xml", "one_socket.xml", "--no-check", "--set", "node9.CPU.x=1",
          "--set", "GPU7.memory_size_in_bytes=8")
got = parse(r.stdout)
# No device id prefixes "node9.CPU.x": the first component is the new device's id.
check(got["node9"]["CPU"]["x"] == 1, "--set with an unknown dotted device id")
check(got["GPU7"]["memory_size_in_bytes"] == 8, "--set creates a device")
r = probe("--xml", "one_socket.xml", "--set", "CPU.cache.L1=1", "--set", "CPU.cache.L1.size_in_bytes=2", rc=2)
probe("--xml", "one_socket.xml", "--set", "CPU.vendor", rc=2)
probe("--xml", "one_socket.xml", "--set", "CPU.vendor=\"unterminated", rc=2)
# Checked (the default): a wrong path gets the nearest key, a bare word the quotes.
r = probe("--xml", "one_socket.xml", "--set", "CPU.cahce.L3.size_in_bytes=1", rc=2)
check(r.stderr == "sysdesc: error: probe: --set CPU.cahce.L3.size_in_bytes=1: unknown key "
      "'cahce' in 'CPU'; did you mean 'cache'?\n", "--set typo: %r" % r.stderr)
r = probe("--xml", "one_socket.xml", "--set", "CPU.vendor=Zen", rc=2)
check(r.stderr == "sysdesc: error: probe: --set CPU.vendor=Zen: expected attribute value; a "
      "string needs quotes inside the shell's: 'CPU.vendor=\"Zen\"'\n", "--set bare word: %r" % r.stderr)
r = probe("--xml", "one_socket.xml", "--set", 'CPU.num_cores="4"', rc=2)
check(r.stderr == "sysdesc: error: probe: --set CPU.num_cores=\"4\": 'CPU.num_cores' must be an "
      "integer (i64), not the string \"4\"; write 4 without quotes\n", "--set string: %r" % r.stderr)
# A size with a unit: the number to write first; one report, for the key
# written (not the flat key the override keeps in step with it).
r = probe("--xml", "one_socket.xml", "--set", "CPU.cache.L3.size_in_bytes=32MiB", rc=2)
check(r.stderr == "sysdesc: error: probe: --set CPU.cache.L3.size_in_bytes=32MiB: write "
      "33554432 (bytes): 'CPU.cache.L3.size_in_bytes' holds a number, and 32MiB is not one in "
      "MLIR\n", "--set with a unit: %r" % r.stderr)
for path, twin in (("CPU.cache.L3.size_in_bytes", "L3_cache_size_in_bytes"),
                   ("CPU.L3_cache_size_in_bytes", "cache.L3.size_in_bytes")):
    r = probe("--xml", "one_socket.xml", "--set", '%s="32MiB"' % path, rc=2)
    check(r.stderr.count("\n") == 1 and ("'%s' must be an integer" % path) in r.stderr and
          twin not in r.stderr and r.stderr.endswith("; write 33554432 (bytes)\n"),
          "--set %s as a string: one problem, the key written: %r" % (path, r.stderr))
r = probe("--xml", "one_socket.xml", "--set", "node9.CPU.x=1", rc=2)
check("device 'node9' has no 'device_type' (CPU, GPU or ACCEL) and its id does not tell it" in r.stderr,
      "--set new device: %r" % r.stderr)

# --override FILE: a YAML system's leaves replace probed values, then --set wins.
with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
    f.write("CPU:\n  vendor: Site\n  cache:\n    L3:\n      size_in_bytes: 33554432\n"
            "GPU5:\n  device_type: GPU\n  memory_size_in_bytes: 16\n")
    site = f.name
r = probe("--xml", "smt_off.xml", "-q", "--override", site, "--set", 'CPU.vendor="Cli"')
got = parse(r.stdout)
check(got["CPU"]["cache"]["L3"]["size_in_bytes"] == 33554432, "--override L3")
check(got["CPU"]["L3_cache_size_in_bytes"] == 33554432, "--override L3 updates the flat key")
check(got["CPU"]["source"]["cache.L3.size_in_bytes"] == "override", "--override recorded in source")
check(got["CPU"]["vendor"] == "Cli", "--set applies after --override")
check(got["GPU5"]["memory_size_in_bytes"] == 16, "--override adds a device")
probe("--xml", "one_socket.xml", "--override", site + ".missing", rc=3)
# An override file is checked as a fragment, located in it.
with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
    f.write("CPU:\n  cache:\n    L3:\n      sise_in_bytes: 1\n")
    typo = f.name
r = probe("--xml", "one_socket.xml", "--override", typo, rc=2)
check(r.stderr == "%s:4:7: error: unknown key 'sise_in_bytes' in 'CPU.cache.L3'; did you mean "
      "'size_in_bytes'?\n" % typo, "--override typo located: %r" % r.stderr)
probe("--xml", "one_socket.xml", "--override", typo, "--no-check")
os.unlink(typo)
os.unlink(site)

# --format yaml loads back (sysdesc convert) to the very spec --format attr
# prints; --format json is JSON with the same devices and keys.
for args in (["one_socket.xml"], ["gpu.xml"], ["one_socket.xml", "gpu.xml"]):
    xml_args = [a for f in args for a in ("--xml", f)] + ["-q"]
    attr = probe(*xml_args).stdout
    y = probe(*xml_args, "--format", "yaml").stdout
    back = subprocess.run([SYSDESC, "convert", "--to", "attr", "-"], input=y, capture_output=True,
                          text=True)
    check(back.returncode == 0 and back.stdout == attr,
          "probe %s: --format yaml reads back to the same spec: %s" % (args, back.stderr.strip()))
    j = probe(*xml_args, "--format", "json").stdout
    try:
        doc = json.loads(j)
    except ValueError as e:
        doc = None
        check(False, "probe %s: --format json is not JSON: %s" % (args, e))
    if doc is not None:
        spec = parse(attr)
        # one machine's spec leads with its CPU triple's data layout (docs/layout.md)
        dl = doc.pop("data_layout", None)
        check((dl is not None) == (len(args) == 1 and "triple" in spec.get("CPU", {})),
              "probe %s: data_layout %r (one machine's, from its CPU triple)" % (args, dl))
        check(list(doc) == list(spec), "probe %s: json devices %s" % (args, list(doc)))
        for dev in spec:
            check(list(doc.get(dev, {})) == list(spec[dev]),
                  "probe %s: json keys of %s" % (args, dev))
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "spec.yaml")
    r = probe("--xml", "gpu.xml", "--format", "yaml", "-o", out)
    check(r.stdout == "" and open(out).read() == probe("--xml", "gpu.xml", "--format", "yaml").stdout,
          "--format yaml -o writes the file")

# Errors: unreadable file 3, malformed XML 2, unknown format 2.
probe("--xml", "does-not-exist.xml", rc=3)
r = probe("--xml", "malformed.xml", rc=2)
check("malformed.xml" in r.stderr, "malformed XML error names the file")
r = probe("--xml", "one_socket.xml", "--format", "toml", rc=2)
check("unknown format" in r.stderr, "unknown format says why")
probe("--bogus", rc=2)

# -o FILE: atomic; a failed probe keeps the old file.
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "spec.mlir")
    r = subprocess.run([SYSDESC, "probe", "--xml", os.path.join(XMLDIR, "one_socket.xml"), "-o", out],
                       capture_output=True, text=True)
    check(r.returncode == 0 and r.stdout == "", "-o writes nothing on stdout")
    text = open(out).read()
    # one machine: its CPU triple's data layout first (docs/layout.md)
    check(text.startswith("module attributes {dlti.dl_spec = #dlti.dl_spec<")
          and ", dlti.target_system_spec = #dlti.target_system_spec<" in text
          and text.endswith("} {\n}\n\n"), "-o content is the mlir form")
    r = subprocess.run([SYSDESC, "probe", "--xml", os.path.join(XMLDIR, "malformed.xml"), "-o", out],
                       capture_output=True, text=True)
    check(r.returncode == 2 and open(out).read() == text, "failed probe keeps the old file")
    check(os.listdir(d) == ["spec.mlir"], "no temporary file left: %s" % os.listdir(d))
    r = subprocess.run([SYSDESC, "probe", "--xml", os.path.join(XMLDIR, "one_socket.xml"), "-o",
                        os.path.join(d, "no-such-dir", "x.mlir")], capture_output=True, text=True)
    check(r.returncode == 3, "-o into a missing directory fails with 3")

# query --host says a sanity warning only about the value it answers.  The
# odd VM's topology (HWLOC_XMLFILE, as for this host) has a doubted L3 and
# memory; which keys are doubted is read from the probe itself.
env = dict(os.environ, HWLOC_XMLFILE=os.path.join(XMLDIR, "odd_vm.xml"))


def query_host(*keys):
    return subprocess.run([SYSDESC, "query", "--host", "--runtimes=none"] + list(keys),
                          capture_output=True, text=True, env=env)


r = query_host("CPU", "suspect")
suspect = re.findall(r'"([^"]+)"', r.stdout)
check(r.returncode == 0 and "cache.L3.size_in_bytes" in suspect,
      "odd VM: the L3 is suspect: %r %r" % (r.stdout, r.stderr))
check(r.stderr == "", "query --host CPU suspect repeats no warning: %r" % r.stderr)
for keys, about in ((["CPU", "cache", "L1", "size_in_bytes"], None),
                    (["CPU", "vendor"], None),
                    (["CPU", "cache", "L3", "size_in_bytes"], "cache.L3.size_in_bytes"),
                    (["CPU", "L3_cache_size_in_bytes"], "cache.L3.size_in_bytes"),
                    (["CPU", "cache"], "cache.L3.size_in_bytes"),
                    (["CPU", "cache", "L3", "line_size_in_bytes"], None)):
    r = query_host(*keys)
    warned = re.findall(r"^sysdesc: warning: CPU\.([^:]+):", r.stderr, re.M)
    check(r.returncode == 0 and warned == ([about] if about else []) and
          len(r.stderr.splitlines()) == len(warned),
          "query --host %s: warnings %r, expected %r" % (" ".join(keys), warned, about))
r = subprocess.run([SYSDESC, "query", "--host", "--runtimes=none", "-q", "CPU", "cache"],
                   capture_output=True, text=True, env=env)
check(r.returncode == 0 and r.stderr == "", "query --host -q: %r" % r.stderr)

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("all probe XML checks passed (%d fixtures)" % len(FIXTURES))
