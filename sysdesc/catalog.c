/* The systems/ catalog: search path, lookup by name, listing, PCI matching.
 *
 * Entries are loaded through the YAML loader (yaml_load.c) with this file's
 * resolver for their `base:` names: the catalog calls the loader, never the
 * reverse. */
#define _GNU_SOURCE /* dladdr */
#include "sysdesc_private.h"
#include "sysdesc_paths.h"

#include "sysdesc/catalog.h"

#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <fcntl.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a catalog entry may be, by the rule of `base:` (docs/yaml.md,
 * "Reuse"): a regular file whose name ends in .yaml, and so does the file it
 * is once links are followed (.yaml or .yml).  1 when it is; 0 when nothing
 * is there; -1 when something else is (a link to /etc/shadow or /proc/kmsg:
 * never opened, so no byte of it reaches an error or a listing); -2 with
 * errno when the links could not be followed (out of memory). */
static int entry_file(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    char *real = realpath(path, NULL);
    if (!real)
        return -2;
    size_t len = strlen(real);
    bool yaml = real && ((len > 5 && strcmp(real + len - 5, ".yaml") == 0) ||
                         (len > 4 && strcmp(real + len - 4, ".yml") == 0));
    free(real);
    return S_ISREG(st.st_mode) && yaml ? 1 : -1;
}

/* The file that holds this code, resolved (realpath): libsysdesc.so when the
 * library is shared, else the executable it is linked into; *in_exe says
 * which.  NULL when neither can be told. */
static char *code_file(bool *in_exe)
{
    static const char anchor = 0; /* an address inside this library */
    Dl_info self, exe;
    *in_exe = true;
    if (dladdr(&anchor, &self) && self.dli_fname && *self.dli_fname) {
        /* The executable's program headers lie in its first mapping: the
         * same base as this code's means that the library is linked in. */
        const void *phdr = (const void *)getauxval(AT_PHDR);
        if (!phdr || !dladdr(phdr, &exe) || exe.dli_fbase != self.dli_fbase) {
            *in_exe = false;
            return realpath(self.dli_fname, NULL);
        }
    }
    return realpath("/proc/self/exe", NULL);
}

/* True when `file` lies in this project's build tree, so that the source
 * tree's systems/ is the catalog that belongs to it. */
static bool in_build_tree(const char *file)
{
    char *root = realpath(SYSDESC_BUILD_ROOT, NULL);
    if (!root)
        return false;
    size_t len = strlen(root);
    bool inside = strncmp(file, root, len) == 0 && file[len] == '/';
    free(root);
    return inside;
}

/* dirname(file) + "/" + rel with "." and ".." resolved by text: `file` is a
 * realpath (no links), so that ".." is its parent directory.  Malloc'ed. */
