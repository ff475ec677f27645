/* The installed compilers the CPU's compiler map is for (docs/keys.md,
 * "Microarchitecture and compiler targets"): `gcc` and `clang` found on
 * PATH (or named in the options), their versions, and the first entry of
 * the microarchitecture's chain (uarch.h) that each one compiles.
 *
 * Running a compiler is what a probe must not pay every time (clang-14's
 * driver takes 0.1 s of CPU to start, loading libLLVM), so the answer is
 * cached by the compiler file's identity (device, inode, size, mtime after
 * symbolic links) and the microarchitecture: DIR/compiler-HASH.mlir, read
 * with the cache on (AUTO), written also on REFRESH: a new compiler on
 * PATH or an upgrade is another file, so another entry.  An entry is read
 * as strictly as a fresh answer: exactly the fields this file writes, a
 * version the version reader takes whole, flags of the chain, a CPU name
 * the LLVM chain holds; anything else is asked again.
 *
 * gcc, clang and llc are asked at once, each on a thread of its own, while
 * the runtimes' children answer (rt_stage.c starts them first); what they
 * said is recorded in that order on the probe's thread.  Every program
 * runs as the runtimes' children do (programs.c): in a process group
 * killed with it and with sysdesc, all of them within one deadline, the
 * runtimes' (--runtime-timeout).  A compiler that cannot answer (the bound,
 * no descriptor or process to be had, a crash) is warned about with that
 * reason, and its flags marked suspect: never taken for one that said no. */
#define _GNU_SOURCE
#include "probe_private.h"
#include "uarch/uarch.h"

#include "sysdesc/version.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Whether `path` is a file the compiler can be: an executable regular file. */
static bool candidate(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The compiler a name means: the name itself when it holds a '/', else the
 * first executable regular file of that name along PATH (as execvp looks). */
static bool find_on_path(const char *name, char *out, size_t size)
{
    if (!name || !*name)
        return false;
    if (strchr(name, '/'))
        return snprintf(out, size, "%s", name) < (int)size && candidate(out);
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;;) {
        size_t len = strcspn(p, ":");
        int n = len ? snprintf(out, size, "%.*s/%s", (int)len, p, name)
                    : snprintf(out, size, "./%s", name); /* an empty entry is "." */
        if (n > 0 && (size_t)n < size && candidate(out))
            return true;
        if (p[len] == '\0')
            return false;
        p += len + 1;
    }
}

