#!/usr/bin/env python3
"""The whole systems/ catalog, every file under it, against the rules of
docs/catalog.md:

* every file names its sources ("# Sources:");
* a product entry (not under VENDOR/arch/) passes `sysdesc check --complete`;
  an architecture base passes `sysdesc check`, holds no model and no PCI ids,
  and is the base of at least one entry;
* every entry, printed as MLIR, is accepted and printed back unchanged by
  mlir-opt-22 (skipped when it is absent);
* every GPU product (a single-device entry) of every vendor builds on an
  architecture base of its vendor (VENDOR/arch/NAME; VENDOR/arch/<arch> when
  that exists) and does not write again a value that base gives;
* a file of several devices that builds on catalog products is a machine and
  lies under nodes/;
* every accelerator that is no GPU (device_type ACCEL) names its compute
  units (compute_unit_name: TPC, NeuronCore-v2), whose count means nothing
  without it, and its link totals add up (links x one link x 2 directions);
* arithmetic that must hold for every GPU device (a catalog GPU or a GPU of a
  system file), and where the keys apply for every accelerator: bandwidth = bus width / 8 x memory clock x the data-rate
  multiplier of its memory type (where both are given), the shared memory
  limits in order, threads and registers in order, L2 <= last level cache,
  runtime-visible memory <= nominal, sparse = 2 x dense, matrix peaks >= the
  vector peaks they replace, cluster sizes in order; the FP32 and FP64 vector
  peaks are compute units x operations per clock of the architecture x the
  max clock (OPS_PER_CLOCK);
* one spelling per value: no two values of a string key differ only in case or
  punctuation (HBM3E and HBM3e); keys whose unit is a vendor's are only on that
  vendor's devices (VENDOR_KEYS);
* every CPU with a `uarch` (a catalog CPU or the CPU of a system file) names a
  microarchitecture of the probe's table (`sysdesc uarch`), and its
  `uarch_ancestors`, `triple` and `compiler` are what `sysdesc uarch NAME`
  gives, in its order (so a catalog CPU carries the keys a probe of it
  writes); the triple's architecture is the entry's `arch`;
* a PCI id that several products claim (siblings: the RX 7900 XT and XTX)
  is one the probe can tell apart (sysdesc_catalog_pci_fill): every two of
  them differ in num_compute_units, or in memory so far that the probe's
  memory rule (no more than the marketed size, no less than 85% of the
  entry's) cannot take one for the other; a declared variant
  (`# variant-of: NAME`, a MIG profile) never matches and claims only ids
  its product claims.
Environment: SYSDESC (the tool), SRCDIR (the source tree)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
CATALOG = os.path.join(os.environ["SRCDIR"], "systems")
ENV = dict(os.environ, SYSDESC_PATH=CATALOG)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([SYSDESC, *args], capture_output=True, text=True, env=ENV,
                          stdin=subprocess.DEVNULL)


# Data-rate multiplier per memory type: memory_clock_in_mhz is the clock as the
# runtimes report it (CUDA's and HIP's memoryClockRate, deviceQuery's "Memory
# Clock rate"), at which data moves on both edges: bandwidth = bus width / 8 x
# clock x 2 for every type below (HBM: the DDR clock; GDDR6/6X/7: CUDA reports
# the clock so that the same formula gives the marketed bandwidth, e.g. T4 5001
# MHz x 256 bits, RTX 4090 10501 MHz x 384 bits).  A type not listed here, given
# with a clock and a bus width, is an error: add it with its source.
DATA_RATE = {"HBM2": 2, "HBM2e": 2, "HBM3": 2, "HBM3e": 2, "GDDR6": 2, "GDDR6X": 2,
             "GDDR7": 2, "LPDDR5": 2, "LPDDR5X": 2}
BANDWIDTH_TOLERANCE = 0.02      # published bandwidths are rounded (2039 vs 2039.04 GB/s)
SPARSE_TOLERANCE = 0.02         # the L40S datasheet: 362.05 dense, 733 sparse

# Vector operations per clock per compute unit (an FMA counts two), by
# architecture: the FP32 and FP64 vector peaks are compute units x these x the
# max clock, within PEAK_TOLERANCE (vendors round: the L4's 30.3 TFLOPS is
# 30.29).  NVIDIA: the CUDA C++ Programming Guide, "Arithmetic Instructions"
# (results per clock per multiprocessor: 32-bit fp add/multiply/FMA 64 on 7.x
# and 8.0, 128 on 8.6 to 12.0; 64-bit 32 on 7.0 and 8.0, 2 on 7.5, 8.6, 8.7,
# 8.9 and 12.0, 64 on 9.0 and 10.0).  AMD: ROCm's MI100 (gfx908), MI250 (gfx90a)
# and MI300 (gfx942) microarchitecture pages (FLOPS per clock per CU), and RDNA's
# dual-issue 128 FP32 lanes per CU (gfx1100, gfx1201: the RX 7900 XTX's 61.4 and
# the RX 9070 XT's 48.7 TFLOPS).  Intel: 8 EUs of 16 lanes (Xe-HPC) or 16 of 8
# (Xe-HPG, Xe2 8 XVEs of 16) per Xe-core (the arch bases' sources).
OPS_PER_CLOCK = {
    "sm_70": {"fp32_vector": 128, "fp64_vector": 64},
    "sm_75": {"fp32_vector": 128, "fp64_vector": 4},
    "sm_80": {"fp32_vector": 128, "fp64_vector": 64},
    "sm_86": {"fp32_vector": 256, "fp64_vector": 4},
    "sm_87": {"fp32_vector": 256, "fp64_vector": 4},
    "sm_89": {"fp32_vector": 256, "fp64_vector": 4},
    "sm_90": {"fp32_vector": 256, "fp64_vector": 128},
    "sm_100": {"fp32_vector": 256, "fp64_vector": 128},
    "sm_120": {"fp32_vector": 256, "fp64_vector": 4},
    "gfx908": {"fp32_vector": 128, "fp64_vector": 64},
    "gfx90a": {"fp32_vector": 128, "fp64_vector": 128},
    "gfx942": {"fp32_vector": 256, "fp64_vector": 128},
    "gfx1100": {"fp32_vector": 256},
    "gfx1201": {"fp32_vector": 256},
    "pvc": {"fp32_vector": 256, "fp64_vector": 256},
    "dg2-g10": {"fp32_vector": 256},
    "bmg-g21": {"fp32_vector": 256},
}
PEAK_TOLERANCE = 0.02

# Keys whose unit belongs to some vendors: a register of another width would
# not compare (docs/keys.md).
VENDOR_KEYS = {"max_registers_per_thread": {"NVIDIA", "AMD"},
               "register_file_per_execution_unit_thread_in_bytes": {"Intel"},
               # the occupancy facts (docs/occupancy.md): each vendor's rules
               "register_allocation_granularity": {"NVIDIA"},
               "warp_allocation_granularity": {"NVIDIA"},
               "shared_memory_carveouts_in_bytes": {"NVIDIA"},
               "simds_per_compute_unit": {"AMD"}, "max_waves_per_simd": {"AMD"},
               "vgprs_per_simd": {"AMD"}}

# Matrix peaks that are at least the peak they accelerate (where both are given).
AT_LEAST = [("fp64_matrix", "fp64_vector"), ("fp32_vector", "fp64_vector"),
            ("tf32_matrix", "fp32_vector"), ("fp16_matrix", "fp32_vector"),
            ("bf16_matrix", "fp32_vector"), ("fp16_matrix", "tf32_matrix"),
            ("bf16_matrix", "tf32_matrix"), ("fp8_matrix", "fp16_matrix"),
            ("int8_matrix", "fp16_matrix"), ("int4_matrix", "int8_matrix"),
            ("fp16_matrix", "fp16_vector"), ("bf16_matrix", "bf16_vector")]

names = []
for root, _dirs, files in os.walk(CATALOG):
    for f in files:
        if f.endswith(".yaml"):
            rel = os.path.relpath(os.path.join(root, f), CATALOG)
            names.append(rel[:-5])
names.sort()
check(len(names) > 0, "no catalog files under %s" % CATALOG)
is_base = {n: "/arch/" in n for n in names}


def text(name):
    with open(os.path.join(CATALOG, name + ".yaml"), encoding="utf-8") as fh:
        return fh.read()


def own_device_keys(name):
    """The keys each device of the file writes itself (not inherited), with the
    value of base:.  Read from the text (no YAML module needed): a device is a
    top-level key, its own keys are those indented by two spaces, or the keys of
    a one-line flow mapping (GPU0: {base: nvidia/h100-sxm}); sysdesc itself
    resolves bases for everything else."""
    devices, current = {}, None
    for line in text(name).splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        top = re.match(r"^([^\s#][^:]*):\s*(.*?)\s*(#.*)?$", line)
        if top:
            current = top.group(1).strip().strip('"')
            if current == "data_layout":
                current = None
                continue
            devices[current] = {}
            rest = top.group(2)
            if rest.startswith("{") and rest.endswith("}"):
                for item in rest[1:-1].split(","):
                    if ":" in item:
                        k, v = item.split(":", 1)
                        devices[current][k.strip()] = v.strip().strip('"')
            continue
        own = re.match(r"^  ([A-Za-z_][\w.]*):\s*(.*?)\s*(#.*)?$", line)
        if own and current is not None:
            devices[current][own.group(1)] = own.group(2).strip('"')
    return devices


def as_json(name):
    r = run("convert", "--to", "json", name)
    check(r.returncode == 0, "%s: convert --to json failed: %s" % (name, r.stderr.strip()))
    return json.loads(r.stdout) if r.returncode == 0 else {}


resolved = {n: as_json(n) for n in names}
own = {n: own_device_keys(n) for n in names}

# ---- sources, schema, bases ----
for n in names:
    body = text(n)
    check("# Sources:" in body, "%s has no '# Sources:' comment" % n)
    r = run("check", *([] if is_base[n] else ["--complete"]), n)
    check(r.returncode == 0, "%s: sysdesc check%s: %s" % (
        n, "" if is_base[n] else " --complete", (r.stdout + r.stderr).strip()))
    if is_base[n]:
        for dev, props in own[n].items():
            check("model" not in props, "%s: an architecture base has no model" % n)
            check("pci_device_ids" not in props, "%s: an architecture base claims no PCI ids" % n)

bases_used = set()
for n in names:
    for dev, props in own[n].items():
        b = props.get("base")
        if isinstance(b, str) and not b.endswith((".yaml", ".yml")) and not b.startswith(("/", "./", "../")):
            bases_used.add(b)
            check(b in names, "%s: %s has base %s, which is not in the catalog" % (n, dev, b))
for n in names:
    if is_base[n]:
        check(n in bases_used, "%s: an architecture base no entry uses" % n)


def chain(name, dev):
    """The base names a device goes through, nearest first."""
    out = []
    props = own[name].get(dev, {})
    while isinstance(props.get("base"), str) and props["base"] in own and len(out) < 16:
        b = props["base"]
        out.append(b)
        props = next(iter(own[b].values()))
    return out


# ---- every vendor's GPU products build on an architecture base, and do not copy it ----
def vendor_dir(name):
    return name.split("/")[0]


for n in names:
    if is_base[n] or len(resolved[n]) != 1:
        continue
    dev, spec = next(iter(resolved[n].items()))
    if not isinstance(spec, dict) or spec.get("device_type") != "GPU":
        continue
    bases = chain(n, dev)
    arch_bases = [b for b in bases if is_base.get(b) and vendor_dir(b) == vendor_dir(n)]
    named = "%s/arch/%s" % (vendor_dir(n), spec.get("arch"))
    want = named if named in names else "%s/arch/*" % vendor_dir(n)
    check(arch_bases and (want.endswith("*") or named in arch_bases),
          "%s: %s (arch %s) does not build on %s (its bases: %s)"
          % (n, dev, spec.get("arch"), want, bases or "none"))
    for b in arch_bases:
        base_spec = next(iter(resolved[b].values()))
        for k in own[n].get(dev, {}):
            if k != "base" and k in base_spec and spec.get(k) == base_spec[k]:
                check(False, "%s: %s writes %s again, as %s gives it: leave it to the base"
                      % (n, dev, k, b))

# ---- machines (files of several devices built on products) lie under nodes/ ----
for n in names:
    if len(own[n]) > 1 and any("base" in props for props in own[n].values()):
        check(n.startswith("nodes/"), "%s: a machine built on catalog products lies under "
              "nodes/ (docs/catalog.md)" % n)

# ---- arithmetic on every GPU ----
def close(a, b, tol):
    return abs(a - b) <= tol * max(abs(a), abs(b))


for n in names:
    if is_base[n]:
        continue
    for dev, g in resolved[n].items():
        if not isinstance(g, dict) or g.get("device_type") not in ("GPU", "ACCEL"):
            continue
        where = "%s: %s" % (n, dev)
        if g.get("device_type") == "ACCEL":
            check("compute_unit_name" in g or "num_compute_units" not in g,
                  "%s: an accelerator's num_compute_units without compute_unit_name (TPC, "
                  "NeuronCore-v2): say what it counts" % where)
            link = g.get("interconnect", {})
            k, one, total = (link.get("num_links"),
                             link.get("bandwidth_per_link_in_bytes_per_second"),
                             link.get("total_bandwidth_in_bytes_per_second"))
            if k and one and total:
                check(close(total, 2 * k * one, BANDWIDTH_TOLERANCE),
                      "%s: interconnect total %.4g B/s, but %d links x %.4g B/s x 2 = %.4g"
                      % (where, total, k, one, 2 * k * one))
        bus, clk, bw = (g.get("memory_bus_width_in_bits"), g.get("memory_clock_in_mhz"),
                        g.get("memory_bandwidth_in_bytes_per_second"))
        if bus and clk and bw:
            mt = g.get("memory_type")
            check(mt in DATA_RATE, "%s: memory type %r has no data-rate multiplier in this test"
                  % (where, mt))
            if mt in DATA_RATE:
                want = bus / 8 * clk * 1e6 * DATA_RATE[mt]
                check(close(want, bw, BANDWIDTH_TOLERANCE),
                      "%s: bandwidth %.4g B/s, but %d bits / 8 x %d MHz x %d = %.4g B/s"
                      % (where, bw, bus, clk, DATA_RATE[mt], want))

        def order(small, large, why):
            a, b = g.get(small), g.get(large)
            if isinstance(a, int) and isinstance(b, int):
                check(a <= b, "%s: %s (%d) > %s (%d): %s" % (where, small, a, large, b, why))

        order("shared_memory_per_block_in_bytes", "max_shared_memory_per_block_in_bytes",
              "the opt-in limit is at least the default")
        order("max_shared_memory_per_block_in_bytes", "shared_memory_per_compute_unit_in_bytes",
              "a block's shared memory fits a compute unit")
        order("max_threads_per_block", "max_threads_per_compute_unit", "a block fits a compute unit")
        order("registers_per_block", "registers_per_compute_unit", "a block's registers fit a compute unit")
        order("L2_cache_size_in_bytes", "last_level_cache_size_in_bytes", "the last level is the largest")
        order("memory_size_in_bytes", "nominal_memory_size_in_bytes",
              "programs see at most the marketed capacity")
        order("max_cluster_size", "max_nonportable_cluster_size", "the non-portable limit is the larger")
        order("max_persisting_L2_cache_size_in_bytes", "L2_cache_size_in_bytes", "a part of the L2")
        if g.get("vendor") == "NVIDIA":
            order("shared_memory_per_compute_unit_in_bytes", "L1_cache_size_in_bytes",
                  "NVIDIA: shared memory is carved from the L1")
        res, opt, per_cu = (g.get("reserved_shared_memory_per_block_in_bytes"),
                            g.get("max_shared_memory_per_block_in_bytes"),
                            g.get("shared_memory_per_compute_unit_in_bytes"))
        if isinstance(res, int) and isinstance(opt, int) and isinstance(per_cu, int):
            check(opt + res <= per_cu, "%s: opt-in %d + reserved %d > per compute unit %d"
                  % (where, opt, res, per_cu))
        for d in g.get("max_block_dims", []):
            order_ok = d <= g.get("max_threads_per_block", d)
            check(order_ok, "%s: a block dimension %d exceeds max_threads_per_block" % (where, d))
        dense, sparse = g.get("peak_ops_per_second", {}), g.get("peak_sparse_ops_per_second", {})
        for k, v in sparse.items():
            check(k in dense, "%s: sparse %s without its dense peak" % (where, k))
            if k in dense:
                check(close(v, 2 * dense[k], SPARSE_TOLERANCE),
                      "%s: sparse %s %.4g is not 2 x dense %.4g" % (where, k, v, dense[k]))
        for big, small in AT_LEAST:
            if big in dense and small in dense:
                check(dense[big] >= dense[small], "%s: %s %.4g < %s %.4g"
                      % (where, big, dense[big], small, dense[small]))
        if g.get("is_partition") is False:
            check("num_partitions_per_package" not in g,
                  "%s: a whole device with num_partitions_per_package (inherited?)" % where)
        rates = OPS_PER_CLOCK.get(g.get("arch"), {})
        cus, clock = g.get("num_compute_units"), g.get("max_clock_in_mhz")
        for k, per_clock in rates.items():
            if k in dense and cus and clock:
                want = cus * per_clock * clock * 1e6
                check(close(dense[k], want, PEAK_TOLERANCE),
                      "%s: %s %.4g, but %d compute units x %d per clock x %d MHz = %.4g"
                      % (where, k, dense[k], cus, per_clock, clock, want))
        for k, vendors in VENDOR_KEYS.items():
            if k in g:
                check(g.get("vendor") in vendors, "%s: %s is a key of %s devices, not %s"
                      % (where, k, ", ".join(sorted(vendors)), g.get("vendor")))

# ---- one spelling per value (HBM3E and HBM3e were both written) ----
def spelling(v):
    return re.sub(r"[\s_\-]", "", v).lower()


spellings = {}
for n in names:
    for dev, g in resolved[n].items():
        if not isinstance(g, dict):
            continue
        for k, v in g.items():
            if isinstance(v, str) and k not in ("model", "source"):
                spellings.setdefault((k, spelling(v)), {}).setdefault(v, n)
for (k, _), seen in sorted(spellings.items()):
    check(len(seen) == 1, "%s is spelt %s: one spelling per value" % (
        k, " and ".join("%r (%s)" % (v, n) for v, n in sorted(seen.items()))))

# ---- CPU identity keys: those the probe writes for the uarch ----
r = run("uarch")
check(r.returncode == 0, "sysdesc uarch (the list) failed: %s" % r.stderr.strip())
UARCH_NAMES = set(r.stdout.split())
uarch_keys = {}  # name -> the CPU keys `sysdesc uarch NAME` prints


def keys_of(name):
    if name not in uarch_keys:
        r = run("uarch", "--format", "json", name)
        check(r.returncode == 0, "sysdesc uarch %s failed: %s" % (name, r.stderr.strip()))
        uarch_keys[name] = json.loads(r.stdout)["CPU"] if r.returncode == 0 else {}
    return uarch_keys[name]


def first_difference(path, a, b):
    """The first place where a and b differ, key order included (the entry is
    written as the probe writes it): "compiler.gcc.min_version: "9.9", not
    "10.3""; None when equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return "%s: keys %s, not %s" % (path, list(a), list(b))
        for k in a:
            d = first_difference("%s.%s" % (path, k), a[k], b[k])
            if d:
                return d
        return None
    return None if a == b else "%s: %s, not %s" % (path, json.dumps(a), json.dumps(b))