static char *relative_to(const char *file, const char *rel)
{
    size_t cap = strlen(file) + strlen(rel) + 2;
    char *out = malloc(cap), *joined = malloc(cap);
    if (!out || !joined) {
        free(out);
        free(joined);
        return NULL;
    }
    snprintf(joined, cap, "%s", file);
    char *slash = strrchr(joined, '/');
    if (slash)
        *slash = '\0'; /* the directory */
    size_t dirlen = strlen(joined);
    snprintf(joined + dirlen, cap - dirlen, "/%s", rel);
    size_t n = 0;
    for (char *c = joined; *c;) {
        while (*c == '/')
            c++;
        size_t len = strcspn(c, "/");
        if (len == 0 || (len == 1 && c[0] == '.')) {
            /* nothing */
        } else if (len == 2 && c[0] == '.' && c[1] == '.') {
            while (n > 0 && out[--n] != '/')
                ;
        } else {
            out[n++] = '/';
            memcpy(out + n, c, len);
            n += len;
        }
        c += len;
    }
    if (n == 0)
        out[n++] = '/';
    out[n] = '\0';
    free(joined);
    return out;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* relative_to() of the first of the ':'-separated `rels` that is a
 * directory (a wheel's tool looks in each scheme's place), else of the
 * first: the place it was looked for.  Malloc'ed. */
static char *relative_to_first(const char *file, const char *rels)
{
    char *first = NULL;
    for (const char *p = rels; *p;) {
        size_t len = strcspn(p, ":");
        char *rel = strndup(p, len), *dir = rel ? relative_to(file, rel) : NULL;
        free(rel);
        if (dir && is_dir(dir)) {
            free(first);
            return dir;
        }
        if (!first)
            first = dir;
        else
            free(dir);
        p += len + (p[len] == ':');
    }
    return first;
}

/* Whether two directory names name the same directory. */
static bool same_dir(const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return true;
    char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
    bool same = ra && rb && strcmp(ra, rb) == 0;
    free(ra);
    free(rb);
    return same;
}

/* The search path after $SYSDESC_PATH: it depends only on where this code
 * lies, which a running process does not change (computed once: a realpath
 * of each directory above the library, which host() paid on every call). */
static char *default_tail;
static pthread_once_t default_tail_once = PTHREAD_ONCE_INIT;

static void compute_default_tail(void)
{
    bs_buf b = {0};
    bool in_exe;
    char *code = code_file(&in_exe);
    bool build_tree = code && in_build_tree(code);
    /* The catalog next to the library or executable that runs, wherever its
     * prefix was moved (not from the build tree: nothing is installed
     * there). */
    const char *rel = in_exe ? SYSDESC_BINDIR_TO_CATALOG : SYSDESC_LIBDIR_TO_CATALOG;
    char *relocated = code && !build_tree && *rel ? relative_to_first(code, rel) : NULL;
    if (relocated && !same_dir(relocated, SYSDESC_CATALOG_DIR)) {
        bs_buf_puts(&b, relocated);
        bs_buf_puts(&b, ":");
    }
    bs_buf_puts(&b, SYSDESC_CATALOG_DIR);
    if (build_tree) {
        bs_buf_puts(&b, ":");
        bs_buf_puts(&b, SYSDESC_SOURCE_CATALOG_DIR);
    }
    free(relocated);
    free(code);
    default_tail = sd_buf_finish(&b, NULL); /* NULL: out of memory, said by every call */
}

char *sysdesc_catalog_path(void)
{
    pthread_once(&default_tail_once, compute_default_tail);
    const char *env = getenv("SYSDESC_PATH");
    char *out = NULL;
    if (!default_tail ||
        (env && *env ? asprintf(&out, "%s:%s", env, default_tail) < 0
                     : !(out = strdup(default_tail))))
        return NULL;
    return out;
}

/* `search_path`, or the default one in *owned (for the caller to free);
 * NULL when out of memory. */
static const char *path_or_default(const char *search_path, char **owned, dlti_error_t *err)
{
    if (search_path)
        return search_path;
    if (!(*owned = sysdesc_catalog_path()))
        bs_nomem(err);
    return *owned;
}

/* Calls fn(dir, user) for each non-empty directory of a ':' path; stops at a non-zero return. */
static int each_dir(const char *path, int (*fn)(const char *dir, void *user), void *user)
{
    const char *p = path;
    while (*p) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (len) {
            char *dir = strndup(p, len);
            if (!dir)
                return -1;
            int r = fn(dir, user);
            free(dir);
            if (r)
                return r;
        }
        p += len;
        if (*p == ':')
            p++;
    }
    return 0;
}

typedef struct find_state {
    const char *name;
    char *found;
    char *refused; /* the first file of that name that is not a description */
    int error;     /* errno when the links of one could not be followed */
} find_state;

static int find_in(const char *dir, void *user)
{
    find_state *s = user;
    size_t len = strlen(dir) + strlen(s->name) + 8;
    char *p = malloc(len);
    if (!p)
        return -1;
    size_t nlen = strlen(s->name);
    bool has_suffix = nlen > 5 && strcmp(s->name + nlen - 5, ".yaml") == 0;
    snprintf(p, len, "%s/%s%s", dir, s->name, has_suffix ? "" : ".yaml");
    int is = entry_file(p);
    if (is > 0) {
        s->found = p;
        return 1;
    }
    if (is == -2) {
        s->error = errno;
        free(p);
        return -1;
    }
    if (is < 0 && !s->refused)
        s->refused = p;
    else
        free(p);
    return 0;
}

