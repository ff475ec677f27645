/* Fuzz targets: each takes arbitrary bytes and must never crash, leak or
 * hang.  They are built two ways: with libFuzzer (fuzz/meson.build, clang,
 * -Dfuzzing=true) and into the replay test that runs every committed input
 * under the normal test suite (tests/lib/test_fuzz_replay.c). */
#ifndef SYSDESC_FUZZ_TARGETS_H
#define SYSDESC_FUZZ_TARGETS_H
#include <stddef.h>
#include <stdint.h>

/* MLIR text: parse; when it parses, print, re-parse the print and require
 * the second print to equal the first. */
int sysdesc_fuzz_mlir(const uint8_t *data, size_t size);
/* One type: parse, print, re-parse: the same uniqued type. */
int sysdesc_fuzz_type(const uint8_t *data, size_t size);
/* A spec and a path: the input is "SPEC\0KEY\0KEY...", queried by strings
 * and by handles: both must give the same answer. */
int sysdesc_fuzz_query(const uint8_t *data, size_t size);

/* An LLVM data layout string: import, export, import: equal specs. */
int sysdesc_fuzz_dl(const uint8_t *data, size_t size);
/* "SPEC\0TYPE\0TYPE...": layouts of the types, cached and uncached agree. */
int sysdesc_fuzz_layout(const uint8_t *data, size_t size);

/* YAML: load, print YAML, load again: an equal spec. */
int sysdesc_fuzz_yaml(const uint8_t *data, size_t size);

/* MLIR text: when it loads as a system, every format prints stably, reads
 * back to an equal spec (MLIR, YAML, typed JSON; plain JSON is refused)
 * and JSON is strict JSON. */
int sysdesc_fuzz_formats(const uint8_t *data, size_t size);
/* Any bytes read as "fuzz.json" (the typed JSON reader for what starts
 * with '{'): loads or fails with a reason; what loads prints and reads back
 * as sysdesc_fuzz_formats requires. */
int sysdesc_fuzz_json(const uint8_t *data, size_t size);

/* Those checks on a loaded system (fuzz_formats.c; fuzz_yaml uses them too). */
struct dlti_context;
struct sysdesc_system;
void sysdesc_fuzz_check_prints(struct dlti_context *ctx, const struct sysdesc_system *sys);

/* A memory budget (4 KiB to 260 KiB) picked by the input's first bytes,
 * for the targets' runs under a budget (every reader's out-of-memory path). */
size_t sysdesc_fuzz_budget(const uint8_t *data, size_t size);

/* Reports a broken invariant the way a crash would, so the fuzzer keeps the input. */
void sysdesc_fuzz_fail(const char *what);

#endif