/* "dev:ino:size:mtime" of the file `path` leads to. */
static bool file_identity(const char *path, char *out, size_t size)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    int n = snprintf(out, size, "%llu:%llu:%lld:%lld.%09ld", (unsigned long long)st.st_dev,
                     (unsigned long long)st.st_ino, (long long)st.st_size,
                     (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    return n > 0 && (size_t)n < size;
}

static const char *compiler_name(const sysdesc_probe_options *o, bool clang)
{
    const char *given = clang ? o->clang : o->gcc;
    return given ? given : clang ? "clang" : "gcc";
}

/* The first dotted version in `text` after `after` (NULL: at the start):
 * "12.2.0" of "12.2.0\n", "14.0.6" of "Debian clang version 14.0.6". */
static bool parse_version(const char *text, const char *after, char *out, size_t size)
{
    const char *p = after ? strstr(text, after) : text;
    if (!p)
        return false;
    p += after ? strlen(after) : 0;
    size_t n = strspn(p, "0123456789.");
    if (n == 0 || p[0] == '.' || n >= size)
        return false;
    memcpy(out, p, n);
    out[n] = '\0';
    return true;
}

/* Whether `s` is a whole version as parse_version reads one: the one reader
 * of a fresh answer and of a cached one. */
static bool is_version(const char *s)
{
    char v[64];
    return parse_version(s, NULL, v, sizeof(v)) && strcmp(v, s) == 0;
}

/* What a version was read from, as the sources say it: a cached answer
 * names one of these or is not taken. */
static const char *const version_sources[] = {"-dumpfullversion", "-dumpversion", "--version",
                                              "-v", "the llvm-config beside it"};

/* The entry of version_sources that is `s`; NULL when none. */
static const char *version_source(const char *s)
{
    for (size_t i = 0; i < sizeof(version_sources) / sizeof(version_sources[0]); i++)
        if (strcmp(s, version_sources[i]) == 0)
            return version_sources[i];
    return NULL;
}

/* The compiler's version into out, and which option gave it into *from;
 * false when it gave none, with `why` set when it could not answer at all
 * (pb_program_run). */
static bool ask_version(pb_run *run, const char *path, bool clang, char *out, size_t size,
                        const char **from, char *why)
{
    char text[512];
    /* clang's -dumpversion said 4.2.1 (GCC's) before Clang 12: --version
     * names its own; GCC's -dumpfullversion (GCC 7 on) gives x.y.z where
     * -dumpversion may give the major alone */
    char *const argv[] = {(char *)path, clang ? "--version" : "-dumpfullversion", NULL};
    *from = version_source(argv[1]);
    int st = pb_program_run(run, argv, false, text, sizeof(text), why, PB_RT_WHY);
    if (st == 0 && parse_version(text, clang ? "clang version " : NULL, out, size))
        return true;
    if (st < 0 || clang)
        return false;
    char *const old[] = {(char *)path, "-dumpversion", NULL};
    *from = version_source(old[1]);
    return pb_program_run(run, old, false, text, sizeof(text), why, PB_RT_WHY) == 0 &&
           parse_version(text, NULL, out, size);
}

/* Whether the compiler compiles an empty C file with `flags`: 1, 0, or -1
 * when it could not answer (`why` set).  With `said`, the run is verbose
 * (-v) and what it printed, both streams, lands there: clang's first line
 * is its version, so one run answers both questions. */
static int compiles(pb_run *run, const char *path, const char *flags, char *said, size_t said_size,
                    char *why)
{
    char copy[1024];
    char *argv[48];
    size_t n = 0;
    if (snprintf(copy, sizeof(copy), "%s", flags) >= (int)sizeof(copy))
        return 0;
    argv[n++] = (char *)path;
    if (said)
        argv[n++] = "-v";
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w && n < 40; w = strtok_r(NULL, " ", &save))
        argv[n++] = w;
    static char *const rest[] = {"-x", "c", "-c", "-o", "/dev/null", "/dev/null"};
    for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]); i++)
        argv[n++] = rest[i];
    argv[n] = NULL;
    int st = pb_program_run(run, argv, said != NULL, said, said_size, why, PB_RT_WHY);
    return st < 0 ? -1 : st == 0;
}

/* The chain's entries the compiler is asked about, in turn: from the
 * first whose range holds its version down; an entry for newer compilers
 * only (its minimum above the version) is not tried.  `known` was asked
 * already, its answer `known_said`: not run again.  NULL when none
 * compiled, or (`why` set) when the compiler stopped answering. */
static const pb_cc *first_compiled(pb_run *run, const pb_uarch *u, bool clang, const char *path,
                                   const char *version, const pb_cc *known, int known_said,
                                   char *why)
{
    const pb_cc *chain[256];
    const pb_uarch *rows[256];
    size_t n = pb_uarch_compiler_chain(u, clang, chain, rows, 256);
    size_t at = 0;
    while (at < n && !pb_cc_in_range(chain[at], version))
        at++;
    for (size_t i = at; i < n; i++) {
        if (pb_version_cmp(chain[i]->min, version) > 0)
            continue;
        int r = chain[i] == known ? known_said
                                  : compiles(run, path, chain[i]->flags, NULL, 0, why);
        if (r != 0)
            return r > 0 ? chain[i] : NULL;
    }
    return NULL;
}

/* The chain entry whose flags are `flags`; NULL when none. */
static const pb_cc *entry_of(const pb_uarch *u, bool clang, const char *flags)
{
    const pb_cc *chain[256];
    const pb_uarch *rows[256];
    size_t n = pb_uarch_compiler_chain(u, clang, chain, rows, 256);
    for (size_t i = 0; i < n; i++)
        if (strcmp(chain[i]->flags, flags) == 0)
            return chain[i];
    return NULL;
}

/* The fields of a cache entry that holds exactly "key" and `names`, each a
 * string without NUL bytes, into values[]; false for anything else: an
 * entry this file did not write is not served. */