char *sysdesc_catalog_find(const char *name, const char *search_path, dlti_error_t *err)
{
    if (!name || !*name || strstr(name, "..") || name[0] == '/') {
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "'%s' is not a catalog name",
                 name ? name : "(null)");
        return NULL;
    }
    char *owned = NULL;
    if (!(search_path = path_or_default(search_path, &owned, err)))
        return NULL;
    find_state s = {name, NULL, NULL, 0};
    int r = each_dir(search_path, find_in, &s);
    if (r < 0 && s.error && s.error != ENOMEM)
        bs_error_set(err, DLTI_ERROR_IO, "catalog entry '%s': %s", name, strerror(s.error));
    else if (r < 0)
        bs_nomem(err);
    else if (!s.found && s.refused)
        bs_error_set(err, DLTI_ERROR_VERIFY,
                     "catalog entry '%s': %s is not a YAML description (an entry is a regular "
                     "file whose name ends in .yaml, and so does the file its links lead to)",
                     name, s.refused);
    else if (!s.found) {
        char hint[512];
        bool near = sd_catalog_suggest(name, search_path, hint, sizeof hint) == 0;
        bs_error_set(err, DLTI_ERROR_NOT_FOUND,
                     "no catalog entry '%s' in %s (set SYSDESC_PATH to add directories)%s%s",
                     name, search_path, near ? "; " : "", near ? hint : "");
    }
    free(owned);
    free(s.refused);
    return s.found;
}

static char *find_base(const void *search_path, const char *name, dlti_error_t *err)
{
    return sysdesc_catalog_find(name, search_path, err);
}

sd_resolver sd_catalog_resolver(const char *search_path)
{
    return (sd_resolver){find_base, search_path};
}

/* ---- listing ---- */

/* A walk of a catalog directory ends: it remembers the directories it has
 * been in (device and inode: a symbolic link back up is entered once), goes
 * WALK_MAX_DEPTH deep at most and looks at WALK_MAX_ENTRIES names at most
 * (SYSDESC_PATH=/proc: its links lead into the whole file system); past
 * that the listing fails, rather than being a partial catalog. */
#define WALK_MAX_DEPTH 16
#define WALK_MAX_ENTRIES 100000

typedef struct dir_id {
    dev_t dev;
    ino_t ino;
} dir_id;

typedef struct list_state {
    sysdesc_catalog_entry *e;
    size_t n, cap;
    dir_id *seen;
    size_t nseen, capseen;
    size_t looked;             /* names read in this search path directory */
    const char *root;
    dlti_error_t *err;
    bool failed;
} list_state;

static bool listed(const list_state *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->e[i].name, name) == 0)
            return true;
    return false;
}

static void walk_fail(list_state *s, dlti_error_code code, const char *why)
{
    if (!s->failed)
        bs_error_set(s->err, code, "catalog directory %s: %s", s->root, why);
    s->failed = true;
}

/* False when directory `fd` was walked already (or out of memory). */
static bool first_visit(list_state *s, int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return false;
    for (size_t i = 0; i < s->nseen; i++)
        if (s->seen[i].dev == st.st_dev && s->seen[i].ino == st.st_ino)
            return false;
    if (bs_grow((void **)&s->seen, &s->capseen, s->nseen + 1, sizeof(*s->seen))) {
        walk_fail(s, DLTI_ERROR_NOMEM, "out of memory");
        return false;
    }
    s->seen[s->nseen++] = (dir_id){st.st_dev, st.st_ino};
    return true;
}

/* Directory `fd` (taken: closed here), `rel` below the root.  Paths longer
 * than the buffers are skipped: no catalog name is that long. */
/* A directory that could not be opened: what is not there (or not a
 * directory, or not ours to read) is no part of the catalog, but running out
 * of descriptors or memory is the environment's failure, said as it is: a
 * listing cut short by it would be a smaller catalog without a word. */
