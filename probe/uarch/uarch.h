/* uarch.h - CPU microarchitectures: the table (uarch_table.c) and the
 * recogniser (uarch.c).  libc only and pure: the recogniser is a function of
 * what identifies a CPU, so the tests give it tuples recorded on real
 * machines without the hardware. */
#ifndef SYSDESC_PROBE_UARCH_H
#define SYSDESC_PROBE_UARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One compiler entry, as archspec writes it: the versions "min:max" (both
 * inclusive, NULL open) that take these flags for this microarchitecture. */
typedef struct pb_cc {
    const char *min, *max;
    const char *flags;
} pb_cc;

/* One microarchitecture (archspec's name and parents). */
typedef struct pb_uarch {
    const char *name;       /* archspec: "zen4", "neoverse_v2" */
    const char *parents[2]; /* archspec's "from", in its order; NULL: none */
    const char *arch;       /* "x86_64", "aarch64", "riscv64" */
    const char *llvm;       /* LLVM's CPU name (llc -mcpu, #llvm.target chip) */
    /* The features a CPU of this row has beyond what its parents require
     * (LLVM's names, as probe/uarch/isa_bits.c reports them; NULL-ended;
     * NULL: none): the row is chosen only for a CPU that has these and
     * every ancestor's (pb_uarch_needs), so no flag of its compiler
     * entries names an instruction the CPU lacks. */
    const char *const *needs;
    const pb_cc *gcc;       /* entries ended by one with flags == NULL; NULL: none known */
    const pb_cc *clang;
} pb_uarch;

/* How x86 CPUs are recognised: vendor, family, a model range, optionally a
 * feature the CPU must have (LLVM's names), first match wins.  A rule with a
 * feature test matches a CPU whose features are unknown only by stepping. */
typedef struct pb_x86_rule {
    const char *vendor;
    int family, model_lo, model_hi;
    const char *needs; /* NULL: no feature test */
    /* Where `needs` cannot be tested (an hwloc XML file carries no
     * features): the steppings that tell the same apart; 0, 0: none. */
    int stepping_lo, stepping_hi;
    const char *uarch;
    const char *llvm; /* LLVM's name when it differs from the row's (icelake-server) */
} pb_x86_rule;

/* How Arm CPUs are recognised: MIDR implementer and part number. */
typedef struct pb_arm_rule {
    int implementer, part;
    const char *uarch;
    const char *llvm; /* NULL: the row's */
} pb_arm_rule;

extern const pb_uarch pb_uarch_table[];
extern const size_t pb_uarch_count;
extern const pb_x86_rule pb_x86_rules[];
extern const size_t pb_x86_rule_count;
extern const pb_arm_rule pb_arm_rules[];
extern const size_t pb_arm_rule_count;

/* What identifies a CPU; -1 or NULL for what is unknown. */
typedef struct pb_cpu_id {
    const char *arch;   /* hwloc's Architecture: "x86_64", "aarch64", "riscv64" */
    const char *vendor; /* CPUID vendor string (x86) */
    int64_t family, model, stepping;
    int64_t implementer, part; /* Arm MIDR */
    const char *const *features; /* LLVM feature names (probe/host/isa.c); may be NULL */
    size_t nfeatures;
} pb_cpu_id;

#define PB_UARCH_MAX_NEEDS 128 /* a row's needs with its ancestors' */

typedef struct pb_uarch_match {
    const pb_uarch *uarch;
    const char *llvm; /* LLVM's CPU name for this CPU */
    const char *how;  /* provenance: "cpuid family/model", "MIDR", "features", "arch" */
    /* When the identity named a row whose required features the CPU lacks
     * (a virtual machine that masks them): that row, how it was named and
     * what it lacks (its own missing needs first, then its ancestors');
     * `uarch` is then the nearest of its ancestors whose needs the CPU
     * meets, and `how` "features".  NULL and 0 otherwise. */
    const pb_uarch *named;
    const char *named_how;
    const char *missing[PB_UARCH_MAX_NEEDS];
    size_t nmissing;
} pb_uarch_match;

