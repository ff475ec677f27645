#!/usr/bin/env python3
"""The probe's NVIDIA GPUs, key by key, against what the machine reports
(scripts/gpu-check runs this; see there).

For every NVIDIA GPU of `sysdesc probe --io` (CUDA_DEVICE_ORDER=PCI_BUS_ID,
so that CUDA, PyTorch and Triton number the devices as the probe does):

* the probe's keys against nvidia-smi -q, the CUDA driver's device
  attributes (ctypes on libcuda.so.1; the attribute numbers read from the
  cuda.h that Triton ships when there is one, else the CUDA Driver API
  reference's), torch.cuda.get_device_properties, Triton's
  driver.active.utils.get_device_properties, Inductor's
  DeviceProperties.create, and the catalog entry the probe filled from;
* `sysdesc export --to triton` and `--to inductor` against what Triton and
  Inductor report, field by field;
* `sysdesc occupancy` against the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor
  for kernels JIT-compiled from PTX (scripts/gpu_occupancy.py).

A row agrees when every value meant to be the same quantity equals the
probe's (after converting units); values of another meaning are shown in
parentheses and not compared (NVML's memory total includes what the driver
keeps; the catalog's nominal size is the marketed one).  Standard library
only; PyTorch and Triton are used when importable.  Exit status: 0 all
agree, 1 a value differs, 77 no NVIDIA GPU (nothing to compare).
"""
import argparse
import ctypes
import glob
import json
import os
import re
import shutil
import subprocess
import sys

os.environ.setdefault("CUDA_DEVICE_ORDER", "PCI_BUS_ID")

# CUdevice_attribute values from the CUDA Driver API reference (cuda.h); used
# when no cuda.h is found to read them from.
CU_ATTR = {
    "MAX_THREADS_PER_BLOCK": 1, "MAX_BLOCK_DIM_X": 2, "MAX_BLOCK_DIM_Y": 3, "MAX_BLOCK_DIM_Z": 4,
    "MAX_GRID_DIM_X": 5, "MAX_GRID_DIM_Y": 6, "MAX_GRID_DIM_Z": 7,
    "MAX_SHARED_MEMORY_PER_BLOCK": 8, "WARP_SIZE": 10, "MAX_REGISTERS_PER_BLOCK": 12,
    "CLOCK_RATE": 13, "MULTIPROCESSOR_COUNT": 16, "ECC_ENABLED": 32, "MEMORY_CLOCK_RATE": 36,
    "GLOBAL_MEMORY_BUS_WIDTH": 37, "L2_CACHE_SIZE": 38, "MAX_THREADS_PER_MULTIPROCESSOR": 39,
    "COMPUTE_CAPABILITY_MAJOR": 75, "COMPUTE_CAPABILITY_MINOR": 76,
    "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR": 81, "MAX_REGISTERS_PER_MULTIPROCESSOR": 82,
    "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 97, "MAX_BLOCKS_PER_MULTIPROCESSOR": 106,
    "MAX_PERSISTING_L2_CACHE_SIZE": 108, "RESERVED_SHARED_MEMORY_PER_BLOCK": 111,
}