static void open_failed(list_state *s, int e)
{
    if (e == EMFILE || e == ENFILE || e == ENOMEM)
        walk_fail(s, e == ENOMEM ? DLTI_ERROR_NOMEM : DLTI_ERROR_IO, strerror(e));
}

static void walk(list_state *s, int fd, const char *rel, unsigned depth)
{
    if (!first_visit(s, fd)) {
        close(fd);
        return;
    }
    DIR *d = fdopendir(fd);
    if (!d) {
        open_failed(s, errno);
        close(fd);
        return;
    }
    struct dirent *de;
    while (!s->failed && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (++s->looked > WALK_MAX_ENTRIES) {
            char why[128];
            snprintf(why, sizeof(why),
                     "more than %d names under it (a catalog has hundreds): not listed",
                     WALK_MAX_ENTRIES);
            walk_fail(s, DLTI_ERROR_LIMIT, why);
            break;
        }
        char relname[2048], full[4096 + 2048 + 2];
        if (snprintf(relname, sizeof(relname), "%s%s%s", rel, *rel ? "/" : "", de->d_name) >=
            (int)sizeof(relname))
            continue;
        struct stat st;
        if (fstatat(dirfd(d), de->d_name, &st, 0) != 0) /* links followed */
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (depth >= WALK_MAX_DEPTH)
                continue;
            int sub = bs_dir_open(dirfd(d), de->d_name, 0, NULL);
            if (sub >= 0)
                walk(s, sub, relname, depth + 1);
            else
                open_failed(s, errno);
            continue;
        }
        size_t len = strlen(relname);
        if (!S_ISREG(st.st_mode) || len <= 5 || strcmp(relname + len - 5, ".yaml") != 0)
            continue;
        snprintf(full, sizeof(full), "%s/%s", s->root, relname);
        int is = entry_file(full);
        if (is == -2) { /* not told: the listing would be shorter without a word */
            walk_fail(s, errno == ENOMEM ? DLTI_ERROR_NOMEM : DLTI_ERROR_IO, strerror(errno));
            break;
        }
        if (is < 0)
            continue; /* a link to what is not a description is not an entry */
        relname[len - 5] = '\0';
        if (listed(s, relname))
            continue;
        if (bs_grow((void **)&s->e, &s->cap, s->n + 1, sizeof(*s->e))) {
            walk_fail(s, DLTI_ERROR_NOMEM, "out of memory");
            break;
        }
        sysdesc_catalog_entry *e = &s->e[s->n];
        memset(e, 0, sizeof(*e));
        e->name = strdup(relname);
        e->path = strdup(full);
        s->n++;
        if (!e->name || !e->path)
            walk_fail(s, DLTI_ERROR_NOMEM, "out of memory");
    }
    closedir(d);
}

static int list_in(const char *dir, void *user)
{
    list_state *s = user;
    s->root = dir;
    s->looked = 0;
    s->nseen = 0; /* a directory under two search path entries is listed under both */
    int fd = bs_dir_open(AT_FDCWD, dir, 0, NULL);
    if (fd >= 0)
        walk(s, fd, "", 0);
    else
        open_failed(s, errno);
    return s->failed ? -1 : 0;
}

/* ---- did you mean ---- */

typedef struct near_name {
    const char *name;
    int kind;        /* 0 the same name, 1 one it begins, 2 one it nearly spells */
    size_t distance; /* within its kind */
} near_name;

static int cmp_near(const void *a, const void *b)
{
    const near_name *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->distance != y->distance)
        return x->distance < y->distance ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void lower(char *out, const char *in, size_t len)
{
    for (size_t i = 0; i < len; i++)
        out[i] = (char)tolower((unsigned char)in[i]);
    out[len] = '\0';
}

/* How `name` is near catalog entry `entry` (cases ignored): false when it is
 * not.  A name with a vendor ("nvidia/h100") is compared with the entries of
 * that vendor (or one a typo away) past it; one without ("h100-sxm") with
 * the entries' last parts. */
