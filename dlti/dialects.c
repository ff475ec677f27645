/* Which dialects a file loads in mlir-opt-22, for MLIR's rule on identifier
 * entries of a data layout (DataLayoutSpecAttr::verifySpec): an entry
 * `"func.knob" = 1` is refused when the `func` dialect is loaded, for no
 * loaded dialect but DLTI implements DataLayoutDialectInterface ("the 'func'
 * dialect does not support identifier data layout entries"), and accepted
 * when it is not (MLIR cannot ask it).
 *
 * mlir-opt-22 loads a dialect it registers when the file names it: an op
 * (`func.func`, generic `"test.op"()`), an attribute or type (`#llvm.target`,
 * `!llvm.ptr`), a dialect-prefixed attribute name (`llvm.target =`); with it
 * it loads the dialects it depends on.  A name inside a string (the entry's
 * own key "func.knob") loads nothing.  The table below is mlir-opt-22's: its
 * `--show-dialects`, and for each one the dialects a file naming only it
 * loads, measured with mlir-opt-22 (an identifier entry of every other
 * registered dialect, one at a time). */
#include "dlti_private.h"

#include <string.h>

#define D(name, loads) {name, sizeof(name) - 1, loads}

static const struct {
    const char *name;
    size_t len;
    const char *loads; /* besides itself, blank-separated: every one, so a
                        * dialect already loaded has loaded them too */
} registered[] = {
    D("acc", "affine arith cf gpu llvm memref ub"),
    D("affine", "arith ub"),
    D("amdgpu", "arith gpu llvm rocdl"),
    D("amx", ""),
    D("arith", ""),
    D("arm_neon", ""),
    D("arm_sme", "affine arith cf memref scf ub vector"),
    D("arm_sve", "arith ub vector"),
    D("async", ""),
    D("bufferization", "affine arith cf complex index linalg math memref scf tensor ub"),
    D("builtin", ""),
    D("cf", "arith"),
    D("complex", "arith"),
    D("dlti", ""),
    D("emitc", ""),
    D("func", "arith cf"),
    D("gpu", "arith"),
    D("index", ""),
    D("irdl", ""),
    D("linalg", "affine arith cf complex index math memref scf tensor ub"),
    D("llvm", ""),
    D("math", "arith"),
    D("memref", "affine arith cf ub"),
    D("ml_program", ""),
    D("mpi", ""),
    D("nvgpu", ""),
    D("nvvm", "llvm"),
    D("omp", "arith cf func llvm"),
    D("pdl", ""),
    D("pdl_interp", "pdl"),
    D("ptr", ""),
    D("quant", ""),
    D("rocdl", "llvm"),
    D("scf", "arith"),
    D("shape", "affine arith cf complex index linalg math memref scf tensor ub"),
    D("shard", "arith"),
    D("smt", ""),
    D("sparse_tensor", ""),
    D("spirv", ""),
    D("tensor", "affine arith cf complex index linalg math memref scf ub"),
    D("test", "affine arith bufferization cf complex index linalg math memref scf tensor ub"),
    D("test_dyn", ""),
    D("test_irdl_to_cpp", ""),
    D("tosa", "affine arith cf complex index linalg math memref quant scf tensor ub"),
    D("transform", "affine amdgpu arith arm_neon arm_sve bufferization cf complex func gpu index "
                  "irdl linalg llvm math memref nvgpu nvvm pdl pdl_interp rocdl scf sparse_tensor "
                  "tensor ub vector x86vector xegpu"),
    D("ub", ""),
    D("vector", "arith ub"),
    D("wasmssa", ""),
    D("x86vector", ""),
    D("xegpu", "arith"),
    D("xevm", "llvm"),
};

enum { NUM_REGISTERED = sizeof(registered) / sizeof(registered[0]) };
_Static_assert(NUM_REGISTERED <= 64, "one bit per registered dialect");

/* The registered dialect named s[0..n), or -1. */
static int dialect_index(const char *s, size_t n)
{
    for (int i = 0; i < NUM_REGISTERED; i++)
        if (registered[i].len == n && registered[i].name[0] == s[0] &&
            memcmp(registered[i].name, s, n) == 0)
            return i;
    return -1;
}

/* The dialect and those it loads; nothing new when `set` has it already. */
static uint64_t load_into(uint64_t set, const char *s, size_t n)
{
    int d = n ? dialect_index(s, n) : -1;
    if (d < 0 || (set & (UINT64_C(1) << d)))
        return set;
    set |= UINT64_C(1) << d;
    for (const char *w = registered[d].loads; *w;) {
        size_t len = strcspn(w, " ");
        int k = dialect_index(w, len);
        if (k >= 0)
            set |= UINT64_C(1) << k;
        w += len;
        w += *w == ' ';
    }
    return set;
}

/* The dialect prefix of a dotted name s[0..n): what precedes its first '.'. */
static uint64_t load_prefix(uint64_t set, const char *s, size_t n)
{
    const char *dot = memchr(s, '.', n);
    return dot ? load_into(set, s, (size_t)(dot - s)) : set;
}

static bool id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '.';
}

uint64_t dlti_dialects_loaded(const char *text, size_t len)
{
    uint64_t set = load_into(load_into(0, "builtin", 7), "dlti", 4);
    size_t i = 0;
    while (i < len) {
        char c = text[i];
        if (c == '/' && i + 1 < len && text[i + 1] == '/') {
            while (i < len && text[i] != '\n')
                i++;
        } else if (c == '"') {
            /* A string: only a generic op's name loads (`"test.op"(`), not
             * a quoted symbol (`@"a.b"`) or a key. */
            size_t s = ++i;
            while (i < len && text[i] != '"' && text[i] != '\n')
                i += text[i] == '\\' ? 2 : 1;
            size_t e = i < len ? i : len;
            i = e + 1;
            size_t k = i;
            while (k < len && (text[k] == ' ' || text[k] == '\t'))
                k++;
            if (k < len && text[k] == '(' && !(s >= 2 && text[s - 2] == '@'))
                set = load_prefix(set, text + s, e - s);
        } else if (id_char(c) && c != '.') {
            /* An identifier or a number, whole; a dotted identifier names a
             * dialect unless it follows @ % ^ (symbols, values, blocks). */
            size_t s = i;
            while (i < len && id_char(text[i]))
                i++;
            char before = s ? text[s - 1] : ' ';
            bool ident = !(c >= '0' && c <= '9') && before != '@' && before != '%' && before != '^';
            if (ident)
                set = load_prefix(set, text + s, i - s);
        } else {
            i++; /* '#' and '!' lead into the identifier of an attribute or type */
        }
    }
    return set;
}

bool dlti_dl_spec_names_dialects(const dlti_attr *spec)
{
    for (size_t i = 0; i < spec->n; i++) {
        dlti_key k = spec->u.c.entries[i].key;
        const char *dot = k->type ? NULL : memchr(k->str, '.', k->len);
        int d = dot ? dialect_index(k->str, (size_t)(dot - k->str)) : -1;
        if (d >= 0 && strcmp(registered[d].name, "dlti") != 0 &&
            strcmp(registered[d].name, "builtin") != 0)
            return true;
    }
    return false;
}

const char *dlti_dialect_refusing_ids(uint64_t loaded, const char *key, size_t n)
{
    const char *dot = memchr(key, '.', n);
    int d = dot ? dialect_index(key, (size_t)(dot - key)) : -1;
    if (d < 0 || !(loaded & (UINT64_C(1) << d)) || strcmp(registered[d].name, "dlti") == 0)
        return NULL;
    return registered[d].name;
}
