"""The occupancy calculator (sysdesc/occupancy.h, docs/occupancy.md) against
an independent reference of the CUDA rules, written here from the CUDA
Occupancy Calculator's formulas (the CUDA C++ Programming Guide's
"Multiprocessor Level" occupancy and its compute capability tables), not
from the C code: warps, registers allocated per warp in units of 256 over
the SM's 4 processing blocks, shared memory in allocation units with the
reserved part per block, the carveout, the block limit.  The allocation
facts per compute capability are written here from those documents too, so
that the catalog's copies of them are checked as well; the limits the
Programming Guide's table gives per device (threads, blocks, registers,
shared memory per SM) are read from the entry.  The AMD rules are checked
on documented examples: the waves per SIMD that LLVM's own test
(llvm/test/CodeGen/AMDGPU/occupancy-levels.ll) expects per VGPR count, and
hand-computed LDS and barrier cases (RDNA's in CU mode)."""

import json

import pytest

import sysdesc

KIB = 1024

# The allocation facts per compute capability: register allocation unit
# (registers per warp), processing blocks per SM (warp allocation
# granularity), shared memory allocation unit (bytes), and the shared memory
# capacities per SM a carveout selects (KiB): the CUDA Occupancy Calculator's
# GPU data and the Programming Guide's "Shared Memory" sections per
# compute capability.
CUDA_RULES = {
    "7.0": (256, 4, 256, [0, 8, 16, 32, 64, 96]),
    "7.5": (256, 4, 256, [32, 64]),
    "8.0": (256, 4, 128, [0, 8, 16, 32, 64, 100, 132, 164]),
    "8.6": (256, 4, 128, [0, 8, 16, 32, 64, 100]),
    "8.7": (256, 4, 128, [0, 8, 16, 32, 64, 100, 132, 164]),
    "8.9": (256, 4, 128, [0, 8, 16, 32, 64, 100]),
    "9.0": (256, 4, 128, [0, 8, 16, 32, 64, 100, 132, 164, 196, 228]),
}

# One product of each architecture (sm_80, sm_86, sm_89, sm_90: the whole
# grid; the others a part of it).
FULL = ["nvidia/a100-sxm-80gb", "nvidia/rtx-3090", "nvidia/rtx-4090", "nvidia/h100-sxm"]
PART = ["nvidia/v100-sxm2-32gb", "nvidia/t4", "nvidia/jetson-agx-orin-64gb"]