IDENTITY = ("uarch_ancestors", "triple", "compiler")
cpus_checked = 0
for n in names:
    for dev, spec in resolved[n].items():
        if not isinstance(spec, dict) or spec.get("device_type") != "CPU":
            continue
        where = "%s: %s" % (n, dev)
        if "triple" in spec:
            check(spec["triple"].split("-")[0] == spec.get("arch"),
                  "%s: triple %s is not for arch %s" % (where, spec["triple"], spec.get("arch")))
        u = spec.get("uarch")
        if u is None:
            for k in IDENTITY:
                check(k == "triple" or k not in spec,
                      "%s: %s without uarch: write the uarch it belongs to" % (where, k))
            continue
        cpus_checked += 1
        if u not in UARCH_NAMES:
            check(False, "%s: uarch %r is not in the probe's table: %s"
                  % (where, u, run("uarch", u).stderr.strip()))
            continue
        want = keys_of(u)
        check(want.get("triple", "").split("-")[0] == spec.get("arch"),
              "%s: uarch %s is for %s, the entry's arch is %s"
              % (where, u, want.get("triple", "?").split("-")[0], spec.get("arch")))
        for k in IDENTITY:
            if k == "triple" and k not in spec:
                continue  # left out on purpose (Apple: macOS or Linux), said in the file
            d = first_difference(k, spec.get(k), want.get(k))
            check(d is None, "%s: not what `sysdesc uarch %s` gives: %s" % (where, u, d))