static bool entry_fields(dlti_context *ctx, const dlti_attr *entry, const char *const *names,
                         size_t n, const char **values)
{
    if (!entry || dlti_attr_get_kind(entry) != DLTI_ATTR_MAP || dlti_attr_size(entry) != n + 1)
        return false;
    for (size_t i = 0; i < n; i++) {
        const dlti_attr *a = dlti_attr_lookup(entry, dlti_key_string(ctx, names[i],
                                                                     strlen(names[i])));
        size_t len;
        if (!a || dlti_attr_get_string(a, &values[i], &len, NULL) != 0 ||
            strlen(values[i]) != len)
            return false;
    }
    return true;
}

/* The fields of an answer's cache entry: the version first, then what
 * was found, then what gave the version; read and written by the two below. */
static const char *const cc_fields[] = {"version", "flags", "from"};
static const char *const llc_fields[] = {"version", "cpu", "from"};

/* The cache entry of `key` (the cache on, AUTO) read as strictly as a
 * fresh answer: exactly `names`, a whole version, a source sysdesc names
 * (into *from); false for anything else, which is asked again. */
static bool cached_answer(pb_run *run, const bs_buf *key, const char *const names[3],
                          const char *values[3], const char **from)
{
    if (key->failed || run->opts->cache != SYSDESC_PROBE_CACHE_AUTO)
        return false;
    const dlti_attr *entry = pb_cache_lookup(run, "compiler", key->data);
    return entry_fields(run->ctx, entry, names, 3, values) && is_version(values[0]) &&
           (*from = version_source(values[2])) != NULL;
}

/* Writes what was asked to the cache entry of `key`, `names` as
 * cached_answer reads them (the cache not OFF). */
static void store_answer(pb_run *run, const bs_buf *key, const char *const names[3],
                         const char *const values[3])
{
    if (key->failed || run->opts->cache == SYSDESC_PROBE_CACHE_OFF)
        return;
    bs_buf f = {0};
    for (size_t i = 0; i < 3; i++) {
        bs_buf_puts(&f, i ? ", " : "");
        dlti_print_string(&f, names[i], strlen(names[i]));
        bs_buf_puts(&f, " = ");
        dlti_print_string(&f, values[i], strlen(values[i]));
    }
    if (!f.failed)
        pb_cache_store(run, "compiler", key->data, f.data, f.len);
    free(f.data);
}

/* One compiler's ask, in three steps: what is known without running it
 * (its file, the cache: this thread, the context's), what only running it
 * tells (a thread of its own: programs and the table, nothing of the
 * context), and what the probe records of it (this thread again, in the
 * order the compilers are named: the output does not depend on which
 * answered first). */
typedef struct cc_ask {
    pb_run *run;
    const pb_uarch *u;
    bool clang;
    pb_cc_installed *cc;
    bool found;       /* a file to ask */
    const char *absent; /* when not found: the source line that says so */
    bool pending;     /* not served by the cache: it is run */
    const char *version_from; /* the option whose run gave the version */
    bs_buf key;
    char why[PB_RT_WHY];
} cc_ask;

static void cc_prepare(cc_ask *a)
{
    pb_run *run = a->run;
    pb_cc_installed *cc = a->cc;
    memset(cc, 0, sizeof(*cc));
    const char *name = compiler_name(run->opts, a->clang);
    char id[128];
    if (!find_on_path(name, cc->path, sizeof(cc->path)) ||
        !file_identity(cc->path, id, sizeof(id))) {
        a->absent = *name
                        ? "not found on PATH: the table's newest flags (probe/uarch/uarch_table.c)"
                        : "none asked: the table's newest flags (probe/uarch/uarch_table.c)";
        return;
    }
    a->found = true;
    bs_buf_printf(&a->key, "compiler answer 2\nsysdesc %s\n%s %s %s\nuarch %s\n",
                  SYSDESC_VERSION_STRING, a->clang ? "clang" : "gcc", cc->path, id,
                  a->u->name);
    const char *cached[3];
    if (cached_answer(run, &a->key, cc_fields, cached, &a->version_from)) {
        snprintf(cc->version, sizeof(cc->version), "%s", cached[0]);
        cc->accepted = entry_of(a->u, a->clang, cached[1]);
    }
    if (!cc->accepted) {
        cc->version[0] = '\0';
        a->pending = true;
    }
}