def attr_numbers(log):
    """CU_ATTR, each number checked against a cuda.h found here (Triton's
    bundled one, a CUDA toolkit's): the probe (probe/runtimes/cuda.c) and this
    script share the reference's numbers, a header settles them."""
    heads = glob.glob("/usr/local/cuda*/include/cuda.h")
    try:
        import triton
        heads += glob.glob(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia",
                                        "include", "cuda.h"))
    except Exception:
        pass
    for h in heads:
        try:
            text = open(h, encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        found = dict((m.group(1), int(m.group(2))) for m in
                     re.finditer(r"CU_DEVICE_ATTRIBUTE_([A-Z0-9_]+)\s*=\s*(\d+)", text))
        if not found:
            continue
        wrong = {k: (v, found.get(k)) for k, v in CU_ATTR.items() if found.get(k) != v}
        log.append("CUdevice_attribute numbers checked against %s: %s" % (
            h, "all as the reference" if not wrong else "DIFFER %r" % wrong))
        return {k: found.get(k, v) for k, v in CU_ATTR.items()}, not wrong
    log.append("no cuda.h found: the CUdevice_attribute numbers are the CUDA Driver API "
               "reference's, as the probe's")
    return dict(CU_ATTR), True


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ---- the sources ----

class Cuda:
    """The CUDA driver through ctypes: attributes, name, memory, bus id."""

    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        if self.lib.cuInit(0) != 0:
            raise OSError("cuInit failed")
        n = ctypes.c_int()
        self.count = n.value if self.lib.cuDeviceGetCount(ctypes.byref(n)) == 0 else 0

    def device(self, bus_id):
        """The ordinal whose PCI bus id is bus_id (dddd:bb:dd.f), or None."""
        for i in range(self.count):
            d, buf = ctypes.c_int(), ctypes.create_string_buffer(64)
            if self.lib.cuDeviceGet(ctypes.byref(d), i) == 0 and \
                    self.lib.cuDeviceGetPCIBusId(buf, 64, d) == 0 and \
                    buf.value.decode().lower() == bus_id.lower():
                return d.value
        return None

    def attr(self, dev, number):
        v = ctypes.c_int()
        return v.value if self.lib.cuDeviceGetAttribute(ctypes.byref(v), number, dev) == 0 else None

    def name(self, dev):
        buf = ctypes.create_string_buffer(256)
        return buf.value.decode() if self.lib.cuDeviceGetName(buf, 256, dev) == 0 else None

    def total_mem(self, dev):
        v = ctypes.c_size_t()
        return v.value if self.lib.cuDeviceTotalMem_v2(ctypes.byref(v), dev) == 0 else None


def nvidia_smi(bus_id, out_dir):
    """nvidia-smi -q of the GPU at bus_id as {section/key: value}."""
    exe = shutil.which("nvidia-smi")
    if not exe:
        return None
    r = run([exe, "-q", "-i", bus_id])
    if r.returncode != 0:
        return None
    if out_dir:
        with open(os.path.join(out_dir, "nvidia-smi-%s.txt" % bus_id.replace(":", "_")), "w") as f:
            f.write(r.stdout)
    fields, stack = {}, []
    for line in r.stdout.splitlines():
        if not line.strip() or line.startswith("="):
            continue
        depth = (len(line) - len(line.lstrip())) // 4
        key, _, value = line.strip().partition(":")
        key, value = key.strip(), value.strip()
        stack = stack[:depth] + [key]
        if value:
            fields["/".join(stack[1:] if len(stack) > 1 else stack)] = value
    return fields


def smi_number(fields, *keys):
    for k in keys:
        v = fields.get(k) if fields else None
        m = re.match(r"^([\d.]+)", v or "")
        if m:
            return float(m.group(1))
    return None


def torch_props(index):
    try:
        import torch
        if not torch.cuda.is_available():
            return None
        return torch.cuda.get_device_properties(index)
    except Exception:
        return None


def triton_props(index):
    try:
        from triton.runtime import driver
        return dict(driver.active.utils.get_device_properties(index))
    except Exception:
        return None


def inductor_props(index):
    try:
        import torch
        from torch._inductor.runtime.hints import DeviceProperties
        return DeviceProperties.create(torch.device("cuda", index))._asdict()
    except Exception:
        return None


# ---- the comparison ----

def origin_of(source, key):
    """The probe's source of `key`: the entry of the longest dotted prefix
    (docs/keys.md, "source and suspect")."""
    parts = key.split(".")
    for n in range(len(parts), 0, -1):
        v = source.get(".".join(parts[:n]))
        if isinstance(v, str):
            return v.split(":")[0] if not v.startswith("catalog ") else v
    return ""


def fmt(v):
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return "%s" % (v,)


class Table:
    def __init__(self, title, columns):
        self.title, self.columns, self.rows, self.bad = title, columns, [], 0

    def row(self, key, probe, same, other=None, origin=None):
        """same: {column: value meant to equal probe}; other: {column:
        value of another meaning, shown in parentheses}; origin: where the
        probe's value came from (its source entry)."""
        cells, differ = [], []
        for c in self.columns:
            if same and c in same and same[c] is not None:
                cells.append(fmt(same[c]))
                if probe is not None and same[c] != probe:
                    differ.append(c)
            elif other and c in other and other[c] is not None:
                cells.append("(%s)" % fmt(other[c]))
            else:
                cells.append("")
        compared = [c for c in (same or {}) if same[c] is not None]
        if probe is None:
            verdict = "probe: none" if compared else ""
        elif differ:
            verdict = "DIFFERS: " + ", ".join(differ)
            self.bad += 1
        else:
            verdict = "agrees (%d)" % len(compared) if compared else "nothing to compare"
        self.rows.append([key, fmt(probe), origin or ""] + cells + [verdict])

    def markdown(self):
        head = ["key", "probe", "probe's source"] + self.columns + ["verdict"]
        lines = ["### " + self.title, "", "| " + " | ".join(head) + " |",
                 "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in self.rows]
        return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sysdesc", required=True)
    ap.add_argument("--out", help="a directory for the tables and the raw answers")
    args = ap.parse_args()
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    log = []

    def sysdesc(*a):
        return run([args.sysdesc, *a])

    try:
        cuda = Cuda()
    except OSError as e:
        cuda = None
        log.append("CUDA driver: %s" % e)
    # The probe's spec in MLIR (what export reads back; plain JSON is an
    # output only, docs/yaml.md), and as JSON for this script.
    p = sysdesc("probe", "--io", "-q", "--no-cache")
    if p.returncode != 0:
        print("gpu-check: sysdesc probe failed: %s" % p.stderr.strip(), file=sys.stderr)
        return 2
    spec_path = os.path.join(args.out or "/tmp", "gpu-check-probe.mlir")
    with open(spec_path, "w") as f:
        f.write(p.stdout)
    j = sysdesc("convert", "--to", "json", spec_path)
    if j.returncode != 0:
        print("gpu-check: sysdesc convert failed: %s" % j.stderr.strip(), file=sys.stderr)
        return 2
    spec = json.loads(j.stdout)
    gpus = [(k, v) for k, v in spec.items() if isinstance(v, dict) and
            v.get("device_type") == "GPU" and
            (v.get("vendor") == "NVIDIA" or "cuda" in v.get("runtimes", {}))]
    if not gpus or cuda is None or cuda.count == 0:
        print("gpu-check: no NVIDIA GPU here (the probe found %d, the CUDA driver %s): nothing "
              "to compare.  Run `scripts/gpu-check --run` on a machine with one." % (
                  len(gpus), "%d" % cuda.count if cuda else "is absent"))
        return 77
    numbers, header_ok = attr_numbers(log)
    version = sysdesc("--version").stdout.strip().splitlines()[0]
    report = ["# sysdesc gpu-check", "", "%s; %s" % (version, os.uname().nodename), ""]
    bad = 0 if header_ok else 1

    for index, (dev, g) in enumerate(gpus):
        bus = g.get("pci_bus_id", "")
        ordinal = cuda.device(bus) if bus else None
        if ordinal is None:
            ordinal = index
        A = lambda name: cuda.attr(ordinal, numbers[name])  # noqa: E731
        smi = nvidia_smi(bus, args.out) if bus else None
        tp, tr, ind = torch_props(ordinal), triton_props(ordinal), inductor_props(ordinal)
        src = g.get("source", {})
        entry_name = next((v[len("catalog "):] for v in src.values()
                           if isinstance(v, str) and v.startswith("catalog ")), None)
        entry = {}
        if entry_name:
            s = sysdesc("show", entry_name, "--format", "json")
            if s.returncode == 0:
                entry = next(iter(json.loads(s.stdout).values()))
        tget = lambda name: getattr(tp, name, None) if tp is not None else None  # noqa: E731
        cc = "%s.%s" % (A("COMPUTE_CAPABILITY_MAJOR"), A("COMPUTE_CAPABILITY_MINOR"))
        khz = lambda v: v / 1000 if v is not None else None  # noqa: E731
        t = Table("%s: %s (%s), CUDA ordinal %d; catalog entry %s" % (
            dev, g.get("model"), bus, ordinal, entry_name or "none"),
            ["nvidia-smi -q", "CUDA attribute", "torch", "Triton", "Inductor", "catalog"])
        sub = g.get("subgroup_sizes") or [None]
        rows = [
            ("model", g.get("model"), {"nvidia-smi -q": (smi or {}).get("Product Name"),
                                      "CUDA attribute": cuda.name(ordinal), "torch": tget("name")},
             {"catalog": entry.get("model")}),
            ("compute_capability", g.get("compute_capability"),
             {"CUDA attribute": cc, "torch": "%s.%s" % (tget("major"), tget("minor")) if tp else None,
              "catalog": entry.get("compute_capability")},
             {"Inductor": (ind or {}).get("cc")}),
            ("num_compute_units", g.get("num_compute_units"),
             {"CUDA attribute": A("MULTIPROCESSOR_COUNT"), "torch": tget("multi_processor_count"),
              "Triton": (tr or {}).get("multiprocessor_count"),
              "Inductor": (ind or {}).get("multi_processor_count"),
              "catalog": entry.get("num_compute_units")}, None),
            ("memory_size_in_bytes", g.get("memory_size_in_bytes"),
             {"CUDA attribute": cuda.total_mem(ordinal), "torch": tget("total_memory"),
              "catalog": entry.get("memory_size_in_bytes")},
             {"nvidia-smi -q": int(smi_number(smi, "FB Memory Usage/Total") * 2**20)
              if smi_number(smi, "FB Memory Usage/Total") else None}),
            ("L2_cache_size_in_bytes", g.get("L2_cache_size_in_bytes"),
             {"CUDA attribute": A("L2_CACHE_SIZE"), "torch": tget("L2_cache_size"),
              "catalog": entry.get("L2_cache_size_in_bytes")}, None),
            ("max_clock_in_mhz", g.get("max_clock_in_mhz"),
             {"nvidia-smi -q": smi_number(smi, "Max Clocks/SM"), "CUDA attribute": khz(A("CLOCK_RATE")),
              "Triton": khz((tr or {}).get("sm_clock_rate")), "catalog": entry.get("max_clock_in_mhz")},
             None),
            ("memory_clock_in_mhz", g.get("memory_clock_in_mhz"),
             {"nvidia-smi -q": smi_number(smi, "Max Clocks/Memory"),
              "CUDA attribute": khz(A("MEMORY_CLOCK_RATE")), "Triton": khz((tr or {}).get("mem_clock_rate")),
              "catalog": entry.get("memory_clock_in_mhz")}, None),
            ("memory_bus_width_in_bits", g.get("memory_bus_width_in_bits"),
             {"CUDA attribute": A("GLOBAL_MEMORY_BUS_WIDTH"), "Triton": (tr or {}).get("mem_bus_width"),
              "catalog": entry.get("memory_bus_width_in_bits")}, None),
            ("subgroup_sizes", sub[0] if len(sub) == 1 else None,
             {"CUDA attribute": A("WARP_SIZE"), "torch": tget("warp_size"),
              "Triton": (tr or {}).get("warpSize"), "Inductor": (ind or {}).get("warp_size"),
              "catalog": (entry.get("subgroup_sizes") or [None])[0]}, None),
            ("max_threads_per_block", g.get("max_threads_per_block"),
             {"CUDA attribute": A("MAX_THREADS_PER_BLOCK"),
              "Inductor": (ind or {}).get("max_threads_per_block"),
              "catalog": entry.get("max_threads_per_block")}, None),
            ("max_threads_per_compute_unit", g.get("max_threads_per_compute_unit"),
             {"CUDA attribute": A("MAX_THREADS_PER_MULTIPROCESSOR"),
              "torch": tget("max_threads_per_multi_processor"),
              "Inductor": (ind or {}).get("max_threads_per_multi_processor"),
              "catalog": entry.get("max_threads_per_compute_unit")}, None),
            ("max_blocks_per_compute_unit", g.get("max_blocks_per_compute_unit"),
             {"CUDA attribute": A("MAX_BLOCKS_PER_MULTIPROCESSOR"),
              "catalog": entry.get("max_blocks_per_compute_unit")}, None),
            ("registers_per_block", g.get("registers_per_block"),
             {"CUDA attribute": A("MAX_REGISTERS_PER_BLOCK"), "Triton": (tr or {}).get("max_num_regs"),
              "catalog": entry.get("registers_per_block")}, None),
            ("registers_per_compute_unit", g.get("registers_per_compute_unit"),
             {"CUDA attribute": A("MAX_REGISTERS_PER_MULTIPROCESSOR"),
              "torch": tget("regs_per_multiprocessor"),
              "Inductor": (ind or {}).get("regs_per_multiprocessor"),
              "catalog": entry.get("registers_per_compute_unit")}, None),
            ("shared_memory_per_block_in_bytes", g.get("shared_memory_per_block_in_bytes"),
             {"CUDA attribute": A("MAX_SHARED_MEMORY_PER_BLOCK"), "torch": tget("shared_memory_per_block"),
              "catalog": entry.get("shared_memory_per_block_in_bytes")}, None),
            ("max_shared_memory_per_block_in_bytes", g.get("max_shared_memory_per_block_in_bytes"),
             {"CUDA attribute": A("MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"),
              "torch": tget("shared_memory_per_block_optin"), "Triton": (tr or {}).get("max_shared_mem"),
              "catalog": entry.get("max_shared_memory_per_block_in_bytes")}, None),
            ("shared_memory_per_compute_unit_in_bytes", g.get("shared_memory_per_compute_unit_in_bytes"),
             {"CUDA attribute": A("MAX_SHARED_MEMORY_PER_MULTIPROCESSOR"),
              "torch": tget("shared_memory_per_multiprocessor"),
              "catalog": entry.get("shared_memory_per_compute_unit_in_bytes")}, None),
            ("reserved_shared_memory_per_block_in_bytes",
             g.get("reserved_shared_memory_per_block_in_bytes"),
             {"CUDA attribute": A("RESERVED_SHARED_MEMORY_PER_BLOCK"),
              "catalog": entry.get("reserved_shared_memory_per_block_in_bytes")}, None),
            ("max_block_dims", g.get("max_block_dims"),
             {"CUDA attribute": [A("MAX_BLOCK_DIM_X"), A("MAX_BLOCK_DIM_Y"), A("MAX_BLOCK_DIM_Z")],
              "catalog": entry.get("max_block_dims")}, None),
            ("max_grid_dims", g.get("max_grid_dims"),
             {"CUDA attribute": [A("MAX_GRID_DIM_X"), A("MAX_GRID_DIM_Y"), A("MAX_GRID_DIM_Z")],
              "catalog": entry.get("max_grid_dims")}, None),
            ("max_persisting_L2_cache_size_in_bytes", g.get("max_persisting_L2_cache_size_in_bytes"),
             {"CUDA attribute": A("MAX_PERSISTING_L2_CACHE_SIZE"),
              "catalog": entry.get("max_persisting_L2_cache_size_in_bytes")}, None),
            ("tdp_in_watts", g.get("tdp_in_watts"),
             {"nvidia-smi -q": smi_number(smi, "GPU Power Readings/Max Power Limit", "Power Readings/Max Power Limit"),
              "catalog": entry.get("tdp_in_watts")}, None),
            ("pcie_generation", g.get("pcie_generation"),
             {"nvidia-smi -q": smi_number(smi, "PCI/GPU Link Info/PCIe Generation/Device Max",
                                          "PCI/GPU Link Info/PCIe Generation/Max"),
              "catalog": entry.get("pcie_generation")}, None),
            ("pcie_link_width", g.get("pcie_link_width"),
             {"nvidia-smi -q": smi_number(smi, "PCI/GPU Link Info/Link Width/Max"),
              "catalog": entry.get("pcie_link_width")}, None),
        ]
        for key, probe, same, other in rows:
            if isinstance(probe, float) and probe.is_integer():
                probe = int(probe)
            same = {k: (int(v) if isinstance(v, float) and v.is_integer() else v)
                    for k, v in (same or {}).items()}
            t.row(key, probe, same, other, origin_of(src, key))
        report.append(t.markdown())
        bad += t.bad

        # The exports against what the tuners report.
        for tuner, theirs in (("triton", tr), ("inductor", ind)):
            e = sysdesc("export", "--to", tuner, spec_path, dev)
            ours = json.loads(e.stdout) if e.returncode == 0 else {}
            x = Table("%s: sysdesc export --to %s against %s itself" % (dev, tuner, tuner.capitalize()),
                      [tuner.capitalize()])
            for field in sorted(set(ours) | set(theirs or {})):
                if field == "index":
                    continue  # the process's ordinal, not a property of the device
                want = (theirs or {}).get(field)
                x.row(field, ours.get(field), {tuner.capitalize(): want if theirs is not None else None})
            if e.returncode != 0:
                x.rows.append(["(export failed)", e.stderr.strip(), "", "", ""])
            report.append(x.markdown())
            bad += x.bad

        # sysdesc occupancy against the driver's occupancy calculator
        # (scripts/gpu_occupancy.py, docs/occupancy.md)
        if not os.environ.get("SYSDESC_GPU_CHECK_NO_OCCUPANCY"):
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import gpu_occupancy
            text, n = gpu_occupancy.table(cuda.lib, ordinal, args.sysdesc, spec_path, dev)
            report.append(text)
            bad += n

    # The measured ceilings (sysdesc measure --device) against a PyTorch copy
    # and the nominal peaks: bench/measure_gpu_compare.py, when it is there.
    compare = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench",
                           "measure_gpu_compare.py")
    if os.path.exists(compare) and not os.environ.get("SYSDESC_GPU_CHECK_NO_MEASURE"):
        m = run([sys.executable, compare, "--sysdesc", args.sysdesc, "--mode", "quick"])
        if m.returncode == 0:
            report.append("## sysdesc measure --device against PyTorch and the nominal peaks\n")
            report.append(m.stdout.strip() + "\n")
        else:
            log.append("measure --device: exit %d (%s)" % (
                m.returncode, (m.stderr.strip().splitlines() or ["no message"])[-1]))
        if args.out:
            with open(os.path.join(args.out, "measure.txt"), "w") as f:
                f.write(m.stdout + m.stderr)

    report.append("Notes: " + "; ".join(log + [
        "(values) in parentheses have another meaning and are not compared: nvidia-smi's "
        "memory total is NVML's (it includes what the driver keeps), Inductor's cc an "
        "integer; a probe value from the catalog (source) where the device says otherwise is "
        "a finding"]) + ".\n")
    text = "\n".join(report)
    print(text)
    if args.out:
        with open(os.path.join(args.out, "gpu-check.md"), "w") as f:
            f.write(text + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