# ---- PCI ids: siblings told apart, variants declared ----
VARIANT = re.compile(r"^#\s*variant-of:\s*(\S+)\s*$", re.M)
variant_of = {}
claims = {}
for n in names:
    m = VARIANT.findall(text(n))
    check(len(m) <= 1, "%s: more than one variant-of line" % n)
    if m:
        variant_of[n] = m[0]
        check(m[0] in names and not is_base.get(m[0], True),
              "%s: variant-of names %s, which is no catalog entry" % (n, m[0]))
    if is_base[n] or len(resolved[n]) != 1 or n in variant_of:
        continue
    g = next(iter(resolved[n].values()))
    for d in g.get("pci_device_ids", []):
        claims.setdefault((g.get("pci_vendor_id"), d), []).append(n)


def could_be(probed, entry):
    """The probe's rule (sysdesc/catalog_pci.c): could a device with `probed`'s
    compute units and memory be `entry`?"""
    if probed.get("num_compute_units") != entry.get("num_compute_units"):
        return False
    mine, theirs = probed.get("memory_size_in_bytes"), entry.get("memory_size_in_bytes")
    if mine and theirs:
        nominal = max(entry.get("nominal_memory_size_in_bytes", theirs), theirs)
        return mine <= nominal and mine // 20 * 20 >= theirs // 20 * 17
    return True


