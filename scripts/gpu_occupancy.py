#!/usr/bin/env python3
"""`sysdesc occupancy` against the CUDA driver's own occupancy calculator,
cuOccupancyMaxActiveBlocksPerMultiprocessor, on this machine's GPU
(scripts/gpu_check.py calls table(); docs/occupancy.md).

No compiler is needed: the kernels are PTX, JIT-compiled by the driver
(cuModuleLoadData), each keeping K values live across a loop so that ptxas
gives it about K registers (the count compared is the one the driver reports,
CU_FUNC_ATTRIBUTE_NUM_REGS).  For each kernel, block size and dynamic shared
memory size, the blocks per SM the driver computes are compared with
`sysdesc occupancy SPEC DEVICE --json`'s `blocks_per_compute_unit`, the
kernel's static shared memory added to the dynamic.  Also run alone:
`gpu_occupancy.py --sysdesc build-gpu/sysdesc SPEC DEVICE [ORDINAL]`.
Standard library only.
"""
import ctypes
import glob
import json
import os
import re
import subprocess
import sys

CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
CU_FUNC_ATTRIBUTE_NUM_REGS = 4
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97

# Live values per kernel: ptxas gives each about this many registers and a
# few more; the registers compared are the driver's count.
LIVE = [4, 12, 20, 28, 36, 44, 56, 64, 80, 96, 112, 128, 160, 192, 224, 240]
BLOCKS = [32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 896, 1024]


def kernel_ptx(k):
    """A kernel whose k floats stay live across a loop of n rounds (n a
    parameter: nothing can be unrolled away), then summed to global memory;
    it also touches its dynamic shared memory."""
    regs = "\n".join("    .reg .f32 %%v%d;" % i for i in range(k))
    init = "\n".join("    cvt.rn.f32.u32 %%v%d, %%r1;\n    add.f32 %%v%d, %%v%d, 0f3F800000;" % (i, i, i)
                     if i == 0 else "    add.f32 %%v%d, %%v%d, 0f3F800000;" % (i, i - 1)
                     for i in range(k))
    step = "\n".join("    fma.rn.f32 %%v%d, %%v%d, %%v%d, 0f3F000000;" % (i, i, (i + 1) % k)
                     for i in range(k))
    total = "\n".join("    add.f32 %%s, %%s, %%v%d;" % i for i in range(k))
    return """.version 6.0
.target sm_70
.address_size 64
.extern .shared .align 16 .b8 dyn[];
.visible .entry occ(.param .u64 out, .param .u32 n)
{
    .reg .pred %%p;
    .reg .u32 %%r<4>;
    .reg .u64 %%rd<4>;
    .reg .f32 %%s;
%s
    mov.u32 %%r1, %%tid.x;
    ld.param.u32 %%r2, [n];
    mov.u32 %%r3, 0;
%s
LOOP:
%s
    add.u32 %%r3, %%r3, 1;
    setp.lt.u32 %%p, %%r3, %%r2;
    @%%p bra LOOP;
    mov.f32 %%s, 0f00000000;
%s
    st.shared.f32 [dyn], %%s;
    ld.param.u64 %%rd2, [out];
    cvta.to.global.u64 %%rd2, %%rd2;
    mul.wide.u32 %%rd3, %%r1, 4;
    add.u64 %%rd2, %%rd2, %%rd3;
    st.global.f32 [%%rd2], %%s;
    ret;
}
""" % (regs, init, step, total)


class Driver:
    """The few driver calls the comparison needs (ctypes on a loaded libcuda)."""

    def __init__(self, lib, ordinal):
        self.lib = lib
        for name in ("cuDevicePrimaryCtxRetain", "cuCtxSetCurrent", "cuModuleLoadData",
                     "cuModuleGetFunction", "cuFuncGetAttribute", "cuFuncSetAttribute",
                     "cuOccupancyMaxActiveBlocksPerMultiprocessor"):
            if not hasattr(lib, name):
                raise OSError("the CUDA driver has no %s" % name)
        self.dev = ctypes.c_int()
        self.call("cuDeviceGet", ctypes.byref(self.dev), ordinal)
        ctx = ctypes.c_void_p()
        self.call("cuDevicePrimaryCtxRetain", ctypes.byref(ctx), self.dev)
        self.call("cuCtxSetCurrent", ctx)

    def call(self, name, *args):
        rc = getattr(self.lib, name)(*args)
        if rc != 0:
            raise OSError("%s failed (CUresult %d)" % (name, rc))

    def attr(self, number):
        v = ctypes.c_int()
        self.call("cuDeviceGetAttribute", ctypes.byref(v), number, self.dev)
        return v.value

    def function(self, ptx):
        mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
        self.call("cuModuleLoadData", ctypes.byref(mod), ctypes.c_char_p(ptx.encode()))
        self.call("cuModuleGetFunction", ctypes.byref(fn), mod, b"occ")
        return fn

    def func_attr(self, fn, number):
        v = ctypes.c_int()
        self.call("cuFuncGetAttribute", ctypes.byref(v), number, fn)
        return v.value

    def blocks(self, fn, threads, dynamic):
        n = ctypes.c_int()
        self.call("cuOccupancyMaxActiveBlocksPerMultiprocessor", ctypes.byref(n), fn,
                  ctypes.c_int(threads), ctypes.c_size_t(dynamic))
        return n.value


