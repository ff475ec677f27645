/* sysdesc occupancy: resident blocks and warps of a kernel configuration on
 * one GPU of a spec (sysdesc/occupancy.h, docs/occupancy.md; the Python
 * module's Spec.occupancy() returns what --json prints). */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_help help = {
    .operands = "SPEC DEVICE",
    .description =
        "Prints how many blocks and warps (AMD: workgroups and waves) of a kernel\n"
        "stay resident on one compute unit of GPU DEVICE of SPEC (a YAML, MLIR or\n"
        "JSON file, or a catalog name: no GPU is needed), which resource limits\n"
        "them, and the block sizes of highest occupancy.  The rules are the\n"
        "vendor's (NVIDIA: cudaOccupancyMaxActiveBlocksPerMultiprocessor's; AMD:\n"
        "SIMDs, waves and VGPR granules per CU), the numbers the device's own keys\n"
        "(docs/occupancy.md lists them).\n",
    .status = "Exit status: 0 ok; 1 no such device, or the device lacks a key the rules\n"
              "need (named); 2 bad input or usage, or a vendor without rules; 3\n"
              "unreadable file.\n",
};

/* The request's numbers, bound to a sysdesc_occupancy_request; the three
 * it needs mark `given`. */
enum { GIVEN_THREADS = 1, GIVEN_REGISTERS = 2, GIVEN_SHARED = 4 };
#define AT(member) CLI_AT(sysdesc_occupancy_request, member)
static const cli_opt request_opts[] = {
    {"--threads", .flags = CLI_VALUE | CLI_NEEDED, .kind = CLI_NUMBER, AT(threads_per_block),
     .min = 1, .max = INT32_MAX, .what = "a number of threads", .given = GIVEN_THREADS,
     .metavar = "N", .help = "threads per block"},
    {"--registers", .flags = CLI_VALUE | CLI_NEEDED, .kind = CLI_NUMBER,
     AT(registers_per_thread), .max = INT32_MAX, .what = "a number of registers",
     .given = GIVEN_REGISTERS, .metavar = "R",
     .help = "registers per thread (ptxas -v; AMD: VGPRs per lane)"},
    {"--shared", .flags = CLI_VALUE | CLI_NEEDED, .kind = CLI_NUMBER,
     AT(shared_memory_per_block), .max = INT64_MAX / 4, .what = "a number of bytes",
     .given = GIVEN_SHARED, .metavar = "BYTES",
     .help = "shared memory (LDS) per block, static and dynamic"},
    {"--carveout", .flags = CLI_VALUE, .kind = CLI_NUMBER, AT(carveout_percent), .max = 100,
     .what = "a number of percent", .metavar = "PCT",
     .help = "NVIDIA: the preferred shared memory carveout, 0..100\n"
             "percent of the shared memory per SM (default: all)"},
    {"--subgroup", .flags = CLI_VALUE, .kind = CLI_NUMBER, AT(subgroup_size), .min = 1,
     .max = 1024, .what = "a number of threads", .metavar = "N",
     .help = "the warp or wave size (default: the device's smallest)"},
    {0},
};
#undef AT
static const cli_opt json_opts[] = {
    {"--json", .kind = CLI_FLAG, .size = sizeof(bool),
     .help = "one JSON object (docs/occupancy.md has its fields)"},
    {0},
};

/* A limit as text: "-" where it does not bind. */
static void limit_text(int64_t v, char *out, size_t size)
{
    if (v == SYSDESC_OCCUPANCY_UNLIMITED)
        snprintf(out, size, "-");
    else
        snprintf(out, size, "%lld", (long long)v);
}