static bool name_near(const char *name, const char *entry, near_name *out)
{
    char a[128], b[128];
    size_t la = strlen(name), lb = strlen(entry);
    if (la >= sizeof a || lb >= sizeof b)
        return false;
    lower(a, name, la);
    lower(b, entry, lb);
    const char *want = a, *have;
    char *slash = strchr(a, '/');
    if (slash) {
        const char *eslash = strchr(b, '/');
        if (!eslash)
            return false;
        size_t lv = (size_t)(slash - a);
        if (bs_edit_distance(a, lv, b, (size_t)(eslash - b)) > lv / 3)
            return false;
        want = slash + 1;
        have = eslash + 1;
    } else {
        have = strrchr(b, '/') ? strrchr(b, '/') + 1 : b;
    }
    size_t lw = strlen(want), lh = strlen(have);
    if (strcmp(want, have) == 0)
        *out = (near_name){entry, 0, 0};
    else if (lw >= 2 && lh > lw && memcmp(want, have, lw) == 0)
        *out = (near_name){entry, 1, lh - lw};
    else if ((out->distance = bs_edit_distance(want, lw, have, lh)) <= lw / 3)
        *out = (near_name){entry, 2, out->distance};
    else
        return false;
    return true;
}

int sd_catalog_suggest(const char *name, const char *search_path, char *out, size_t size)
{
    char *owned = NULL;
    if (!name || !size || !(search_path = path_or_default(search_path, &owned, NULL)))
        return -1;
    list_state s = {0};
    int rc = each_dir(search_path, list_in, &s) < 0 || s.failed ? -1 : 0;
    near_name *near = rc == 0 && s.n ? calloc(s.n, sizeof *near) : NULL;
    size_t nnear = 0;
    for (size_t i = 0; near && i < s.n; i++)
        if (name_near(name, s.e[i].name, &near[nnear]))
            nnear++;
    rc = -1;
    if (nnear) {
        enum { SHOWN = 4 };
        qsort(near, nnear, sizeof *near, cmp_near);
        /* Only the nearest kind: the entries a name begins, when there
         * are, and not those it nearly spells. */
        size_t same = 1;
        while (same < nnear && near[same].kind == near[0].kind)
            same++;
        nnear = same;
        size_t shown = nnear < SHOWN ? nnear : SHOWN;
        bs_buf b = {0};
        bs_buf_puts(&b, "did you mean ");
        for (size_t i = 0; i < shown; i++)
            bs_buf_printf(&b, "%s'%s'", i == 0 ? "" : i + 1 < shown || nnear > shown ? ", " : " or ",
                          near[i].name);
        if (nnear > shown)
            bs_buf_printf(&b, " (or %zu more: sysdesc list)", nnear - shown);
        bs_buf_puts(&b, "?");
        char *text = sd_buf_finish(&b, NULL);
        if (text) {
            snprintf(out, size, "%s", text);
            free(text);
            rc = 0;
        }
    }
    free(near);
    sysdesc_catalog_list_free(s.e, s.n);
    free(s.seen);
    free(owned);
    return rc;
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const sysdesc_catalog_entry *)a)->name,
                  ((const sysdesc_catalog_entry *)b)->name);
}

static char *string_key(const dlti_attr *device, const char *key)
{
    for (size_t i = 0; i < dlti_attr_size(device); i++) {
        const char *k = dlti_key_str(dlti_attr_entry_key(device, i), NULL);
        const char *v;
        if (k && strcmp(k, key) == 0 &&
            dlti_attr_get_string(dlti_attr_entry_value(device, i), &v, NULL, NULL) == 0)
            return strdup(v);
    }
    return strdup("");
}

/* A system's devices' `key` values, each once, in device order, joined by
 * `sep`; with `count`, "N × VALUE" for a value N devices share.  A device
 * without the key is left out.  Malloc'ed; NULL when out of memory. */
