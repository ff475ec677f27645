"""Every export of every catalog device checked against the consumers' own
registries (tests/data/consumers/, each file naming the source it was read
from): TVM's target kinds and the attributes each registers, Triton's
get_device_properties() fields per backend, Inductor's DeviceProperties per
device type.  An export names only what the consumer knows, in its type,
and has what the consumer cannot do without.  The expectations come from
the registries and from each entry's own keys, never from today's values."""

import json
import os
import re

import pytest

import sysdesc

CONSUMERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "consumers")
REGISTRY_FILES = {
    "tvm": "tvm_target_kinds.json",
    "triton": "triton_device_properties.json",
    "inductor": "inductor_device_properties.json",
}
# Which devices sysdesc exports to which consumer (docs/export.md): TVM's
# GPU kinds are NVIDIA's (cuda) and AMD's (rocm), any CPU is an llvm target;
# Triton's backends and Inductor's GPU device types are NVIDIA's, AMD's and
# Intel's.  Every other device is refused (UnsupportedError).
BACKEND = {"NVIDIA": "cuda", "AMD": "hip", "Intel": "xpu"}
TVM_GPU_KIND = {"NVIDIA": "cuda", "AMD": "rocm"}


def registry(tuner):
    with open(os.path.join(CONSUMERS, REGISTRY_FILES[tuner])) as f:
        return json.load(f)


def of_type(value, type_name):
    """Whether a JSON value is of a registry's type ("int", "array<int>", ...)."""
    if type_name == "any":
        return True
    if type_name.startswith("array<"):
        inner = type_name[len("array<"):-1]
        return isinstance(value, list) and all(of_type(v, inner) for v in value)
    python = {"int": int, "string": str, "bool": bool, "object": dict}[type_name]
    return isinstance(value, python) and (type_name == "bool" or not isinstance(value, bool))


def check_fields(out, known, where):
    for field, value in out.items():
        assert field in known, f"{where}: {field!r} is not a field the consumer knows"
        assert of_type(value, known[field]), f"{where}: {field} = {value!r} is no {known[field]}"


def device_type(spec, device):
    return spec[device].get("device_type")


def catalog_devices():
    for name in sysdesc.catalog_names():
        for device in sysdesc.catalog(name):
            yield name, device


def expected_to_export(tuner, dev_type, vendor):
    if tuner == "tvm":
        return dev_type == "CPU" or (dev_type == "GPU" and vendor in TVM_GPU_KIND)
    return dev_type == "GPU" and vendor in BACKEND


def check_tvm(reg, out, dev_type, vendor, where):
    for field in reg["required"]:
        assert field in out, f"{where}: no {field!r}, which TVM requires"
    want = "llvm" if dev_type == "CPU" else TVM_GPU_KIND[vendor]
    assert out["kind"] == want, where
    kind = reg["kinds"][out["kind"]]
    check_fields(out, {**reg["common"], **kind["attrs"]}, f"{where} (kind {out['kind']})")
    for attr, prefix in kind["prefixes"].items():
        if attr in out:
            assert out[attr].startswith(prefix), f"{where}: TVM refuses {attr} {out[attr]!r}"


def check_triton(reg, out, vendor, where):
    backend = reg["backends"][BACKEND[vendor]]
    check_fields(out, backend["fields"], f"{where} (backend {BACKEND[vendor]})")
    for field in backend["required"]:
        assert field in out, f"{where}: no {field!r}, which Triton reads"
    for field, pattern in backend["patterns"].items():
        if field in out:
            assert re.match(pattern, out[field]), f"{where}: {field} {out[field]!r}"


def check_inductor(reg, out, vendor, where, product=True):
    assert out.get("type") == BACKEND[vendor], where
    kind = reg["device_types"][out["type"]]
    filled = {f: reg["fields"][f] for f in kind["filled"]}
    check_fields(out, filled, f"{where} (device type {out['type']})")
    for field in kind["required"]:
        # an architecture base has no counts (multi_processor_count): it is no
        # device Inductor meets, only what a product builds on
        if field not in reg["not_a_device_fact"] and (product or field != "multi_processor_count"):
            assert field in out, f"{where}: no {field!r}, which Inductor requires"
    assert of_type(out["cc"], kind["cc"]), f"{where}: cc {out['cc']!r} is no {kind['cc']}"
    if "cc_pattern" in kind:
        assert re.match(kind["cc_pattern"], out["cc"]), f"{where}: cc {out['cc']!r}"
    if "cc_fields" in kind:
        check_fields(out["cc"], kind["cc_fields"], f"{where} (cc)")


def test_every_format_has_a_registry(cli):
    usage = cli("export", "--help").stdout.decode()
    formats = re.search(r"--to ([a-z|]+)", usage).group(1).split("|")
    assert sorted(formats) == sorted(sysdesc.TUNERS) == sorted(REGISTRY_FILES)