/* Recognises the microarchitecture: by vendor/family/model (x86) or MIDR
 * (Arm) when a rule knows the CPU, else the most specific generic level its
 * features reach (x86-64 psABI levels), else the architecture's generic row.
 * Where the features are known (id->nfeatures), a row is taken only when
 * the CPU has every feature it needs; a named row it lacks some of gives
 * way to its nearest ancestor it has them all of (`named`, `missing`).
 * 0 and *m filled, or -1 (an architecture the table does not know). */
int pb_uarch_identify(const pb_cpu_id *id, pb_uarch_match *m);

/* The row named `name`, or NULL. */
const pb_uarch *pb_uarch_find(const char *name);

/* Every feature a CPU of row u has: u's needs, then each ancestor's
 * (nearest first) not yet listed.  Writes at most `max`, returns how many. */
size_t pb_uarch_needs(const pb_uarch *u, const char **out, size_t max);

/* The features of pb_uarch_needs(u) that `id` lacks (all of them for a CPU
 * whose features are unknown); `out` may be NULL to count them. */
size_t pb_uarch_missing(const pb_uarch *u, const pb_cpu_id *id, const char **out, size_t max);

/* archspec's ancestors, nearest first: the parents, then each parent's
 * ancestors not yet listed.  Writes at most `max`, returns how many. */
size_t pb_uarch_ancestors(const pb_uarch *u, const char **out, size_t max);

/* What one compiler needs for u.  The chain of its entries runs from u's
 * own, newest first, down through each ancestor's (nearest ancestor first,
 * each one's newest first) to the generic row's, which every compiler
 * knows.  Without a version (`version` NULL: the table's view, for a
 * catalog entry): `best` is u's newest open-ended entry (NULL when u has
 * none) and `fallback` the first entry after it in the chain that an older
 * compiler takes (a lower min_version).  With the version of an installed
 * compiler: `best` is the first entry of the chain whose range holds it
 * (possibly an ancestor's: `best_from` says whose), and `fallback` the next
 * one for an older compiler, as above.  Either may be NULL. */
typedef struct pb_cc_choice {
    const pb_cc *best;
    const pb_uarch *best_from;     /* the row `best` belongs to */
    const pb_cc *fallback;
    const pb_uarch *fallback_from; /* the row the fallback belongs to */
} pb_cc_choice;

void pb_uarch_compiler(const pb_uarch *u, bool clang, const char *version, pb_cc_choice *c);
/* The same with `best` given (an entry of u's chain that a compiler was
 * seen to accept); NULL: none. */
void pb_uarch_compiler_from(const pb_uarch *u, bool clang, const pb_cc *best, pb_cc_choice *c);

/* The chain itself, for a prober that tries its entries in turn: at most
 * `max` entries (and their rows) written, the count returned. */
size_t pb_uarch_compiler_chain(const pb_uarch *u, bool clang, const pb_cc **entries,
                               const pb_uarch **rows, size_t max);

/* The LLVM CPU names for row u, best first: `llvm` (the model's own name,
 * icelake-server; NULL: the row's), the row's, then each ancestor's
 * (nearest first), each once.  An older LLVM that lacks the first knows
 * one further on: LLVM 14 has no znver4 but znver3.  Writes at most `max`
 * names and the rows they are of; returns how many. */
size_t pb_uarch_llvm_chain(const pb_uarch *u, const char *llvm, const char **names,
                           const pb_uarch **rows, size_t max);

/* The first name of that chain in `known` (an LLVM's CPU names, as `llc
 * -mcpu=help` lists them: one a line, first word, indented), with its row
 * in *from; NULL when it lists none of them. */
const char *pb_uarch_llvm_known(const pb_uarch *u, const char *llvm, const char *known,
                                const pb_uarch **from);

/* Whether `version` is in e's range (both ends inclusive, NULL open). */
bool pb_cc_in_range(const pb_cc *e, const char *version);

/* Compares dotted version strings numerically ("12.3" < "12.10"); NULL is
 * lowest. */
int pb_version_cmp(const char *a, const char *b);

/* LLVM's triple for this architecture on Linux with glibc:
 * "x86_64-unknown-linux-gnu"; NULL when unknown. */
const char *pb_uarch_triple(const char *arch);

#endif