shared = 0
for (vendor, dev_id), who in sorted(claims.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1])):
    if len(who) < 2:
        continue
    shared += 1
    pid = "%04x:%04x" % (vendor or 0, dev_id)
    for i, a in enumerate(who):
        for b in who[i + 1:]:
            ga, gb = next(iter(resolved[a].values())), next(iter(resolved[b].values()))
            check(not could_be(ga, gb) and not could_be(gb, ga),
                  "PCI id %s: %s and %s claim it and the probe cannot tell them apart: "
                  "give them different num_compute_units or memory" % (pid, a, b))
for n, p in variant_of.items():
    if p in resolved and n in resolved and len(resolved[n]) == 1 and len(resolved[p]) == 1:
        mine = set(next(iter(resolved[n].values())).get("pci_device_ids", []))
        theirs = set(next(iter(resolved[p].values())).get("pci_device_ids", []))
        check(mine <= theirs, "%s: a variant of %s claims ids it does not: %s"
              % (n, p, ["0x%04x" % i for i in sorted(mine - theirs)]))

# ---- mlir-opt-22 ----
mlir_opt = shutil.which("mlir-opt-22")
if mlir_opt:
    with tempfile.TemporaryDirectory() as tmp:
        for n in names:
            r = run("convert", "--to", "mlir", n)
            check(r.returncode == 0, "%s: convert --to mlir failed: %s" % (n, r.stderr.strip()))
            if r.returncode != 0:
                continue
            path = os.path.join(tmp, "a.mlir")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(r.stdout)
            o = subprocess.run([mlir_opt, path], capture_output=True, text=True)
            check(o.returncode == 0 and o.stdout == r.stdout,
                  "%s: mlir-opt-22 %s" % (n, "rejects it: " + o.stderr.strip()
                                          if o.returncode else "prints it differently"))
else:
    print("mlir-opt-22 not found: the MLIR part is skipped")

print("%d catalog files (%d architecture bases), %d PCI ids (%d shared by siblings), %d variants, "
      "%d CPUs with a uarch: %d problems" % (len(names), sum(is_base.values()), len(claims), shared,
                                             len(variant_of), cpus_checked, len(failures)))
sys.exit(1 if failures else 0)
