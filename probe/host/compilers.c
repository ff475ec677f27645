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
 * PATH or an upgrade is another file, so another entry. */
#define _GNU_SOURCE
#include "probe_private.h"
#include "uarch/uarch.h"

#include "sysdesc/version.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define COMPILER_TIMEOUT_MS 20000 /* a first clang on a loaded machine: about 0.5 s */

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

/* Runs argv (argv[0] a path), stdin /dev/null, its stdout (and its stderr
 * with `with_stderr`, else /dev/null) into `out` (NUL-terminated, cut at
 * `size`; NULL: /dev/null), within `ms` milliseconds (then killed).  Its
 * exit status, or -1 when it could not run, was killed or timed out. */
static int run_program(char *const argv[], char *out, size_t size, int ms, bool with_stderr)
{
    int pipefd[2] = {-1, -1};
    if (out && pipe2(pipefd, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (out)
        posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    else
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (out && with_stderr) /* llc -mcpu=help prints its list there */
        posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
    else
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    /* the compiler gets default signal dispositions and mask, whatever the
     * caller set (a SIGCHLD ignored would lose its status) */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (out)
        close(pipefd[1]);
    if (rc != 0) {
        if (out)
            close(pipefd[0]);
        return -1;
    }
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    size_t got = 0;
    bool open_pipe = out != NULL;
    int status = -1;
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (elapsed >= ms) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            status = -1;
            break;
        }
        if (open_pipe) {
            struct pollfd p = {pipefd[0], POLLIN, 0};
            int r = poll(&p, 1, (int)(ms - elapsed));
            if (r < 0 && errno != EINTR)
                open_pipe = false;
            if (r > 0) {
                char sink[256];
                char *to = got + 1 < size ? out + got : sink;
                size_t room = got + 1 < size ? size - 1 - got : sizeof(sink);
                ssize_t n = read(pipefd[0], to, room);
                if (n > 0 && to != sink)
                    got += (size_t)n;
                if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
                    open_pipe = false;
            }
            continue;
        }
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            break;
        }
        if (w < 0 && errno != EINTR) {
            status = -1;
            break;
        }
        struct timespec nap = {0, 2000000}; /* 2 ms: the compiler closed its stdout, exit is near */
        nanosleep(&nap, NULL);
    }
    if (out) {
        close(pipefd[0]);
        out[got < size ? got : size - 1] = '\0';
    }
    return status;
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

static bool ask_version(const char *path, bool clang, char *out, size_t size)
{
    char text[512];
    /* clang's -dumpversion said 4.2.1 (GCC's) before Clang 12: --version
     * names its own; GCC's -dumpfullversion (GCC 7 on) gives x.y.z where
     * -dumpversion may give the major alone */
    char *const argv[] = {(char *)path, clang ? "--version" : "-dumpfullversion", NULL};
    if (run_program(argv, text, sizeof(text), COMPILER_TIMEOUT_MS, false) == 0 &&
        parse_version(text, clang ? "clang version " : NULL, out, size))
        return true;
    char *const old[] = {(char *)path, "-dumpversion", NULL};
    return !clang && run_program(old, text, sizeof(text), COMPILER_TIMEOUT_MS, false) == 0 &&
           parse_version(text, NULL, out, size);
}

/* Whether the compiler compiles an empty C file with `flags`. */
static bool compiles(const char *path, const char *flags)
{
    char copy[1024];
    char *argv[48];
    size_t n = 0;
    if (snprintf(copy, sizeof(copy), "%s", flags) >= (int)sizeof(copy))
        return false;
    argv[n++] = (char *)path;
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w && n < 40; w = strtok_r(NULL, " ", &save))
        argv[n++] = w;
    static char *const rest[] = {"-x", "c", "-c", "-o", "/dev/null", "/dev/null"};
    for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]); i++)
        argv[n++] = rest[i];
    argv[n] = NULL;
    return run_program(argv, NULL, 0, COMPILER_TIMEOUT_MS, false) == 0;
}

/* The chain's entries the compiler is asked about, in turn: from the
 * first whose range holds its version down; an entry for newer compilers
 * only (its minimum above the version) is not tried. */