/* Appends printf text to buf (size BUF_SIZE) at *len, cut at the end. */
#define BUF_SIZE 4096
static void put(char *buf, int *len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void put(char *buf, int *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (*len < BUF_SIZE) {
        int n = vsnprintf(buf + *len, (size_t)(BUF_SIZE - *len), fmt, ap);
        *len = n < 0 ? BUF_SIZE : *len + n;
    }
    va_end(ap);
    if (*len > BUF_SIZE - 1)
        *len = BUF_SIZE - 1;
}

/* The result as lines of at most 80 columns (but for a long device id). */
static int print_text(const dlti_attr *dev, const char *id, const sysdesc_occupancy_request *req,
                      const sysdesc_occupancy *o)
{
    dlti_error_t err;
    int64_t sizes[128];
    size_t n;
    if (sysdesc_occupancy_best_block_sizes(dev, id, req, sizes, 128, &n, &err) < 0)
        return cli_fail(cli_exit_code(err.code), "occupancy: %s", err.text);
    const dlti_attr *name = dlti_attr_lookup_string(dev, "compute_unit_name", 17);
    const char *unit = NULL;
    size_t unit_len = 0;
    if (!name || dlti_attr_get_string(name, &unit, &unit_len, NULL) < 0 || unit_len > 16 ||
        strlen(unit) != unit_len)
        unit = "compute unit";
    bool amd = strcmp(o->rules, "AMD") == 0;
    const char *warps = amd ? "waves" : "warps", *blocks = amd ? "workgroups" : "blocks";
    char buf[BUF_SIZE], w[24], r[24], s[24], b[24];
    int len = 0;
    put(buf, &len, "%s: %s rules, per %s\n", id, o->rules, unit);
    put(buf, &len, "request: %lld threads (%lld %s of %lld), %lld registers/thread, %lld bytes "
        "shared\n", (long long)req->threads_per_block, (long long)o->warps_per_block, warps,
        (long long)o->subgroup_size, (long long)req->registers_per_thread,
        (long long)req->shared_memory_per_block);
    put(buf, &len, "resident: %lld %s, %lld of %lld %s: occupancy %.3g%%\n",
        (long long)o->blocks_per_compute_unit, blocks, (long long)o->warps_per_compute_unit,
        (long long)o->max_warps_per_compute_unit, warps, 100.0 * o->occupancy);
    static const char *const limit_names[] = {"warps", "registers", "shared memory", "blocks"};
    put(buf, &len, "limited by:");
    for (int i = 0, k = 0; i < 4; i++)
        if (o->limits & (1u << i))
            put(buf, &len, "%s %s", k++ ? "," : "",
                i == 0 && amd ? "waves" : i == 3 && amd ? "workgroups" : limit_names[i]);
    limit_text(o->blocks_by_warps, w, sizeof w);
    limit_text(o->blocks_by_registers, r, sizeof r);
    limit_text(o->blocks_by_shared_memory, s, sizeof s);
    limit_text(o->blocks_by_blocks, b, sizeof b);
    put(buf, &len, "\n%s by %s %s, registers %s, shared memory %s, %s %s\n", blocks, warps, w, r,
        s, blocks, b);
    put(buf, &len, "allocated: %lld registers per %s, %lld bytes shared per %s\n",
        (long long)o->registers_allocated, amd ? "wave" : "block",
        (long long)o->shared_memory_allocated, amd ? "workgroup" : "block");
    if (o->shared_memory_per_compute_unit > 0)
        put(buf, &len, "shared memory per %s: %lld bytes\n", unit,
            (long long)o->shared_memory_per_compute_unit);
    put(buf, &len, "best block sizes:");
    int col = 17;
    if (n == 0)
        put(buf, &len, " none (no block size runs)");
    for (size_t i = 0; i < n && i < 128; i++) {
        char t[24];
        int tl = snprintf(t, sizeof t, " %lld", (long long)sizes[i]);
        if (col + tl > 79) {
            put(buf, &len, "\n ");
            col = 1;
        }
        put(buf, &len, "%s", t);
        col += tl;
    }
    if (n > 128) /* the first ones; --json lists all */
        put(buf, &len, "%s ... and %zu more (--json lists them)", col > 40 ? "\n" : "", n - 128);
    put(buf, &len, "\n");
    return cli_write_stdout(buf, (size_t)len);
}

/* The occupancy of `req` on device `id` of `spec`, as text or JSON. */
static int occupancy(dlti_context *ctx, const sysdesc_yaml_options *load, const char *spec,
                     const char *id, const sysdesc_occupancy_request *req, bool json)
{
    dlti_error_t err;
    sysdesc_system sys;
    if (sysdesc_system_load(ctx, spec, load, &sys, &err) < 0)
        return cli_report(&err);
    const dlti_attr *dev = sys.spec ? dlti_attr_lookup_string(sys.spec, id, strlen(id)) : NULL;
    if (!dev)
        return cli_fail(SYSDESC_EXIT_NOT_FOUND, "occupancy: no device '%s' in %s", id, spec);
    if (json) {
        size_t len;
        char *text = sysdesc_occupancy_json(dev, id, req, &len, &err);
        if (!text)
            return cli_fail(cli_exit_code(err.code), "occupancy: %s", err.text);
        int rc = cli_write_stdout(text, len);
        free(text);
        return rc;
    }
    sysdesc_occupancy o;
    if (sysdesc_occupancy_compute(dev, id, req, &o, &err) < 0)
        return cli_fail(cli_exit_code(err.code), "occupancy: %s", err.text);
    return print_text(dev, id, req, &o);
}

int cmd_occupancy(int argc, char **argv)
{
    sysdesc_yaml_options load;
    cli_load_options_init(&load);
    cli_list ops = {0};
    bool json = false;
    unsigned given = 0;
    sysdesc_occupancy_request req = sysdesc_occupancy_request_make(0, 0, 0);
    cli_args a;
    cli_args_init(&a, "occupancy", &help,
                  (const cli_group[]){{.opts = request_opts, .base = &req, .given = &given},
                                      {.opts = json_opts, .base = &json},
                                      {.opts = cli_check_opts, .base = &load},
                                      {0}}, argc, argv);
    int rc = cli_parse_all(&a, &ops, 2, "one SPEC and one DEVICE");
    if (rc < 0 && (ops.n != 2 || given != (GIVEN_THREADS | GIVEN_REGISTERS | GIVEN_SHARED)))
        rc = cli_fail(SYSDESC_EXIT_BAD_INPUT,
                      "occupancy: SPEC, DEVICE, --threads, --registers and --shared are needed "
                      "(see sysdesc occupancy --help)");
    dlti_context *ctx = rc < 0 ? cli_context_new() : NULL;
    if (rc < 0)
        rc = ctx ? occupancy(ctx, &load, ops.v[0], ops.v[1], &req, json) : cli_nomem();
    dlti_context_free(ctx);
    cli_args_free(&a);
    return rc;
}
