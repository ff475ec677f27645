"""examples/autotune_matmul.py runs and its tiles follow from the specs."""

import os
import runpy
import warnings

import sysdesc

from conftest import SRCDIR


def example():
    return runpy.run_path(os.path.join(SRCDIR, "examples", "autotune_matmul.py"))


def test_cpu_tiles_follow_the_caches():
    ex = example()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sysdesc.ProbeWarning)
        spec = sysdesc.host(runtimes=False)
    t = ex["cpu_tiles"](spec)
    l1 = spec["CPU"]["cache"]["L1"]["size_in_bytes"]
    assert t["from"]["L1"] == l1 and t["threads"] == spec["CPU"]["num_cores"]
    assert t["KC"] * t["NR"] * 4 <= l1 // 2          # B micro-panel in half of L1
    assert t["MC"] * t["KC"] * 4 <= t["from"]["L2"] // 2


def test_gpu_tiles_fit_shared_memory_and_fill_the_sms():
    ex = example()
    for name in ("nvidia/h100-sxm", "amd/mi300x", "nvidia/l4"):
        spec = sysdesc.catalog(name)
        t = ex["gpu_tiles"](spec, "GPU", 4096)
        smem = spec["GPU"]["max_shared_memory_per_block_in_bytes"]
        assert t["num_stages"] * 2 * t["BLOCK_M"] * t["BLOCK_K"] * 2 <= smem
        assert t["tiles"] >= spec["GPU"]["num_compute_units"] or t["BLOCK_M"] == 16
        assert t["threads_per_block"] == t["num_warps"] * spec["GPU"]["subgroup_sizes"][0]