@pytest.mark.parametrize("tuner", sorted(REGISTRY_FILES))
@pytest.mark.parametrize("name", sysdesc.catalog_names())
def test_catalog_exports_pass_the_registry(name, tuner):
    reg = registry(tuner)
    spec = sysdesc.catalog(name)
    for device in spec:
        where = f"{name} {device} --to {tuner}"
        dev_type, vendor = device_type(spec, device), spec[device].get("vendor")
        if not expected_to_export(tuner, dev_type, vendor):
            with pytest.raises(sysdesc.UnsupportedError):
                spec.export(device, tuner)
            continue
        out = spec.export(device, tuner)
        if tuner == "tvm":
            check_tvm(reg, out, dev_type, vendor, where)
        elif tuner == "triton":
            check_triton(reg, out, vendor, where)
        else:
            # architecture bases (VENDOR/arch/NAME, docs/yaml.md) are no products
            check_inductor(reg, out, vendor, where, product="/arch/" not in name)


def test_the_checks_catch_what_consumers_refuse():
    """The registries refuse what the consumers refuse: the rocm kind's
    l2_cache_size_bytes (TVM raises on it), a bare-key Triton field of
    another backend, a HIP cc with a feature suffix, a missing warp size."""
    tvm, triton, inductor = registry("tvm"), registry("triton"), registry("inductor")
    with pytest.raises(AssertionError, match="l2_cache_size_bytes"):
        check_tvm(tvm, {"kind": "rocm", "l2_cache_size_bytes": 1}, "GPU", "AMD", "t")
    with pytest.raises(AssertionError, match="arch"):
        check_tvm(tvm, {"kind": "cuda", "arch": "90"}, "GPU", "NVIDIA", "t")
    with pytest.raises(AssertionError, match="warpSize"):
        check_triton(triton, {"warpSize": 16}, "Intel", "t")
    with pytest.raises(AssertionError, match="warpSize"):
        check_triton(triton, {"arch": "gfx1100"}, "AMD", "t")
    with pytest.raises(AssertionError, match="is no int"):
        check_triton(triton, {"max_shared_mem": "64K"}, "NVIDIA", "t")
    hip = {"type": "hip", "multi_processor_count": 1, "warp_size": 64}
    with pytest.raises(AssertionError, match="cc"):
        check_inductor(inductor, {**hip, "cc": "gfx942:sramecc+:xnack-"}, "AMD", "t")
    with pytest.raises(AssertionError, match="which Inductor requires"):
        check_inductor(inductor, {"type": "xpu", "multi_processor_count": 1}, "Intel", "t")
    with pytest.raises(AssertionError, match="warp_size"):
        check_inductor(inductor, {"type": "xpu", "cc": {}, "multi_processor_count": 1,
                                  "warp_size": 32}, "Intel", "t")


def test_amd_wave_size_is_the_smallest_subgroup_size():
    """HIP's warpSize: 64 on gfx9, 32 on gfx10 and later (wave32 by default)."""
    for name in sysdesc.catalog_names():
        spec = sysdesc.catalog(name)
        for device in spec:
            gpu = spec[device]
            if gpu.get("vendor") != "AMD" or "subgroup_sizes" not in gpu:
                continue
            wave = min(gpu["subgroup_sizes"])
            assert spec.to_triton(device)["warpSize"] == wave, name
            assert spec.to_inductor(device)["warp_size"] == wave, name
            assert spec.to_tvm(device)["thread_warp_size"] == wave, name


def test_amd_arch_with_the_runtime_target_id():
    """A probed AMD GPU (runtimes.rocm.target_id) gives Triton HIP's
    gcnArchName with its features; Inductor's cc and TVM's mcpu stay bare."""
    text = ("GPU:\n  base: amd/mi300x\n  runtimes:\n    rocm:\n"
            "      target_id: \"gfx942:sramecc+:xnack-\"\n")
    spec = sysdesc.parse(text, source="probed.yaml", check=False)
    assert spec.to_triton("GPU")["arch"] == "gfx942:sramecc+:xnack-"
    assert spec.to_inductor("GPU")["cc"] == spec["GPU"]["arch"]
    assert spec.to_tvm("GPU")["mcpu"] == spec["GPU"]["arch"]
    catalog = sysdesc.catalog("amd/mi300x")
    assert catalog.to_triton("GPU")["arch"] == catalog["GPU"]["arch"]


def test_intel_fields_from_their_keys():
    spec = sysdesc.catalog("intel/max-1550")
    gpu = spec["GPU"]
    triton = spec.to_triton("GPU")
    assert triton["max_work_group_size"] == gpu["max_threads_per_block"]
    assert triton["sub_group_sizes"] == gpu["subgroup_sizes"]
    assert triton["max_shared_mem"] == gpu["shared_memory_per_block_in_bytes"]
    assert triton["multiprocessor_count"] == gpu["num_compute_units"]
    cc = spec.to_inductor("GPU")["cc"]
    assert cc["gpu_subslice_count"] == gpu["num_compute_units"]
    assert cc["gpu_eu_count"] == cc["max_compute_units"] == gpu["num_execution_units"]
    assert cc["sub_group_sizes"] == gpu["subgroup_sizes"]
    assert cc["local_mem_size"] == gpu["shared_memory_per_block_in_bytes"]
    bare = sysdesc.parse("GPU:\n  device_type: GPU\n  vendor: Intel\n", check=False)
    assert bare.to_inductor("GPU") == {"type": "xpu", "cc": {}}