static void cc_run(cc_ask *a)
{
    pb_cc_installed *cc = a->cc;
    const pb_cc *known = NULL;
    int known_said = 0;
    if (a->clang) {
        /* clang starts slowly (libLLVM): its version and the chain's newest
         * flags in one verbose run, whose answer the walk takes where it
         * asks those flags (a clang too old for them never does) */
        const pb_cc *chain[256];
        const pb_uarch *rows[256];
        char said[4096];
        if (pb_uarch_compiler_chain(a->u, true, chain, rows, 256) > 0) {
            known_said = compiles(a->run, cc->path, chain[0]->flags, said, sizeof(said), a->why);
            if (known_said < 0)
                return;
            known = chain[0];
            if (parse_version(said, "clang version ", cc->version, sizeof(cc->version)))
                a->version_from = version_source("-v");
            else
                cc->version[0] = '\0';
        }
    }
    if (cc->version[0] || ask_version(a->run, cc->path, a->clang, cc->version,
                                      sizeof(cc->version), &a->version_from, a->why))
        cc->accepted = first_compiled(a->run, a->u, a->clang, cc->path, cc->version, known,
                                      known_said, a->why);
}

static bool cc_finish(cc_ask *a)
{
    pb_run *run = a->run;
    pb_cc_installed *cc = a->cc;
    bool clang = a->clang;
    if (!a->found) {
        pb_provenance(run, clang ? "compiler.clang" : "compiler.gcc", a->absent);
        return false;
    }
    if (a->pending && cc->accepted)
        store_answer(run, &a->key, cc_fields,
                     (const char *const[3]){cc->version, cc->accepted->flags, a->version_from});
    const char *why = a->why;
    char what[1400];
    if (cc->accepted)
        snprintf(what, sizeof(what), "%s, version %s (%s), compiled these flags: the first of "
                 "the table's chain for that version (probe/uarch/uarch_table.c)",
                 cc->path, cc->version, a->version_from);
    else
        snprintf(what, sizeof(what), "%s: %s; the table's newest flags (probe/uarch/uarch_table.c)",
                 cc->path, why[0] ? why : cc->version[0] ? "compiled none of the table's flags"
                                                         : "no version could be read");
    pb_provenance(run, clang ? "compiler.clang" : "compiler.gcc", what);
    if (why[0]) /* not a compiler that said no: one that could not answer */
        pb_warning(&run->warn, clang ? "compiler.clang.flags" : "compiler.gcc.flags",
                   "%s: %s; the table's newest flags, not checked", cc->path, why);
    if (!cc->accepted) {
        memset(cc, 0, sizeof(*cc));
        return false;
    }
    return true;
}

/* ---- the installed LLVM: which CPU names it knows ---- */

/* The CPU names `llc -mtriple=TRIPLE -mcpu=help` lists (on stderr), cut to
 * their section; false when it lists none (no such target). */
static bool llc_cpus(pb_run *run, const char *path, const char *triple, char *out, size_t size,
                     char *why)
{
    char opt[96];
    snprintf(opt, sizeof(opt), "-mtriple=%s", triple);
    char *const argv[] = {(char *)path, opt, "-mcpu=help", NULL};
    if (pb_program_run(run, argv, true, out, size, why, PB_RT_WHY) != 0)
        return false;
    char *start = strstr(out, "Available CPUs for this target:");
    if (!start)
        return false;
    start = strchr(start, '\n');
    char *end = start ? strstr(start, "Available features") : NULL;
    if (end)
        *end = '\0';
    if (!start || !strpbrk(start, "abcdefghijklmnopqrstuvwxyz"))
        return false;
    memmove(out, start, strlen(start) + 1);
    return true;
}

/* "14.0.6" of "Debian LLVM version 14.0.6".  llc, like clang, pays
 * libLLVM's start-up (~40 ms) for every run: its installation's own
 * llvm-config, in the directory llc's file is in after symbolic links,
 * prints the same version (both print LLVM_VERSION_STRING) in a few; llc
 * itself is asked when there is none, or it names no version.  `from` is
 * what answered. */