static char *system_text(const dlti_attr *spec, const char *key, const char *sep, bool count)
{
    size_t n = dlti_attr_size(spec);
    char **seen = calloc(n ? n : 1, sizeof *seen);
    size_t *times = calloc(n ? n : 1, sizeof *times), nseen = 0;
    char *out = NULL;
    bool ok = seen && times;
    for (size_t i = 0; ok && i < n; i++) {
        char *v = string_key(dlti_attr_entry_value(spec, i), key);
        if (!v) {
            ok = false;
            break;
        }
        size_t j = 0;
        while (j < nseen && strcmp(seen[j], v) != 0)
            j++;
        if (j == nseen && *v)
            seen[nseen++] = v;
        else
            free(v);
        if (j < nseen)
            times[j]++;
    }
    bs_buf b = {0};
    for (size_t j = 0; ok && j < nseen; j++) {
        if (j)
            bs_buf_puts(&b, sep);
        if (count && times[j] > 1)
            bs_buf_printf(&b, "%zu \xc3\x97 ", times[j]); /* "8 × " */
        bs_buf_puts(&b, seen[j]);
    }
    out = ok ? sd_buf_finish(&b, NULL) : NULL;
    if (!ok)
        free(b.data);
    for (size_t j = 0; j < nseen; j++)
        free(seen[j]);
    free(seen);
    free(times);
    return out;
}

int sysdesc_catalog_list(const char *search_path, sysdesc_catalog_entry **entries, size_t *n,
                         dlti_error_t *err)
{
    char *owned = NULL;
    if (!(search_path = path_or_default(search_path, &owned, err)))
        return -1;
    list_state s = {.err = err};
    int rc = each_dir(search_path, list_in, &s) < 0 || s.failed ? -1 : 0;
    free(s.seen);
    if (rc < 0 && !s.failed)
        bs_nomem(err);
    else if (s.n)
        qsort(s.e, s.n, sizeof(*s.e), cmp_entry); /* no qsort(NULL, 0): UB */
    /* Bases of the entries resolve along the same path. */
    sd_resolver catalog = sd_catalog_resolver(search_path);
    for (size_t i = 0; i < s.n && rc == 0; i++) {
        dlti_context *ctx = dlti_context_new();
        sysdesc_system sys;
        if (!ctx) {
            bs_nomem(err);
            rc = -1;
        } else if (sd_yaml_load_file(ctx, s.e[i].path, NULL, &catalog, &sys, err) < 0) {
            rc = -1;
        } else if (dlti_attr_size(sys.spec) == 1) {
            const dlti_attr *dev = dlti_attr_entry_value(sys.spec, 0);
            s.e[i].vendor = string_key(dev, "vendor");
            s.e[i].model = string_key(dev, "model");
        } else {
            s.e[i].vendor = system_text(sys.spec, "vendor", ", ", false);
            s.e[i].model = system_text(sys.spec, "model", " + ", true);
        }
        dlti_context_free(ctx);
        if (rc == 0 && (!s.e[i].vendor || !s.e[i].model)) {
            bs_nomem(err);
            rc = -1;
        }
    }
    free(owned);
    if (rc < 0) {
        sysdesc_catalog_list_free(s.e, s.n);
        return -1;
    }
    *entries = s.e;
    *n = s.n;
    return 0;
}

void sysdesc_catalog_list_free(sysdesc_catalog_entry *entries, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(entries[i].name);
        free(entries[i].path);
        free(entries[i].vendor);
        free(entries[i].model);
    }
    free(entries);
}

/* ---- PCI matching ---- */

static const dlti_attr *lookup(const dlti_attr *dev, const char *key)
{
    for (size_t i = 0; i < dlti_attr_size(dev); i++) {
        const char *k = dlti_key_str(dlti_attr_entry_key(dev, i), NULL);
        if (k && strcmp(k, key) == 0)
            return dlti_attr_entry_value(dev, i);
    }
    return NULL;
}

static bool pci_matches(const dlti_attr *dev, unsigned vendor_id, unsigned device_id)
{
    int64_t v;
    const dlti_attr *vendor = lookup(dev, "pci_vendor_id"), *ids = lookup(dev, "pci_device_ids");
    if (!vendor || !ids || dlti_attr_get_int64(vendor, &v, NULL) < 0 || v != (int64_t)vendor_id ||
        dlti_attr_get_kind(ids) != DLTI_ATTR_ARRAY)
        return false;
    for (size_t i = 0; i < dlti_attr_size(ids); i++)
        if (dlti_attr_get_int64(dlti_attr_element(ids, i), &v, NULL) == 0 && v == (int64_t)device_id)
            return true;
    return false;
}

