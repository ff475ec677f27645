#!/usr/bin/env python3
"""Pick matmul tile sizes from what sysdesc knows about a device; the Python
twin of tune_matmul.c, with the same choices and output (docs/tutorial.md
walks through both).

A CPU tiling in the style of BLIS/GotoBLAS: the micro-kernel's width from the
vector width, the K block so that a micro-panel of B stays in half of L1, the
M block so that a block of A stays in half of L2, one thread per core.  A GPU
tiling in the style of Triton's matmul configs: the largest square tile whose
pipelined stages fit the opt-in shared memory per block, a split that gives
every SM a tile, then its occupancy.

    python3 examples/autotune_matmul.py                   # this host's CPU, and an H100
    python3 examples/autotune_matmul.py amd/mi300x 8192   # a catalog GPU, M = N = K = 8192
"""

import sys

import sysdesc

F32, F16, STAGES = 4, 2, 3  # bytes, bytes, pipeline stages
REGISTERS = 128             # per thread: an estimate


def cpu_tiles(host):
    l1 = host.get_int("CPU.cache.L1.size_in_bytes")
    l2 = host.get_int("CPU.cache.L2.size_in_bytes", 8 * l1)
    lanes = host.get_int("CPU.max_vector_op_width", 128) // (8 * F32)   # f32 lanes per register
    nr, mr = 2 * lanes, 6                                              # 6 x 2 vectors of C
    kc = max(16, l1 // 2 // (nr * F32) // 16 * 16)                     # B micro-panel in half of L1
    mc = max(mr, l2 // 2 // (kc * F32) // mr * mr)                     # A block in half of L2
    return {"MR": mr, "NR": nr, "KC": kc, "MC": mc, "threads": host.get_int("CPU.num_cores"),
            "from": {"L1": l1, "L2": l2, "vector_lanes_f32": lanes}}


def gpu_tiles(gpu, dev, size):
    smem = gpu.get_int(f"{dev}.max_shared_memory_per_block_in_bytes")
    sms = gpu.get_int(f"{dev}.num_compute_units")
    warp = gpu.get_int(f"{dev}.subgroup_sizes.0", 32)
    block, bk = next((b, k) for b in (256, 128, 64, 32, 16) for k in (64, 32, 16)
                     if STAGES * (2 * b * k) * F16 <= smem)   # fp16 A and B tiles, pipelined
    while block > 16 and (size // block) ** 2 < sms:            # a tile per SM at least
        block //= 2
    warps, shared = (8 if block >= 128 else 4), STAGES * (2 * block * bk) * F16
    occ = gpu.occupancy(dev, threads=warps * warp, registers=REGISTERS, shared=shared)
    return {"BLOCK_M": block, "BLOCK_N": block, "BLOCK_K": bk, "num_stages": STAGES,
            "num_warps": warps, "threads_per_block": warps * warp, "shared": shared,
            "tiles": (size // block) ** 2, "occupancy": occ,
            "from": {"smem": smem, "SMs": sms, "warp": warp}}


def main(argv):
    name = argv[1] if len(argv) > 1 else "nvidia/h100-sxm"
    size = int(argv[2]) if len(argv) > 2 else 4096
    c = cpu_tiles(sysdesc.host(runtimes=False))
    print(f"host CPU: MR={c['MR']} NR={c['NR']} KC={c['KC']} MC={c['MC']} threads={c['threads']} "
          f"(L1 {c['from']['L1']} B, L2 {c['from']['L2']} B, {c['from']['vector_lanes_f32']} "
          f"f32 lanes)")
    gpu = sysdesc.catalog(name)
    dev = gpu.devices[0]
    g = gpu_tiles(gpu, dev, size)
    occ = g["occupancy"]
    print(f"{name} {dev}: BLOCK_M={g['BLOCK_M']} BLOCK_N={g['BLOCK_N']} BLOCK_K={g['BLOCK_K']} "
          f"num_stages={g['num_stages']} num_warps={g['num_warps']} ({g['threads_per_block']} "
          f"threads, {g['shared']} B shared) tiles={g['tiles']}; "
          f"{occ['blocks_per_compute_unit']} blocks per SM, occupancy "
          f"{100 * occ['occupancy']:.0f}% (limited by {', '.join(occ['limited_by'])})")


if __name__ == "__main__":
    main(sys.argv)
