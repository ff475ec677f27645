/* Pick matmul tile sizes from what sysdesc knows about a device: the C twin
 * of autotune_matmul.py, line for line the same choices and output
 * (docs/tutorial.md walks through both).
 *
 * A CPU tiling in the style of BLIS: the micro-kernel's width from the
 * vector width, the K block so that a micro-panel of B stays in half of L1,
 * the M block so that a block of A stays in half of L2, a thread per core.
 * A GPU tiling in the style of Triton's matmul configs: the largest square
 * tile whose pipelined stages fit the opt-in shared memory per block, a
 * split that gives every SM a tile, then its occupancy.
 *
 *     cc tune_matmul.c $(pkg-config --cflags --libs sysdesc) -o tune_matmul
 *     ./tune_matmul                        # this host's CPU, and an H100
 *     ./tune_matmul amd/mi300x 8192        # a catalog GPU, M = N = K = 8192
 */
#include <sysdesc/sysdesc.h>

#include <stdio.h>
#include <stdlib.h>

enum { F32 = 4, F16 = 2, STAGES = 3, REGISTERS = 128 /* per thread: an estimate */ };

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static int cpu_tiles(const sysdesc_system *host)
{
    int64_t l1, l2, cores, width = 128; /* a default stays unless the key is found */
    if (sysdesc_get_i64(host, "CPU.cache.L1.size_in_bytes", &l1) != SYSDESC_FOUND ||
        sysdesc_get_i64(host, "CPU.num_cores", &cores) != SYSDESC_FOUND) {
        fprintf(stderr, "tune_matmul: the host has no CPU.cache.L1 size or CPU.num_cores\n");
        return 1;
    }
    if (sysdesc_get_i64(host, "CPU.cache.L2.size_in_bytes", &l2) != SYSDESC_FOUND)
        l2 = 8 * l1;
    sysdesc_get_i64(host, "CPU.max_vector_op_width", &width);
    int64_t lanes = width / (8 * F32), nr = 2 * lanes, mr = 6; /* 6 x 2 vectors of C */
    int64_t kc = max64(16, l1 / 2 / (nr * F32) / 16 * 16);   /* B micro-panel in half of L1 */
    int64_t mc = max64(mr, l2 / 2 / (kc * F32) / mr * mr);   /* A block in half of L2 */
    printf("host CPU: MR=%lld NR=%lld KC=%lld MC=%lld threads=%lld (L1 %lld B, L2 %lld B, "
           "%lld f32 lanes)\n", (long long)mr, (long long)nr, (long long)kc, (long long)mc,
           (long long)cores, (long long)l1, (long long)l2, (long long)lanes);
    return 0;
}

static int gpu_tiles(const sysdesc_system *gpu, const char *name, const char *id, int64_t size)
{
    char key[128];
    int64_t smem, sms, warp = 32;
    snprintf(key, sizeof key, "%s.max_shared_memory_per_block_in_bytes", id);
    int found = sysdesc_get_i64(gpu, key, &smem) == SYSDESC_FOUND;
    snprintf(key, sizeof key, "%s.num_compute_units", id);
    if (!found || sysdesc_get_i64(gpu, key, &sms) != SYSDESC_FOUND) {
        fprintf(stderr, "tune_matmul: %s %s has no shared memory or SM count\n", name, id);
        return 1;
    }
    snprintf(key, sizeof key, "%s.subgroup_sizes.0", id);
    sysdesc_get_i64(gpu, key, &warp);
    int64_t block = 0, bk = 0;
    for (int64_t b = 256; b >= 16 && !block; b /= 2)
        for (int64_t k = 64; k >= 16 && !block; k /= 2)
            if (STAGES * (2 * b * k) * F16 <= smem) /* fp16 A and B tiles, pipelined */
                block = b, bk = k;
    if (!block) {
        fprintf(stderr, "tune_matmul: no tile fits %lld bytes of shared memory\n",
                (long long)smem);
        return 1;
    }
    while (block > 16 && (size / block) * (size / block) < sms) /* a tile per SM at least */
        block /= 2;
    int64_t warps = block >= 128 ? 8 : 4, shared = STAGES * (2 * block * bk) * F16;
    sysdesc_occupancy_request req = sysdesc_occupancy_request_make(warps * warp, REGISTERS, shared);
    sysdesc_occupancy occ;
    dlti_error_t err;
    if (sysdesc_occupancy_compute(sysdesc_get_attr(gpu, id), id, &req, &occ, &err) != 0) {
        fprintf(stderr, "tune_matmul: occupancy: %s\n", err.text);
        return 1;
    }
    static const char *const limit[] = {"warps", "registers", "shared_memory", "blocks"};
    char by[64] = "";
    for (int i = 0, n = 0; i < 4; i++)
        if (occ.limits & (1u << i))
            n += snprintf(by + n, sizeof by - (size_t)n, "%s%s", n ? ", " : "", limit[i]);
    printf("%s %s: BLOCK_M=%lld BLOCK_N=%lld BLOCK_K=%lld num_stages=%d num_warps=%lld "
           "(%lld threads, %lld B shared) tiles=%lld; %lld blocks per SM, occupancy %.0f%% "
           "(limited by %s)\n", name, id, (long long)block, (long long)block, (long long)bk,
           STAGES, (long long)warps, (long long)(warps * warp), (long long)shared,
           (long long)((size / block) * (size / block)), (long long)occ.blocks_per_compute_unit,
           100 * occ.occupancy, by);
    return 0;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "nvidia/h100-sxm";
    int64_t size = argc > 2 ? atoll(argv[2]) : 4096;
    dlti_context *ctx = dlti_context_new();
    sysdesc_probe_options opts;
    sysdesc_probe_options_init(&opts);
    opts.runtimes = SYSDESC_RUNTIME_NONE; /* the CPU is all this needs */
    sysdesc_system host, gpu;
    dlti_error_t err;
    int rc = 1;
    if (sysdesc_system_probe(ctx, &opts, &host, &err) != 0 ||
        sysdesc_system_load(ctx, name, NULL, &gpu, &err) != 0) {
        char line[1400];
        dlti_error_format(&err, line, sizeof line);
        fprintf(stderr, "tune_matmul: %s\n", line);
    } else if (cpu_tiles(&host) == 0 && dlti_attr_size(gpu.spec) > 0) {
        /* the entry's first device */
        rc = gpu_tiles(&gpu, name, dlti_key_str(dlti_attr_entry_key(gpu.spec, 0), NULL), size);
    }
    dlti_context_free(ctx);
    return rc;
}
