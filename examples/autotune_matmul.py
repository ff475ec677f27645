#!/usr/bin/env python3
"""Pick matmul tile sizes from what sysdesc knows about a device.

A CPU tiling in the style of BLIS/GotoBLAS: the micro-kernel's width from the
vector width, the K block so that a micro-panel of B stays in half of L1, the
M block so that a block of A stays in half of L2, one thread per core.  A GPU
tiling in the style of Triton's matmul configs: the largest square tile whose
pipelined stages fit the opt-in shared memory per block, warps from the
warp size, and a split that gives every SM a tile.

    python3 examples/autotune_matmul.py                   # this host's CPU, and an H100
    python3 examples/autotune_matmul.py amd/mi300x 8192   # a catalog GPU, M = N = K = 8192
"""

import sys

import sysdesc

F32 = 4  # bytes


def cpu_tiles(spec, device="CPU"):
    cpu = spec[device]
    l1 = spec.query(device, "cache", "L1", "size_in_bytes")
    l2 = cpu["cache"]["L2"]["size_in_bytes"] if "L2" in cpu["cache"] else l1 * 8
    lanes = cpu.get("max_vector_op_width", 128) // (8 * F32)   # f32 lanes per register
    nr, mr = 2 * lanes, 6                                      # 6 x 2 vectors of C in registers
    kc = max(16, (l1 // 2) // (nr * F32) // 16 * 16)           # B micro-panel in half of L1
    mc = max(mr, (l2 // 2) // (kc * F32) // mr * mr)           # A block in half of L2
    return {"MR": mr, "NR": nr, "KC": kc, "MC": mc, "threads": cpu["num_cores"],
            "from": {"L1": l1, "L2": l2, "vector_lanes_f32": lanes}}


def gpu_tiles(spec, device, size):
    props = spec.to_triton(device)              # Triton's own field names
    smem = props["max_shared_mem"]
    warp = props.get("warpSize", 32)
    sms = props["multiprocessor_count"]
    stages = 3
    best = None
    for block in (256, 128, 64, 32, 16):
        for bk in (64, 32, 16):
            if stages * (2 * block * bk) * 2 <= smem:    # fp16 A and B tiles, pipelined
                best = best or (block, bk)
    block_mn, block_k = best
    while block_mn > 16 and (size // block_mn) ** 2 < sms:   # one tile per SM at least
        block_mn //= 2
    warps = 8 if block_mn >= 128 else 4
    return {"BLOCK_M": block_mn, "BLOCK_N": block_mn, "BLOCK_K": block_k, "num_stages": stages,
            "num_warps": warps, "threads_per_block": warps * warp,
            "tiles": (size // block_mn) ** 2, "from": {"smem": smem, "SMs": sms, "warp": warp}}


def main(argv):
    gpu_name = argv[1] if len(argv) > 1 else "nvidia/h100-sxm"
    size = int(argv[2]) if len(argv) > 2 else 4096
    host = sysdesc.host(runtimes=False)
    print("host CPU:", cpu_tiles(host))
    gpu = sysdesc.catalog(gpu_name)
    for device in gpu:
        print(f"{gpu_name} {device}:", gpu_tiles(gpu, device, size))
        break


if __name__ == "__main__":
    main(sys.argv)