def header_facts():
    """The allocation granularities of a cuda_occupancy.h found here (a CUDA
    toolkit's, or one a Python package ships), for the catalog's sources:
    the compute capabilities each case list covers."""
    paths = glob.glob("/usr/local/cuda*/include/cuda_occupancy.h")
    for site in sys.path:
        paths += glob.glob(os.path.join(site, "nvidia", "*", "include", "cuda_occupancy.h"))
    for p in paths:
        try:
            text = open(p, encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        out = []
        for fn in ("cudaOccSMemAllocationGranularity", "cudaOccRegAllocationGranularity",
                   "cudaOccSubPartitionsPerMultiprocessor", "cudaOccMaxBlocksPerMultiprocessor"):
            m = re.search(r"cudaOccError %s\(.*?\n}\n" % fn, text, re.S)
            if m:
                body = re.sub(r"\s+", " ", m.group(0))
                cases = re.findall(r"case (\d+):((?: case \d+:)*)[^;]*?value = (\d+);", body)
                out.append("%s: %s" % (fn, "; ".join("%s%s -> %s" % (c, more.replace(" case ", ",")
                                                                      .replace(":", ""), v)
                                                     for c, more, v in cases) or "(not parsed)"))
        return p, out
    return None, []


def compare(driver, sysdesc, spec, device, log):
    """(rows, agreements, total): every configuration, and how many agree."""
    optin = driver.attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
    rows, agree, total = [], 0, 0
    for k in LIVE:
        try:
            fn = driver.function(kernel_ptx(k))
        except OSError as e:
            log.append("occupancy: the kernel of %d live values did not load: %s" % (k, e))
            continue
        regs = driver.func_attr(fn, CU_FUNC_ATTRIBUTE_NUM_REGS)
        static = driver.func_attr(fn, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
        room = optin - static
        driver.call("cuFuncSetAttribute", fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    ctypes.c_int(room))
        for dynamic in sorted({0, 1000, 20000, 48 * 1024, room // 2, room}):
            for threads in BLOCKS:
                theirs = driver.blocks(fn, threads, dynamic)
                r = subprocess.run([sysdesc, "occupancy", "--json", spec, device, "--threads",
                                    str(threads), "--registers", str(regs), "--shared",
                                    str(static + dynamic)], capture_output=True, text=True)
                ours = json.loads(r.stdout)["blocks_per_compute_unit"] if r.returncode == 0 else None
                total += 1
                same = ours == theirs
                agree += same
                if not same:
                    rows.append([str(regs), str(threads), str(static + dynamic), str(theirs),
                                 str(ours) if ours is not None else r.stderr.strip()])
    return rows, agree, total


def table(lib, ordinal, sysdesc, spec, device):
    """Markdown and the number of disagreements (0 when nothing could be
    compared: the reason is in the text)."""
    log = []
    lines = ["### %s: sysdesc occupancy against cuOccupancyMaxActiveBlocksPerMultiprocessor"
             % device, ""]
    try:
        driver = Driver(lib, ordinal)
        rows, agree, total = compare(driver, sysdesc, spec, device, log)
    except OSError as e:
        return "\n".join(lines + ["not compared: %s." % e, ""]), 0
    lines.append("%d of %d configurations agree (kernels of %d to %d live values, %d block "
                 "sizes, dynamic shared memory from 0 to the opt-in limit)." % (
                     agree, total, LIVE[0], LIVE[-1], len(BLOCKS)))
    if rows:
        lines += ["", "| registers | threads | shared | CUDA | sysdesc |", "|---|---|---|---|---|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows[:40]]
        if len(rows) > 40:
            lines.append("(%d more)" % (len(rows) - 40))
    path, facts = header_facts()
    if path:
        lines += ["", "The granularities of %s: %s." % (path, "; ".join(facts))]
    lines += log and ["", "Notes: " + "; ".join(log) + "."]
    return "\n".join(lines) + "\n", len(rows)


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sysdesc", required=True)
    ap.add_argument("spec")
    ap.add_argument("device")
    ap.add_argument("ordinal", nargs="?", type=int, default=0)
    a = ap.parse_args()
    lib = ctypes.CDLL("libcuda.so.1")
    if lib.cuInit(0) != 0:
        print("gpu_occupancy: cuInit failed: no CUDA GPU here")
        return 77
    text, bad = table(lib, a.ordinal, a.sysdesc, a.spec, a.device)
    print(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