static bool llc_version(pb_run *run, const char *path, char *out, size_t size, const char **from,
                        char *why)
{
    char text[1024], real[PATH_MAX], config[PATH_MAX + 16];
    char *slash = realpath(path, real) ? strrchr(real, '/') : NULL;
    if (slash) {
        *slash = '\0';
        snprintf(config, sizeof(config), "%s/llvm-config", real);
        char *const argv[] = {config, "--version", NULL};
        char ignored[PB_RT_WHY];
        if (candidate(config) &&
            pb_program_run(run, argv, false, text, sizeof(text), ignored, PB_RT_WHY) == 0 &&
            parse_version(text, NULL, out, size)) {
            *from = version_source("the llvm-config beside it");
            return true;
        }
    }
    char *const argv[] = {(char *)path, "--version", NULL};
    *from = version_source("--version");
    return pb_program_run(run, argv, false, text, sizeof(text), why, PB_RT_WHY) == 0 &&
           parse_version(text, "LLVM version ", out, size);
}

/* The installed llc's ask, in the same three steps as a compiler's. */
typedef struct llc_ask {
    pb_run *run;
    const pb_uarch *u;
    const char *llvm, *want, *triple;
    pb_llvm_checked *out;
    bool found, pending, asked;
    const char *version_from; /* what gave the version (llc_version) */
    char absent[300]; /* when not found: the source line that says so */
    bs_buf key;
    char why[PB_RT_WHY];
} llc_ask;

static void llc_prepare(llc_ask *a)
{
    pb_run *run = a->run;
    pb_llvm_checked *out = a->out;
    const pb_uarch *u = a->u;
    memset(out, 0, sizeof(*out));
    const char *name = run->opts->llc ? run->opts->llc : "llc";
    const char *triple = a->triple = pb_uarch_triple(u->arch);
    char id[128];
    if (!*name || !triple || !find_on_path(name, out->path, sizeof(out->path)) ||
        !file_identity(out->path, id, sizeof(id))) {
        snprintf(a->absent, sizeof(a->absent), "not checked: %s%.200s%s; the table's name "
                 "(probe/uarch/uarch_table.c)", !*name ? "no llc asked" : !triple ? "no triple for "
                 : "", !*name ? "" : !triple ? u->arch : name,
                 !*name || !triple ? "" : strchr(name, '/') ? " not found" : " not found on PATH");
        memset(out, 0, sizeof(*out));
        return;
    }
    a->found = true;
    a->want = a->llvm ? a->llvm : u->llvm;
    bs_buf_printf(&a->key, "llvm answer 2\nsysdesc %s\nllc %s %s\ntriple %s\nuarch %s\ncpu %s\n",
                  SYSDESC_VERSION_STRING, out->path, id, triple, u->name, a->want);
    const char *cached[3];
    bool served = false;
    if (cached_answer(run, &a->key, llc_fields, cached, &a->version_from)) {
        /* the cached name as the chain's own string ("" when none was
         * known); a name that is not one of the chain's, whole, is not */
        const char *cpu = cached[1];
        out->cpu = *cpu ? pb_uarch_llvm_known(u, a->llvm, cpu, &out->from) : NULL;
        served = !*cpu || (out->cpu && strcmp(out->cpu, cpu) == 0);
        if (served)
            snprintf(out->version, sizeof(out->version), "%s", cached[0]);
        else
            out->cpu = NULL, out->from = NULL;
    }
    a->pending = !served;
}

static void llc_run(llc_ask *a)
{
    pb_llvm_checked *out = a->out;
    const size_t size = 64 * 1024; /* llc-22's x86 list: ~11 KiB */
    char *cpus = malloc(size);
    if (cpus && llc_version(a->run, out->path, out->version, sizeof(out->version),
                            &a->version_from, a->why)) {
        if (llc_cpus(a->run, out->path, a->triple, cpus, size, a->why))
            out->cpu = pb_uarch_llvm_known(a->u, a->llvm, cpus, &out->from);
        a->asked = !a->why[0]; /* its whole answer, "lists none" included */
    }
    free(cpus);
}

