/* The probe's cache of what is slow to ask (docs/runtimes.md, "The
 * cache"): one file an entry, DIR/KIND-HASH.mlir, holding
 *     #dlti.map<"key" = "...", FIELDS>
 * where KIND names the asker ("runtimes": runtimes/rt_cache.c; the
 * compilers: host/compilers.c) and the key says what the entry depends on;
 * HASH is the key's 64-bit hash, the key itself is compared in full.  The
 * directory ($XDG_CACHE_HOME/sysdesc) is used only when it is this user's
 * alone (owner, mode, not a link); entries are written atomically (a
 * temporary file renamed over the old one), read only when they are
 * regular files of this user (bs_input_open: never a FIFO, never a
 * link), and ignored when they do not parse or do not match; week-old
 * entries are pruned. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The largest entry: a runtimes answer and its key. */
#define MAX_ENTRY_BYTES (PB_RT_MAX_ANSWER_BYTES + 64 * 1024)
#define PRUNE_AFTER_SECONDS (7 * 24 * 3600) /* entries of past boots and settings */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void pb_cache_key_env(bs_buf *key, const char *const *prefixes, size_t nprefixes,
                      const char *skip)
{
    size_t n = 0;
    for (char **e = environ; e && *e; e++)
        n++;
    const char **sel = calloc(n ? n : 1, sizeof(*sel));
    if (!sel) {
        key->failed = true;
        return;
    }
    size_t k = 0;
    for (char **e = environ; e && *e; e++)
        for (size_t i = 0; i < nprefixes; i++)
            /* the first byte first: most variables match no prefix, and a
             * cached host() scans them all on every call */
            if (**e == prefixes[i][0] && strncmp(*e, prefixes[i], strlen(prefixes[i])) == 0 &&
                !(skip && strncmp(*e, skip, strlen(skip)) == 0)) {
                sel[k++] = *e;
                break;
            }
    qsort(sel, k, sizeof(*sel), cmp_str); /* the environment's order does not matter */
    for (size_t i = 0; i < k; i++)
        bs_buf_printf(key, "env %s\n", sel[i]);
    free(sel);
}

/* The cache directory into `out`; false when there is none (no
 * $XDG_CACHE_HOME, no $HOME). */
static bool cache_dir(const pb_run *run, char *out, size_t size)
{
    const char *dir = run->opts->cache_dir;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (dir && *dir)
        n = snprintf(out, size, "%s", dir);
    else if (xdg && xdg[0] == '/') /* relative values are invalid (XDG base directories) */
        n = snprintf(out, size, "%s/sysdesc", xdg);
    else if (home && home[0] == '/')
        n = snprintf(out, size, "%s/.cache/sysdesc", home);
    else
        return false;
    return n > 0 && (size_t)n < size;
}

/* The entry's file name in the cache directory. */
static bool entry_name(const char *kind, const char *key, char *out, size_t size)
{
    int n = snprintf(out, size, "%s-%016llx.mlir", kind,
                     (unsigned long long)bs_hash_bytes(key, strlen(key)));
    return n > 0 && (size_t)n < size;
}

/* mkdir -p with mode 0700 for what it creates; true when `dir` is there. */
static bool make_dirs(char *dir)
{
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
            *p = '/';
            return false;
        }
        *p = '/';
    }
    return mkdir(dir, 0700) == 0 || errno == EEXIST;
}

/* The cache directory, opened: -1 when there is none, or when it is not
 * this user's alone (docs/runtimes.md, "Who may write the cache"): owned by
 * another user, writable by its group or others, or a symbolic link.  Such a
 * directory is never read or written, and the first probe of the process
 * that meets it says so.  `create`: make it (0700) when it is missing. */