def ceil_div(a, b):
    return -(-a // b)


def reference(gpu, threads, regs, shared, carveout=None):
    """Blocks per SM and the set of limiting resources, by the CUDA rules."""
    unit, quarters, smem_unit, capacities = CUDA_RULES[gpu["compute_capability"]]
    capacities = [c * KIB for c in capacities]
    warp = gpu["subgroup_sizes"][0]
    warps = ceil_div(threads, warp)
    limits = {}
    # warp slots; a block larger than the device's limit cannot start
    if threads > gpu["max_threads_per_block"]:
        limits["warps"] = 0
    else:
        limits["warps"] = gpu["max_threads_per_compute_unit"] // warp // warps
    # registers: each warp gets R x 32 rounded up to the unit; each
    # processing block holds a quarter of the file; a block must fit the
    # per-block limit with its warps counted in whole quarters
    if regs == 0:
        limits["registers"] = None
    else:
        per_warp = ceil_div(regs * warp, unit) * unit
        fits = (regs <= gpu["max_registers_per_thread"] and
                per_warp * ceil_div(warps, quarters) * quarters <= gpu["registers_per_block"])
        warps_by_regs = (gpu["registers_per_compute_unit"] // quarters // per_warp) * quarters
        limits["registers"] = warps_by_regs // warps if fits else 0
    # shared memory: the request and the reserved part in allocation units,
    # out of the carveout (the preferred capacity, or the next one that
    # holds a block)
    reserved = gpu["reserved_shared_memory_per_block_in_bytes"]
    alloc = ceil_div(shared + reserved, smem_unit) * smem_unit
    if shared > gpu["max_shared_memory_per_block_in_bytes"]:
        limits["shared_memory"] = 0
    else:
        per_sm = gpu["shared_memory_per_compute_unit_in_bytes"]
        want = per_sm if carveout is None else carveout * per_sm // 100
        capacity = min(c for c in capacities if c >= want)
        if capacity < alloc:
            capacity = min(c for c in capacities if c >= alloc)
        limits["shared_memory"] = capacity // alloc if alloc else None
    limits["blocks"] = gpu["max_blocks_per_compute_unit"]
    blocks = min(v for v in limits.values() if v is not None)
    return blocks, {k for k, v in limits.items() if v == blocks}


def boundary(gpu, k):
    """The most shared memory a block may ask for with k blocks on an SM:
    one byte more and the allocation unit leaves room for k - 1."""
    smem_unit = CUDA_RULES[gpu["compute_capability"]][2]
    per_sm = gpu["shared_memory_per_compute_unit_in_bytes"]
    return per_sm // k // smem_unit * smem_unit - gpu["reserved_shared_memory_per_block_in_bytes"]


def shared_sizes(gpu, whole=False):
    """0 to the opt-in limit and one past it: the edges of the allocation
    unit (where a byte more costs a block) and of the carveouts, and values
    between; fewer for the whole grid."""
    top = gpu["max_shared_memory_per_block_in_bytes"]
    if whole:
        return [0, 5000, boundary(gpu, 11), boundary(gpu, 11) + 1, top, top + 1]
    return sorted({1, 16 * KIB, 40000, top // 3, top // 2 + 7, boundary(gpu, 3),
                   boundary(gpu, 3) + 1, boundary(gpu, 7) + 1, top})


def agree(spec, gpu, configs):
    n = bad = 0
    first = None
    for threads, regs, shared, carveout in configs:
        got = spec.occupancy("GPU", threads, regs, shared, carveout=carveout)
        blocks, limits = reference(gpu, threads, regs, shared, carveout)
        n += 1
        if got["blocks_per_compute_unit"] != blocks or set(got["limited_by"]) != limits:
            bad += 1
            first = first or (threads, regs, shared, carveout, got, blocks, limits)
    return n, bad, first


@pytest.mark.parametrize("name", FULL)
def test_cuda_rules_whole_grid(name):
    spec = sysdesc.catalog(name)
    gpu = spec["GPU"]
    configs = [(t, r, s, None) for t in range(32, 1025, 32) for r in range(16, 256)
               for s in shared_sizes(gpu, whole=True)]
    configs += [(t, r, s, None) for t in (1, 33, 100, 1000, 1024, 1025)
                for r in (0, 1, 255, 256) for s in shared_sizes(gpu)]
    n, bad, first = agree(spec, gpu, configs)
    print("%s (sm_%s): %d of %d configurations agree" % (
        name, gpu["compute_capability"].replace(".", ""), n - bad, n))
    assert bad == 0, first


@pytest.mark.parametrize("name", FULL[1:] + PART)
def test_cuda_rules_other_shared_sizes_and_archs(name):
    spec = sysdesc.catalog(name)
    gpu = spec["GPU"]
    configs = [(t, r, s, None) for t in range(32, 1025, 32) for r in range(16, 256, 13)
               for s in shared_sizes(gpu)]
    n, bad, first = agree(spec, gpu, configs)
    print("%s: %d of %d configurations agree" % (name, n - bad, n))
    assert bad == 0, first


@pytest.mark.parametrize("name", FULL + PART)
def test_cuda_carveouts(name):
    spec = sysdesc.catalog(name)
    gpu = spec["GPU"]
    configs = [(t, r, s, c) for t in (32, 128, 256, 1024) for r in (16, 40, 128)
               for s in shared_sizes(gpu) for c in (0, 1, 10, 25, 50, 66, 75, 99, 100)]
    n, bad, first = agree(spec, gpu, configs)
    print("%s carveouts: %d of %d configurations agree" % (name, n - bad, n))
    assert bad == 0, first


def test_best_block_sizes_are_cudas_choice():
    """cudaOccupancyMaxPotentialBlockSize: the largest block size of the
    most resident threads; ours lists every size that reaches them."""
    for name in FULL:
        spec = sysdesc.catalog(name)
        gpu = spec["GPU"]
        for regs in (16, 32, 48, 64, 96, 128, 200, 255):
            for shared in (0, 20000, 48 * KIB):
                got = spec.occupancy("GPU", 128, regs, shared)["best_block_sizes"]
                by_size = {t: t * reference(gpu, t, regs, shared)[0] for t in range(32, 1025, 32)}
                most = max(by_size.values())
                assert got == [t for t, v in sorted(by_size.items()) if v == most and most]
                choice, seen = 0, 0
                for t in range(1024, 0, -32):  # the CUDA loop: down, strictly better
                    if by_size[t] > seen:
                        choice, seen = t, by_size[t]
                assert got[-1] == choice


def test_result_fields_hold_together():
    spec = sysdesc.catalog("nvidia/h100-sxm")
    r = spec.occupancy("GPU", 256, 64, 20000)
    assert r["rules"] == "NVIDIA" and r["subgroup_size"] == 32 and r["warps_per_block"] == 8
    assert r["warps_per_compute_unit"] == r["blocks_per_compute_unit"] * 8
    assert r["max_warps_per_compute_unit"] == spec["GPU"]["max_threads_per_compute_unit"] // 32
    assert r["occupancy"] == r["warps_per_compute_unit"] / r["max_warps_per_compute_unit"]
    assert r["blocks_by"]["registers"] == r["blocks_per_compute_unit"]
    assert r["registers_allocated"] == 64 * 32 * 8
    assert r["shared_memory_allocated"] == 21120  # 20000 + 1024 reserved, in 128-byte units
    assert spec.occupancy("GPU", 256, 0, 0)["blocks_by"]["registers"] is None


# ---- AMD: documented examples ----

# Waves per SIMD by VGPRs per lane, as llvm/test/CodeGen/AMDGPU/occupancy-levels.ll
# expects them (gfx900 has gfx908's VGPR rules; gfx1200 gfx1201's).
LLVM_WAVES = {
    ("amd/mi100", 64): {24: 10, 28: 9, 32: 8, 36: 7, 40: 6, 44: 5, 48: 5, 56: 4, 64: 4,
                        72: 3, 80: 3, 84: 3, 88: 2, 128: 2, 144: 1, 256: 1},
    ("amd/mi355x", 64): {64: 8, 72: 7, 80: 6, 84: 5, 96: 5, 100: 4, 128: 4, 144: 3, 168: 3,
                         200: 2, 256: 2},
    ("amd/rx-7900-xtx", 32): {56: 16, 64: 16, 100: 12, 128: 10, 144: 10, 168: 9, 200: 7,
                              256: 5},
    ("amd/rx-7900-xtx", 64): {56: 12, 64: 10, 72: 10, 80: 9, 84: 9, 88: 8, 96: 8, 100: 7,
                              112: 6, 128: 5, 144: 5, 168: 4, 200: 3, 256: 2},
    ("amd/rx-9070-xt", 32): {56: 16, 100: 12, 128: 10, 200: 7, 256: 5},
}


@pytest.mark.parametrize("name,wave", list(LLVM_WAVES))
def test_amd_waves_per_simd_by_vgprs(name, wave):
    spec = sysdesc.catalog(name)
    simds = spec["GPU"]["simds_per_compute_unit"]
    for vgprs, waves in LLVM_WAVES[(name, wave)].items():
        # one wave per SIMD per workgroup: the workgroups are the waves per SIMD
        r = spec.occupancy("GPU", simds * wave, vgprs, 0, subgroup=wave)
        assert r["blocks_per_compute_unit"] == waves, (vgprs, r)
        assert r["warps_per_compute_unit"] == waves * simds


def test_amd_lds_barriers_and_single_waves():
    mi300x = sysdesc.catalog("amd/mi300x")
    # LDS in 512-byte granules of the CU's 64 KiB: 20000 -> 20480 -> 3 workgroups
    r = mi300x.occupancy("GPU", 256, 0, 20000)
    assert (r["blocks_per_compute_unit"], r["limited_by"]) == (3, ["shared_memory"])
    assert r["shared_memory_allocated"] == 20480
    # a whole CU's LDS in one workgroup; a byte more cannot run
    assert mi300x.occupancy("GPU", 64, 0, 65536)["blocks_per_compute_unit"] == 1
    r = mi300x.occupancy("GPU", 64, 0, 65537)
    assert (r["blocks_per_compute_unit"], r["limited_by"]) == (0, ["shared_memory"])
    # single-wave workgroups take no barrier: 32 of them fill 4 SIMDs x 8
    r = mi300x.occupancy("GPU", 64, 0, 0)
    assert (r["blocks_per_compute_unit"], r["limited_by"]) == (32, ["warps"])
    # two waves each: 16 by the wave slots and 16 by the barriers
    r = mi300x.occupancy("GPU", 128, 0, 0)
    assert (r["blocks_per_compute_unit"], sorted(r["limited_by"])) == (16, ["blocks", "warps"])
    # 16 workgroups of 65 threads (2 waves each) by the barriers, of 32 wave slots
    assert mi300x.occupancy("GPU", 65, 0, 0)["warps_per_compute_unit"] == 32
    # gfx950: 160 KiB of LDS in 1280-byte granules: 40000 -> 40960 -> 4
    r = sysdesc.catalog("amd/mi355x").occupancy("GPU", 256, 0, 40000)
    assert (r["shared_memory_allocated"], r["blocks_per_compute_unit"]) == (40960, 4)
    # more threads than a workgroup may have
    assert mi300x.occupancy("GPU", 1088, 0, 0)["blocks_per_compute_unit"] == 0


@pytest.mark.parametrize("name", ["amd/rx-7900-xtx", "amd/rx-9070-xt"])
def test_rdna_lds_in_cu_mode(name):
    spec = sysdesc.catalog(name)
    # 64 KiB of LDS per CU in 1024-byte granules: 12500 -> 13312 -> 4 workgroups
    # (in the 512-byte encoding unit it would be 12800 -> 5)
    r = spec.occupancy("GPU", 64, 0, 12500)
    assert (r["shared_memory_allocated"], r["shared_memory_per_compute_unit"]) == (13312, 65536)
    assert (r["blocks_per_compute_unit"], r["limited_by"]) == (4, ["shared_memory"])
    # 16384 is a whole number of granules: 4 workgroups of 2 waves, 8 of 32 wave slots
    r = spec.occupancy("GPU", 64, 0, 16384)
    assert (r["blocks_per_compute_unit"], r["warps_per_compute_unit"]) == (4, 8)
    # wave64: 256 threads are 4 waves; 3 workgroups of 20000 -> 20480 bytes
    r = spec.occupancy("GPU", 256, 64, 20000, subgroup=64)
    assert (r["blocks_per_compute_unit"], r["limited_by"]) == (3, ["shared_memory"])
    # the CU's whole LDS in one workgroup; a byte more cannot run
    assert spec.occupancy("GPU", 256, 0, 65536)["blocks_per_compute_unit"] == 1
    r = spec.occupancy("GPU", 256, 0, 65537)
    assert (r["blocks_per_compute_unit"], r["limited_by"]) == (0, ["shared_memory"])


# ---- errors ----

def test_missing_fact_is_named():
    bare = sysdesc.parse("GPU:\n  base: nvidia/h100-sxm\n", source="g.yaml")
    assert bare.occupancy("GPU", 128, 32, 0)["blocks_per_compute_unit"] == 16
    lacking = sysdesc.parse(
        "GPU:\n  device_type: GPU\n  vendor: NVIDIA\n  subgroup_sizes: [32]\n"
        "  max_threads_per_block: 1024\n  max_threads_per_compute_unit: 2048\n",
        source="g.yaml", check=False)
    with pytest.raises(sysdesc.NotFoundError, match="'register_allocation_granularity'"):
        lacking.occupancy("GPU", 128, 32, 0)
    # an AMD device without LDS facts: a workgroup without LDS needs none
    amd = sysdesc.parse(
        "GPU:\n  device_type: GPU\n  vendor: AMD\n  subgroup_sizes: [32]\n"
        "  max_threads_per_block: 1024\n  simds_per_compute_unit: 2\n"
        "  max_waves_per_simd: 16\n  max_blocks_per_compute_unit: 16\n",
        source="g.yaml", check=False)
    assert amd.occupancy("GPU", 256, 0, 0)["blocks_per_compute_unit"] == 4
    with pytest.raises(sysdesc.NotFoundError, match="shared_memory_allocation_unit_size_in_bytes"):
        amd.occupancy("GPU", 256, 0, 1024)


def test_other_vendors_and_bad_requests():
    with pytest.raises(sysdesc.UnsupportedError, match="NVIDIA's and AMD's"):
        sysdesc.catalog("intel/max-1550").occupancy("GPU", 256, 32, 0)
    h100 = sysdesc.catalog("nvidia/h100-sxm")
    with pytest.raises(sysdesc.NotFoundError, match="no device 'GPU7'"):
        h100.occupancy("GPU7", 256, 32, 0)
    for args, kw in (((0, 32, 0), {}), ((32, -1, 0), {}), ((32, 1, -5), {}),
                     ((32, 1, 0), {"carveout": 101}), ((32, 1, 0), {"subgroup": 64})):
        with pytest.raises(sysdesc.ArgumentError):
            h100.occupancy("GPU", *args, **kw)
    with pytest.raises(sysdesc.ArgumentError, match="carveout"):
        sysdesc.catalog("amd/mi300x").occupancy("GPU", 256, 32, 0, carveout=50)


def test_cli_prints_the_same_json(cli):
    for name, dev, args in (("nvidia/h100-sxm", "GPU", ("256", "64", "20000")),
                            ("amd/mi300x", "GPU", ("512", "128", "30000"))):
        r = cli("occupancy", name, dev, "--threads", args[0], "--registers", args[1],
                "--shared", args[2], "--json")
        ours = sysdesc.catalog(name).system.occupancy(dev, *map(int, args))
        assert r.stdout.decode() == ours
        assert json.loads(ours)["device"] == dev