static bool llc_finish(llc_ask *a)
{
    pb_run *run = a->run;
    pb_llvm_checked *out = a->out;
    const pb_uarch *u = a->u;
    const char *why = a->why, *want = a->want, *triple = a->triple;
    if (!a->found) {
        pb_provenance(run, "compiler.llvm", a->absent);
        return false;
    }
    if (a->asked) /* "" when it lists none of the chain's names */
        store_answer(run, &a->key, llc_fields,
                     (const char *const[3]){out->version, out->cpu ? out->cpu : "",
                                            a->version_from});
    char what[1400];
    if (why[0])
        snprintf(what, sizeof(what), "not checked: %s: %s; the table's name "
                 "(probe/uarch/uarch_table.c)", out->path, why);
    else if (!out->version[0])
        snprintf(what, sizeof(what), "not checked: %s gave no version; the table's name "
                 "(probe/uarch/uarch_table.c)", out->path);
    else if (!out->cpu)
        snprintf(what, sizeof(what), "not checked: %s (LLVM %s) lists none of %s's LLVM names "
                 "for %s (-mcpu=help); the table's name (probe/uarch/uarch_table.c)",
                 out->path, out->version, u->name, triple);
    else if (strcmp(out->cpu, want) != 0)
        snprintf(what, sizeof(what), "%s, LLVM %s (-mcpu=help): no %s; %s, %s's, the nearest "
                 "it knows (probe/uarch/uarch_table.c)", out->path, out->version, want,
                 out->cpu, out->from ? out->from->name : u->name);
    else
        snprintf(what, sizeof(what), "%s, LLVM %s, lists %s (-mcpu=help; "
                 "probe/uarch/uarch_table.c)", out->path, out->version, out->cpu);
    if (a->version_from && out->version[0] && !why[0]) {
        size_t used = strlen(what);
        snprintf(what + used, sizeof(what) - used, "; the version from %s", a->version_from);
    }
    pb_provenance(run, "compiler.llvm", what);
    if (why[0]) /* not an llc that knows none: one that could not answer */
        pb_warning(&run->warn, "compiler.llvm.cpu", "%s: %s; the table's name, not checked",
                   out->path, why);
    if (why[0] || !out->cpu) {
        memset(out, 0, sizeof(*out));
        return false;
    }
    return true;
}

/* ---- the three asks at once ---- */

typedef struct asks {
    cc_ask cc[2];
    llc_ask llc;
} asks;

static void *run_gcc(void *p)
{
    cc_run(&((asks *)p)->cc[0]);
    return NULL;
}

static void *run_clang(void *p)
{
    cc_run(&((asks *)p)->cc[1]);
    return NULL;
}

static void *run_llc(void *p)
{
    llc_run(&((asks *)p)->llc);
    return NULL;
}

void pb_compilers_ask(pb_run *run, const pb_uarch *u, const char *llvm, pb_cc_installed *gcc,
                      pb_cc_installed *clang, pb_llvm_checked *llc, bool *has_gcc,
                      bool *has_clang, bool *has_llc)
{
    asks a;
    memset(&a, 0, sizeof(a));
    a.cc[0] = (cc_ask){.run = run, .u = u, .clang = false, .cc = gcc};
    a.cc[1] = (cc_ask){.run = run, .u = u, .clang = true, .cc = clang};
    a.llc = (llc_ask){.run = run, .u = u, .llvm = llvm, .out = llc};
    cc_prepare(&a.cc[0]);
    cc_prepare(&a.cc[1]);
    llc_prepare(&a.llc);
    /* Their programs run at once, under the probe's one bound (programs.c),
     * which starts now if the runtimes have not started it: before the
     * threads, which only read it. */
    if (!run->programs_deadline_ms) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        run->programs_deadline_ms =
            (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 +
            (run->opts->runtime_timeout_ms ? run->opts->runtime_timeout_ms : PB_RT_TIMEOUT_MS);
    }
    void *(*const fns[3])(void *) = {run_gcc, run_clang, run_llc};
    const bool pending[3] = {a.cc[0].pending, a.cc[1].pending, a.llc.pending};
    pthread_t th[3];
    bool started[3] = {false, false, false};
    for (int i = 0; i < 3; i++) {
        if (!pending[i])
            continue;
        /* the last one, or one no thread can be had for, on this thread */
        bool later = false;
        for (int k = i + 1; k < 3; k++)
            later = later || pending[k];
        started[i] = later && pthread_create(&th[i], NULL, fns[i], &a) == 0;
        if (!started[i])
            fns[i](&a);
    }
    for (int i = 0; i < 3; i++)
        if (started[i])
            pthread_join(th[i], NULL);
    *has_gcc = cc_finish(&a.cc[0]);
    *has_clang = cc_finish(&a.cc[1]);
    *has_llc = llc_finish(&a.llc);
    free(a.cc[0].key.data);
    free(a.cc[1].key.data);
    free(a.llc.key.data);
}
