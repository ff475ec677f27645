"""Reference counts and memory: 100k queries of every kind leave no
references, Python allocations or resident memory behind."""

import gc
import os
import sys
import tracemalloc

import sysdesc

# Under AddressSanitizer (scripts/test-all's ASan pass) freed memory sits in
# ASan's quarantine, so resident memory grows whatever the module does: the
# RSS bounds hold for normal builds only; the reference counts and Python's
# allocations are checked in both.
SANITIZED = "address" in os.environ.get("SANITIZE", "")
# The RSS bounds are what the long loops measure; under ASan (no RSS bound,
# LeakSanitizer at exit) a tenth of them exercises the same code.
N = 10_000 if SANITIZED else 100_000
SPECS = 300 if SANITIZED else 3000


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def run_queries(spec, n):
    gpu_path = spec.path("GPU", "peak_ops_per_second", "fp64_vector")
    missing = spec.path("GPU", "no_such_key")
    for _ in range(n):
        spec["GPU"]["peak_ops_per_second"]["fp32_vector"]
        spec.query("GPU", "max_block_dims")
        gpu_path()
        missing.get(0)
        spec["GPU"].get("model")
        "num_compute_units" in spec["GPU"]
        try:
            spec.query("GPU", "no_such_key")
        except sysdesc.NotFoundError:
            pass


def test_no_reference_leaks():
    spec = sysdesc.catalog("nvidia/h100-sxm")
    gpu = spec["GPU"]
    value = gpu["model"]
    # Each node keeps its last answer (node.c, node_getitem): one run first,
    # so that what is kept is counted in `before` and a leak shows as growth.
    run_queries(spec, 1000)
    gc.collect()
    kept = spec["GPU"], spec["GPU"]["peak_ops_per_second"]  # the answers nodes keep

    def counts():
        return (sys.getrefcount(spec), sys.getrefcount(gpu.system), sys.getrefcount(value),
                sys.getrefcount(sysdesc.Map), sys.getrefcount(sysdesc.NotFoundError),
                sys.getrefcount(kept[0]), sys.getrefcount(kept[1]))

    before = counts()
    run_queries(spec, 1000)
    gc.collect()
    assert counts() == before


def test_no_memory_growth_over_100k_queries():
    spec = sysdesc.catalog("nvidia/h100-sxm")
    run_queries(spec, 2000)  # warm: interned keys, free lists, caches
    gc.collect()
    tracemalloc.start()
    rss0 = rss_bytes()
    snap0 = tracemalloc.take_snapshot()
    run_queries(spec, N)
    gc.collect()
    snap1 = tracemalloc.take_snapshot()
    rss1 = rss_bytes()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
    assert grown < 64 * 1024, f"Python allocations grew by {grown} bytes"
    if not SANITIZED:
        assert rss1 - rss0 < 2 * 1024 * 1024, f"RSS grew by {rss1 - rss0} bytes"


def test_dropped_specs_free_their_contexts():
    for _ in range(200):  # warm
        sysdesc.catalog("nodes/dgx-h100").to_json()
    gc.collect()
    rss0 = rss_bytes()
    for _ in range(SPECS):
        s = sysdesc.catalog("nodes/dgx-h100")
        s["GPU0"]["num_compute_units"], s.path("GPU1", "arch")(), s.layout().size("i64")
        s.to_json()
    del s
    gc.collect()
    if not SANITIZED:
        assert rss_bytes() - rss0 < 4 * 1024 * 1024


def test_children_keep_the_context_alive():
    gpu = sysdesc.catalog("nvidia/h100-sxm")["GPU"]  # the Spec is gone at once
    p = sysdesc.catalog("nvidia/h100-sxm").path("GPU", "arch")
    lay = sysdesc.catalog("nvidia/h100-sxm").layout()
    gc.collect()
    assert gpu["num_compute_units"] == 132 and p() == "sm_90" and lay.size("i32") == 4