static int open_cache_dir(pb_run *run, bool create)
{
    static atomic_bool warned;
    char dir[4096];
    if (!cache_dir(run, dir, sizeof(dir)))
        return -1;
    dlti_error_t why;
    int fd = bs_dir_open(AT_FDCWD, dir, BS_INPUT_NOFOLLOW | BS_INPUT_PRIVATE, &why);
    if (fd < 0 && create && errno == ENOENT && make_dirs(dir))
        fd = bs_dir_open(AT_FDCWD, dir, BS_INPUT_NOFOLLOW | BS_INPUT_PRIVATE, &why);
    /* A missing directory is the normal first run; anything else is said. */
    if (fd < 0 && errno != ENOENT && !atomic_exchange(&warned, true))
        pb_warning(&run->warn, NULL,
                   "the runtimes' cache directory %s is not used (%s): the runtimes are "
                   "asked every time (docs/runtimes.md, \"The cache\")",
                   dir, why.text);
    return fd;
}

/* The entry when it is a regular file of this user that others cannot
 * write, not a link, under the size limit (bs_input_open). */
static char *read_entry(int dirfd, const char *name, size_t *len)
{
    return bs_read_file_at(dirfd, name, BS_INPUT_NOFOLLOW | BS_INPUT_PRIVATE,
                           MAX_ENTRY_BYTES, len, NULL);
}

const dlti_attr *pb_cache_lookup(pb_run *run, const char *kind, const char *key)
{
    char name[128];
    size_t len = 0;
    if (!entry_name(kind, key, name, sizeof(name)))
        return NULL;
    int dirfd = open_cache_dir(run, false);
    if (dirfd < 0)
        return NULL;
    char *text = read_entry(dirfd, name, &len);
    close(dirfd);
    if (!text)
        return NULL;
    dlti_context *ctx = run->ctx;
    const dlti_attr *entry = dlti_attr_parse(ctx, text, len, name, NULL);
    free(text);
    const dlti_attr *k = entry && dlti_attr_get_kind(entry) == DLTI_ATTR_MAP
                             ? dlti_attr_lookup(entry, dlti_key_string(ctx, "key", 3))
                             : NULL;
    const char *was;
    size_t wlen;
    if (!k || dlti_attr_get_string(k, &was, &wlen, NULL) != 0 || wlen != strlen(key) ||
        memcmp(was, key, wlen) != 0)
        return NULL;
    return entry;
}

/* Removes the entries (and temporary files left by a crash) that nobody
 * wrote for a week: those of earlier boots, drivers and settings. */
static void prune(int dirfd)
{
    int fd = dup(dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name + (e->d_name[0] == '.');
        if (strncmp(n, "runtimes-", 9) != 0 && strncmp(n, "compiler-", 9) != 0 &&
            strncmp(n, "host-", 5) != 0) /* host-: an older sysdesc's */
            continue;
        struct stat st;
        if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid() && now - st.st_mtime > PRUNE_AFTER_SECONDS)
            unlinkat(dirfd, e->d_name, 0);
    }
    closedir(d);
}

/* A new file in the cache directory, for writing only: the temporary file
 * an entry is written to before it is renamed over the entry. */
static int create_temporary(int dirfd, const char *kind, char *name, size_t size)
{
    static atomic_uint serial;
    for (int tries = 0; tries < 16; tries++) {
        snprintf(name, size, ".%s-%ld-%u", kind, (long)getpid(), atomic_fetch_add(&serial, 1));
        int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

void pb_cache_store(pb_run *run, const char *kind, const char *key, const char *fields,
                    size_t len)
{
    char name[128], tmp[128];
    if (!entry_name(kind, key, name, sizeof(name)))
        return;
    int dirfd = open_cache_dir(run, true);
    if (dirfd < 0)
        return;
    bs_buf b = {0};
    bs_buf_puts(&b, "#dlti.map<\"key\" = ");
    dlti_print_string(&b, key, strlen(key));
    bs_buf_puts(&b, ", ");
    bs_buf_put(&b, fields, len);
    bs_buf_puts(&b, ">\n");
    int fd = b.failed ? -1 : create_temporary(dirfd, kind, tmp, sizeof(tmp));
    if (fd >= 0) {
        size_t done = 0;
        while (done < b.len) {
            ssize_t w = write(fd, b.data + done, b.len - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                break;
            done += (size_t)w;
        }
        bool ok = done == b.len;
        if (close(fd) != 0 || !ok || renameat(dirfd, tmp, dirfd, name) != 0)
            unlinkat(dirfd, tmp, 0);
        prune(dirfd);
    }
    close(dirfd);
    free(b.data);
}