/* Whether the file declares itself a variant of another entry ("# variant-of:
 * NAME" in its header comment, docs/catalog.md): a MIG profile shares its
 * GPU's PCI id, and only a device that is that partition takes it. */
static bool declared_variant(const char *path)
{
    char head[4096];
    size_t got = 0;
    int fd = bs_input_open(AT_FDCWD, path, 0, NULL);
    if (fd < 0)
        return false;
    int rc = bs_input_read(fd, head, sizeof(head) - 1, &got);
    close(fd);
    if (rc != 0)
        return false;
    head[got] = '\0';
    /* the header comment: the leading lines that begin with '#' */
    for (const char *line = head; *line == '#';) {
        const char *p = line + 1;
        while (*p == ' ')
            p++;
        if (strncmp(p, "variant-of:", 11) == 0)
            return true;
        const char *nl = strchr(line, '\n');
        if (!nl)
            break;
        line = nl + 1;
    }
    return false;
}

int sd_catalog_pci_candidates(dlti_context *ctx, unsigned vendor_id, unsigned device_id,
                              const char *search_path, sd_pci_candidate *out, size_t max,
                              size_t *n, dlti_error_t *err)
{
    sysdesc_catalog_entry *entries;
    size_t count;
    *n = 0;
    if (sysdesc_catalog_list(search_path, &entries, &count, err) < 0)
        return -1;
    sd_resolver catalog = sd_catalog_resolver(search_path);
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        sysdesc_system sys;
        if (sd_yaml_load_file(ctx, entries[i].path, NULL, &catalog, &sys, err) < 0) {
            rc = -1;
            break;
        }
        if (dlti_attr_size(sys.spec) != 1)
            continue;
        const dlti_attr *dev = dlti_attr_entry_value(sys.spec, 0);
        if (!pci_matches(dev, vendor_id, device_id))
            continue;
        if (*n < max) {
            out[*n].device = dev;
            out[*n].variant = declared_variant(entries[i].path);
            snprintf(out[*n].name, sizeof(out[*n].name), "%s", entries[i].name);
            ++*n;
        }
    }
    sysdesc_catalog_list_free(entries, count);
    return rc;
}

const dlti_attr *sysdesc_catalog_match_pci(dlti_context *ctx, unsigned vendor_id,
                                           unsigned device_id, const char *search_path,
                                           char **name, dlti_error_t *err)
{
    bs_error_clear(err);
    sd_pci_candidate c[SD_PCI_CANDIDATES_MAX];
    size_t all, n = 0;
    if (sd_catalog_pci_candidates(ctx, vendor_id, device_id, search_path, c,
                                  SD_PCI_CANDIDATES_MAX, &all, err) < 0)
        return NULL;
    /* The id alone means the whole product: a partition profile shares it. */
    for (size_t i = 0; i < all; i++)
        if (!c[i].variant)
            c[n++] = c[i];
    if (n == 0) {
        bs_error_set(err, DLTI_ERROR_NOT_FOUND, "no catalog entry for PCI device %04x:%04x",
                     vendor_id, device_id);
        return NULL;
    }
    if (n > 1) {
        bs_error_set(err, DLTI_ERROR_NOT_FOUND,
                     "PCI device %04x:%04x is claimed by %zu catalog entries (%s, %s%s): the "
                     "id alone does not tell them apart (sysdesc_catalog_pci_fill tells a "
                     "probed device's by its compute units, memory and name)",
                     vendor_id, device_id, n, c[0].name, c[1].name, n > 2 ? ", ..." : "");
        return NULL;
    }
    if (name && !(*name = strdup(c[0].name))) {
        bs_nomem(err);
        return NULL;
    }
    return c[0].device;
}