static const pb_cc *first_compiled(const pb_uarch *u, bool clang, const char *path,
                                   const char *version)
{
    const pb_cc *chain[256];
    const pb_uarch *rows[256];
    size_t n = pb_uarch_compiler_chain(u, clang, chain, rows, 256);
    size_t at = 0;
    while (at < n && !pb_cc_in_range(chain[at], version))
        at++;
    for (size_t i = at; i < n; i++)
        if (pb_version_cmp(chain[i]->min, version) <= 0 && compiles(path, chain[i]->flags))
            return chain[i];
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

static const char *string_of(dlti_context *ctx, const dlti_attr *map, const char *key)
{
    const dlti_attr *a = map ? dlti_attr_lookup(map, dlti_key_string(ctx, key, strlen(key))) : NULL;
    const char *s;
    size_t len;
    return a && dlti_attr_get_string(a, &s, &len, NULL) == 0 && strlen(s) == len ? s : NULL;
}

bool pb_compiler_ask(pb_run *run, const pb_uarch *u, bool clang, pb_cc_installed *cc)
{
    memset(cc, 0, sizeof(*cc));
    const char *name = compiler_name(run->opts, clang);
    char id[128];
    if (!find_on_path(name, cc->path, sizeof(cc->path)) ||
        !file_identity(cc->path, id, sizeof(id))) {
        pb_provenance(run, clang ? "compiler.clang" : "compiler.gcc",
                      *name ? "not found on PATH: the table's newest flags (probe/uarch/uarch_table.c)"
                            : "none asked: the table's newest flags (probe/uarch/uarch_table.c)");
        return false;
    }
    dlti_buf key = {0};
    dlti_buf_printf(&key, "compiler answer 1\nsysdesc %s\n%s %s %s\nuarch %s\n",
                    SYSDESC_VERSION_STRING, clang ? "clang" : "gcc", cc->path, id, u->name);
    const dlti_attr *entry = NULL;
    if (!key.failed && run->opts->cache == SYSDESC_PROBE_CACHE_AUTO)
        entry = pb_cache_lookup(run, "compiler", key.data);
    const char *version = string_of(run->ctx, entry, "version");
    const char *flags = string_of(run->ctx, entry, "flags");
    if (version && flags && strlen(version) < sizeof(cc->version)) {
        snprintf(cc->version, sizeof(cc->version), "%s", version);
        cc->accepted = entry_of(u, clang, flags);
    }
    if (!cc->accepted) {
        cc->version[0] = '\0';
        if (ask_version(cc->path, clang, cc->version, sizeof(cc->version)))
            cc->accepted = first_compiled(u, clang, cc->path, cc->version);
        if (cc->accepted && !key.failed && run->opts->cache != SYSDESC_PROBE_CACHE_OFF) {
            dlti_buf f = {0};
            dlti_buf_puts(&f, "\"version\" = ");
            dlti_print_string(&f, cc->version, strlen(cc->version));
            dlti_buf_puts(&f, ", \"flags\" = ");
            dlti_print_string(&f, cc->accepted->flags, strlen(cc->accepted->flags));
            if (!f.failed)
                pb_cache_store(run, "compiler", key.data, f.data, f.len);
            free(f.data);
        }
    }
    free(key.data);
    char what[1400];
    if (cc->accepted)
        snprintf(what, sizeof(what), "%s, version %s (%s), compiled these flags: the first of "
                 "the table's chain for that version (probe/uarch/uarch_table.c)",
                 cc->path, cc->version, clang ? "--version" : "-dumpfullversion");
    else
        snprintf(what, sizeof(what), "%s: %s; the table's newest flags (probe/uarch/uarch_table.c)",
                 cc->path, cc->version[0] ? "compiled none of the table's flags"
                                          : "no version could be read");
    pb_provenance(run, clang ? "compiler.clang" : "compiler.gcc", what);
    if (!cc->accepted) {
        memset(cc, 0, sizeof(*cc));
        return false;
    }
    return true;
}

/* ---- the installed LLVM: which CPU names it knows ---- */

/* The CPU names `llc -mtriple=TRIPLE -mcpu=help` lists (on stderr), cut to
 * their section; false when it lists none (no such target). */
static bool llc_cpus(const char *path, const char *triple, char *out, size_t size)
{
    char opt[96];
    snprintf(opt, sizeof(opt), "-mtriple=%s", triple);
    char *const argv[] = {(char *)path, opt, "-mcpu=help", NULL};
    if (run_program(argv, out, size, COMPILER_TIMEOUT_MS, true) != 0)
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

/* "14.0.6" of "Debian LLVM version 14.0.6". */
static bool llc_version(const char *path, char *out, size_t size)
{
    char text[1024];
    char *const argv[] = {(char *)path, "--version", NULL};
    return run_program(argv, text, sizeof(text), COMPILER_TIMEOUT_MS, false) == 0 &&
           parse_version(text, "LLVM version ", out, size);
}

bool pb_llvm_ask(pb_run *run, const pb_uarch *u, const char *llvm, pb_llvm_checked *out)
{
    memset(out, 0, sizeof(*out));
    const char *name = run->opts->llc ? run->opts->llc : "llc";
    const char *triple = pb_uarch_triple(u->arch);
    char id[128];
    if (!*name || !triple || !find_on_path(name, out->path, sizeof(out->path)) ||
        !file_identity(out->path, id, sizeof(id))) {
        char why[300];
        snprintf(why, sizeof(why), "not checked: %s%.200s%s; the table's name "
                 "(probe/uarch/uarch_table.c)", !*name ? "no llc asked" : !triple ? "no triple for "
                 : "", !*name ? "" : !triple ? u->arch : name,
                 !*name || !triple ? "" : strchr(name, '/') ? " not found" : " not found on PATH");
        pb_provenance(run, "compiler.llvm", why);
        memset(out, 0, sizeof(*out));
        return false;
    }
    const char *want = llvm ? llvm : u->llvm;
    dlti_buf key = {0};
    dlti_buf_printf(&key, "llvm answer 1\nsysdesc %s\nllc %s %s\ntriple %s\nuarch %s\ncpu %s\n",
                    SYSDESC_VERSION_STRING, out->path, id, triple, u->name, want);
    const dlti_attr *entry = NULL;
    if (!key.failed && run->opts->cache == SYSDESC_PROBE_CACHE_AUTO)
        entry = pb_cache_lookup(run, "compiler", key.data);
    const char *version = string_of(run->ctx, entry, "version");
    const char *cpu = string_of(run->ctx, entry, "cpu");
    bool asked = false;
    if (version && cpu && strlen(version) < sizeof(out->version)) {
        snprintf(out->version, sizeof(out->version), "%s", version);
        /* the cached name as the chain's own string ("" when none was known) */
        out->cpu = *cpu ? pb_uarch_llvm_known(u, llvm, cpu, &out->from) : NULL;
    } else {
        const size_t size = 64 * 1024; /* llc-22's x86 list: ~11 KiB */
        char *cpus = malloc(size);
        asked = cpus && llc_version(out->path, out->version, sizeof(out->version));
        if (asked && llc_cpus(out->path, triple, cpus, size))
            out->cpu = pb_uarch_llvm_known(u, llvm, cpus, &out->from);
        free(cpus);
    }
    if (asked && !key.failed && run->opts->cache != SYSDESC_PROBE_CACHE_OFF) {
        dlti_buf f = {0};
        dlti_buf_puts(&f, "\"version\" = ");
        dlti_print_string(&f, out->version, strlen(out->version));
        dlti_buf_puts(&f, ", \"cpu\" = ");
        dlti_print_string(&f, out->cpu ? out->cpu : "", out->cpu ? strlen(out->cpu) : 0);
        if (!f.failed)
            pb_cache_store(run, "compiler", key.data, f.data, f.len);
        free(f.data);
    }
    free(key.data);
    char what[1400];
    if (!out->version[0])
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
    pb_provenance(run, "compiler.llvm", what);
    if (!out->cpu) {
        memset(out, 0, sizeof(*out));
        return false;
    }
    return true;
}
