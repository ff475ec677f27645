/* Queries: key paths, type keys, scopes, MLIR's failure notes, handles vs
 * strings, and lookups in big maps (the hash index). */
#include "test_util.h"

#include <stdio.h>

static const char spec[] =
    "module @top attributes {dlti.target_system_spec = #dlti.target_system_spec<\n"
    "  \"CPU\" = #dlti.target_device_spec<\"cache\" = #dlti.map<\"L1\" = #dlti.map<\"size\" = 32768>>,\n"
    "    \"isa\" = [\"avx2\"], \"CPU::cache::L1::size\" = 1, \"n\" = 16 : ui32>,\n"
    "  \"GPU\" = #dlti.target_device_spec<\"mma\" = #dlti.map<i32 = 8, !llvm.ptr<1> = 2>, \"w\" = 32>>} {\n"
    "  module @mid {\n"
    "    module @inner attributes {dlti.map = #dlti.map<\"CPU\" = #dlti.map<\"n\" = 4>>,\n"
    "        x.other = 1} {\n"
    "    }\n"
    "  }\n"
    "  module @empty {}\n"
    "}\n";

static const dlti_scope *root(dlti_context *ctx)
{
    dlti_error_t err;
    const dlti_scope *s = dlti_parse(ctx, spec, strlen(spec), "spec", &err);
    if (!s)
        print_error("%d:%d: %s\n", err.line, err.column, err.text);
    assert_non_null(s);
    return s;
}

static const dlti_attr *q(const dlti_scope *s, dlti_error_t *err, size_t n, ...)
{
    const char *keys[8];
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++)
        keys[i] = va_arg(ap, const char *);
    va_end(ap);
    return dlti_query_strings(s, keys, n, err);
}

static void string_paths(void **state)
{
    dlti_context *ctx = *state;
    const dlti_scope *s = root(ctx);
    dlti_error_t err;
    assert_attr_prints(q(s, &err, 4, "CPU", "cache", "L1", "size"), "32768 : i64");
    assert_attr_prints(q(s, &err, 2, "CPU", "n"), "16 : ui32");
    assert_attr_prints(q(s, &err, 2, "CPU", "isa"), "[\"avx2\"]");
    assert_int_equal(dlti_attr_get_kind(q(s, &err, 1, "GPU")), DLTI_ATTR_DEVICE_SPEC);
    /* A flat key is one literal key, never split. */
    assert_attr_prints(q(s, &err, 2, "CPU", "CPU::cache::L1::size"), "1 : i64");
    assert_null(q(s, &err, 1, "CPU::cache::L1::size"));
}

static void failure_notes(void **state)
{
    dlti_context *ctx = *state;
    const dlti_scope *s = root(ctx);
    dlti_error_t err;
    assert_null(q(s, &err, 0));
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    assert_string_equal(err.text, "no keys provided to attempt query with");
    assert_null(q(s, &err, 3, "CPU", "cache", "L3"));
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    assert_int_equal(err.line, 0);
    assert_string_equal(err.text, "key \"L3\" has no DLTI-mapping per attr: "
                                  "#dlti.map<\"L1\" = #dlti.map<\"size\" = 32768 : i64>>");
    assert_null(q(s, &err, 3, "CPU", "isa", "x"));
    assert_string_equal(err.text,
                        "got non-DLTI-queryable attribute upon looking up keys [\"CPU\",\"isa\"] at op");
    assert_null(q(s, &err, 1, "TPU"));
    assert_true(strncmp(err.text, "key \"TPU\" has no DLTI-mapping per attr: #dlti.target_system_spec<",
                        65) == 0);
    /* Key text is escaped as MLIR prints strings. */
    assert_null(q(s, &err, 2, "CPU", "a\"b"));
    assert_true(strncmp(err.text, "key \"a\\22b\" has", 15) == 0);
    /* A scope chain without queryable attributes. */
    const char *bare = "module attributes {x.a = 1} {}";
    const dlti_scope *b = dlti_parse(ctx, bare, strlen(bare), "b", &err);
    assert_null(q(b, &err, 1, "CPU"));
    assert_string_equal(err.text, "no DLTI-queryable attrs on target op or any of its ancestors");
}

/* dlti_query_note: MLIR's note with the attribute whole, past the 1 KiB an
 * error's text holds (mlir-opt-22 prints it whole too). */
static void whole_notes(void **state)
{
    dlti_context *ctx = *state;
    const dlti_scope *s = root(ctx);
    dlti_key keys[3] = {skey(ctx, "CPU"), skey(ctx, "cache"), skey(ctx, "L3")};
    char *note = dlti_query_note(s, NULL, keys, 3);
    assert_non_null(note);
    assert_string_equal(note, "key \"L3\" has no DLTI-mapping per attr: "
                              "#dlti.map<\"L1\" = #dlti.map<\"size\" = 32768 : i64>>");
    free(note);
    assert_null(dlti_query_note(s, NULL, keys, 2)); /* found: no note */
    keys[1] = skey(ctx, "isa");
    note = dlti_query_note(s, NULL, keys, 3);
    assert_string_equal(note, "got non-DLTI-queryable attribute upon looking up keys "
                              "[\"CPU\",\"isa\"] at op");
    free(note);
    /* A device of 400 keys: the error's text is cut, the note is not. */
    size_t cap = 32768, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)snprintf(text, cap, "module attributes {dlti.target_system_spec = "
                            "#dlti.target_system_spec<\"CPU\" = #dlti.target_device_spec<");
    for (int i = 0; i < 400; i++)
        len += (size_t)snprintf(text + len, cap - len, "%s\"key_%d\" = %d : i64", i ? ", " : "", i, i);
    len += (size_t)snprintf(text + len, cap - len, ">>} {}");
    assert_true(len < cap);
    dlti_error_t err;
    const dlti_scope *big = dlti_parse(ctx, text, len, "big", &err);
    assert_non_null(big);
    dlti_key miss[2] = {skey(ctx, "CPU"), skey(ctx, "nope")};
    assert_null(dlti_query(big, miss, 2, &err));
    assert_int_equal(strlen(err.text), DLTI_ERROR_TEXT_LENGTH - 1);
    note = dlti_query_note(big, NULL, miss, 2);
    assert_non_null(note);
    assert_true(strlen(note) > 4 * DLTI_ERROR_TEXT_LENGTH);
    assert_true(strncmp(note, err.text, DLTI_ERROR_TEXT_LENGTH - 4) == 0);
    static const char tail[] = "\"key_399\" = 399 : i64>";
    assert_string_equal(note + strlen(note) - (sizeof(tail) - 1), tail);
    free(note);
    /* One attribute, no scope: dlti_attr_query's note. */
    const dlti_attr *dev = dlti_query(big, miss, 1, &err);
    note = dlti_query_note(NULL, dev, miss + 1, 1);
    assert_true(strncmp(note, "key \"nope\" has no DLTI-mapping per attr: #dlti.target_device_spec<"
                              "\"key_0\" = 0 : i64, ", 80) == 0);
    free(note);
    free(text);
}

static void type_keys(void **state)
{
    dlti_context *ctx = *state;
    const dlti_scope *s = root(ctx);
    dlti_error_t err;
    dlti_key keys[3] = {skey(ctx, "GPU"), skey(ctx, "mma"), tkey(ctx, "i32")};
    assert_attr_prints(dlti_query(s, keys, 3, &err), "8 : i64");
    keys[2] = tkey(ctx, "!llvm.ptr<1>");
    assert_attr_prints(dlti_query(s, keys, 3, &err), "2 : i64");
    /* Type identity only: no interpolation between widths or address spaces. */
    keys[2] = tkey(ctx, "i64");
    assert_null(dlti_query(s, keys, 3, &err));
    assert_string_equal(err.text, "key i64 has no DLTI-mapping per attr: "
                                  "#dlti.map<i32 = 8 : i64, !llvm.ptr<1> = 2 : i64>");
    keys[2] = tkey(ctx, "!llvm.ptr");
    assert_null(dlti_query(s, keys, 3, &err));
    keys[2] = tkey(ctx, "si32");
    assert_null(dlti_query(s, keys, 3, &err));
    /* A string key "i32" is not the type key i32. */
    keys[2] = skey(ctx, "i32");
    assert_null(dlti_query(s, keys, 3, &err));
    assert_true(strncmp(err.text, "key \"i32\" has", 13) == 0);
}

static void scopes(void **state)
{
    dlti_context *ctx = *state;
    const dlti_scope *s = root(ctx);
    dlti_error_t err;
    const dlti_scope *inner = dlti_scope_find(s, "mid/inner", &err);
    assert_non_null(inner);
    /* The inner map answers "CPU": later keys resolve on its value only. */
    assert_attr_prints(q(inner, &err, 2, "CPU", "n"), "4 : i64");
    assert_null(q(inner, &err, 2, "CPU", "isa"));
    assert_string_equal(err.text, "key \"isa\" has no DLTI-mapping per attr: #dlti.map<\"n\" = 4 : i64>");
    /* "GPU" is not in the inner scope: the walk goes outward (MLIR 22 stops). */
    assert_attr_prints(q(inner, &err, 2, "GPU", "w"), "32 : i64");
    /* A scope without attributes asks its ancestors. */
    const dlti_scope *mid = dlti_scope_find(s, "mid", &err);
    assert_attr_prints(q(mid, &err, 2, "CPU", "n"), "16 : ui32");
    assert_attr_prints(q(dlti_scope_find(s, "empty", &err), &err, 2, "CPU", "n"), "16 : ui32");
    /* A miss everywhere reports the nearest queryable attribute, as MLIR does. */
    assert_null(q(inner, &err, 1, "TPU"));
    assert_string_equal(err.text, "key \"TPU\" has no DLTI-mapping per attr: "
                                  "#dlti.map<\"CPU\" = #dlti.map<\"n\" = 4 : i64>>");
    /* MLIR 22's rule: the nearest attribute answers every key, or none. */
    dlti_key k[2] = {dlti_key_string(ctx, "GPU", 3), dlti_key_string(ctx, "w", 1)};
    assert_null(dlti_query_mlir22(inner, k, 2, &err));
    assert_string_equal(err.text, "key \"GPU\" has no DLTI-mapping per attr: "
                                  "#dlti.map<\"CPU\" = #dlti.map<\"n\" = 4 : i64>>");
    k[0] = dlti_key_string(ctx, "CPU", 3);
    k[1] = dlti_key_string(ctx, "n", 1);
    assert_ptr_equal(dlti_query_mlir22(inner, k, 2, &err), dlti_query(inner, k, 2, &err));
    assert_attr_prints(dlti_query_mlir22(mid, k, 2, &err), "16 : ui32");
    assert_null(dlti_query_mlir22(inner, k, 0, &err));
    assert_string_equal(err.text, "no keys provided to attempt query with");
}

static void handles_and_strings(void **state)
{
    dlti_context *ctx = *state;
    const dlti_scope *s = root(ctx);
    dlti_error_t err;
    /* Handles are interned: the same pointer for the same key. */
    assert_ptr_equal(skey(ctx, "CPU"), skey(ctx, "CPU"));
    assert_ptr_equal(dlti_key_find(ctx, "CPU", 3), skey(ctx, "CPU"));
    size_t len;
    assert_string_equal(dlti_key_str(skey(ctx, "CPU"), &len), "CPU");
    assert_int_equal(len, 3);
    assert_null(dlti_key_get_type(skey(ctx, "CPU")));
    /* Keys with NUL bytes are distinct keys. */
    assert_ptr_not_equal(dlti_key_string(ctx, "a\0b", 3), dlti_key_string(ctx, "a", 1));
    /* The same answers through handles and strings. */
    dlti_key keys[2] = {skey(ctx, "CPU"), skey(ctx, "n")};
    assert_ptr_equal(dlti_query(s, keys, 2, &err), q(s, &err, 2, "CPU", "n"));
    /* A string the context never saw fails without being interned. */
    assert_null(dlti_key_find(ctx, "never-seen", 10));
    assert_null(q(s, &err, 2, "CPU", "never-seen"));
    assert_string_equal(err.text, "key \"never-seen\" has no DLTI-mapping per attr: "
                                  "#dlti.target_device_spec<\"cache\" = #dlti.map<\"L1\" = #dlti.map<"
                                  "\"size\" = 32768 : i64>>, \"isa\" = [\"avx2\"], "
                                  "\"CPU::cache::L1::size\" = 1 : i64, \"n\" = 16 : ui32>");
    assert_null(dlti_key_find(ctx, "never-seen", 10));
    /* More keys than the fast path's stack arrays. */
    const char *many[20];
    for (int i = 0; i < 20; i++)
        many[i] = i == 0 ? "CPU" : "x";
    assert_null(dlti_query_strings(s, many, 20, &err));
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    /* NULL err. */
    assert_null(dlti_query_strings(s, many, 20, NULL));
}

static void one_attribute(void **state)
{
    dlti_context *ctx = *state;
    const dlti_attr *a = attr_of(ctx, "#dlti.target_system_spec<\"A\" = #dlti.target_device_spec<"
                                      "\"k\" = #dlti.map<\"x\" = 1>>>");
    dlti_error_t err;
    dlti_key k[3] = {skey(ctx, "A"), skey(ctx, "k"), skey(ctx, "x")};
    assert_attr_prints(dlti_attr_query(a, k, 3, &err), "1 : i64");
    assert_null(dlti_attr_query(a, k, 0, &err));
    assert_string_equal(err.text, "no keys provided to attempt query with");
    assert_null(dlti_attr_query(attr_of(ctx, "1"), k, 1, &err));
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    assert_int_equal(dlti_attr_get_kind(dlti_attr_lookup(a, k[0])), DLTI_ATTR_DEVICE_SPEC);
    assert_null(dlti_attr_lookup(a, k[1]));
    assert_null(dlti_attr_lookup(attr_of(ctx, "[1]"), k[0]));
    assert_null(dlti_attr_lookup(a, NULL));
    assert_null(dlti_attr_lookup(NULL, k[0]));
    /* The bare root scope of a parsed attribute is queried the same way. */
    const char *text = "#dlti.map<\"x\" = 2>";
    const dlti_scope *s = dlti_parse(ctx, text, strlen(text), "t", &err);
    assert_attr_prints(q(s, &err, 1, "x"), "2 : i64");
}

/* Cluster specs (docs/cluster.md): "<node>.<device>" is the device of the
 * node's class, through every query entry point; an id that exists wins. */
static void cluster_ids(void **state)
{
    dlti_context *ctx = *state;
    dlti_error_t err;
    const char *text =
        "module attributes {dlti.target_system_spec = #dlti.target_system_spec<"
        "\"class0.GPU3\" = #dlti.target_device_spec<\"n\" = 132>,"
        "\"class1.GPU3\" = #dlti.target_device_spec<\"n\" = 108>,"
        "\"cn2.GPU3\" = #dlti.target_device_spec<\"n\" = 7>,"
        "\"cluster\" = #dlti.target_device_spec<\"nodes\" = #dlti.map<\"cn1\" = \"class0\","
        "\"cn2\" = \"class1\", \"cn3.site.org\" = \"class1\", \"cn4\" = \"class9\", \"cn5\" = 3>>>} {}";
    const dlti_scope *s = dlti_parse(ctx, text, strlen(text), "c", &err);
    assert_non_null(s);
    assert_attr_prints(q(s, &err, 2, "cn1.GPU3", "n"), "132 : i64");
    assert_attr_prints(q(s, &err, 2, "cn3.site.org.GPU3", "n"), "108 : i64");
    /* an id of its own is taken as written */
    assert_attr_prints(q(s, &err, 2, "cn2.GPU3", "n"), "7 : i64");
    dlti_key k[2] = {skey(ctx, "cn1.GPU3"), skey(ctx, "n")};
    assert_attr_prints(dlti_query(s, k, 2, &err), "132 : i64");
    const dlti_attr *spec = dlti_scope_attr_value(s, 0);
    assert_non_null(spec);
    assert_attr_prints(dlti_attr_query(spec, k, 2, &err), "132 : i64");
    /* misses keep MLIR's note: no node, no device, a class without it, a
     * class that is not a string, no node part */
    const char *misses[] = {"cn9.GPU3", "cn1.GPU0", "cn4.GPU3", "cn5.GPU3", ".GPU3", "cn1.", "cn1"};
    for (size_t i = 0; i < sizeof(misses) / sizeof(misses[0]); i++) {
        assert_null(q(s, &err, 2, misses[i], "n"));
        assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
        assert_non_null(strstr(err.text, "has no DLTI-mapping per attr: #dlti.target_system_spec"));
    }
    /* a map is not a cluster spec */
    const dlti_attr *m = attr_of(ctx, "#dlti.map<\"cluster\" = #dlti.map<\"nodes\" = "
                                      "#dlti.map<\"a\" = \"c\">>, \"c.X\" = 1>");
    dlti_key mk[1] = {skey(ctx, "a.X")};
    assert_null(dlti_attr_query(m, mk, 1, &err));
}

/* String keys on one attribute (a probe's spec) answer as handles do:
 * the same value, the same failure note, cluster ids included. */
static void attr_strings(void **state)
{
    dlti_context *ctx = *state;
    const dlti_attr *sys = dlti_scope_attr_value(root(ctx), 0);
    const dlti_attr *cl = attr_of(ctx, "#dlti.target_system_spec<\"class0.GPU3\" = "
                                       "#dlti.target_device_spec<\"n\" = 132>, \"cluster\" = "
                                       "#dlti.target_device_spec<\"nodes\" = #dlti.map<\"cn1\" = "
                                       "\"class0\">>>");
    static const char *const paths[][4] = {
        {"CPU", "cache", "L1", "size"}, {"CPU", "n"}, {"CPU", "isa"}, {"GPU"},
        {"CPU", "cache", "L3"}, {"nope"}, {"CPU", "n", "deeper"}, {"CPU", "CPU::cache::L1::size"},
        {"cn1.GPU3", "n"}, {"cn2.GPU3", "n"}, {"cn1.GPU3", "m"},
    };
    for (int which = 0; which < 2; which++) {
        const dlti_attr *a = which ? cl : sys;
        for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
            size_t n = 0;
            dlti_key keys[4];
            while (n < 4 && paths[p][n]) {
                keys[n] = skey(ctx, paths[p][n]);
                n++;
            }
            dlti_error_t by_handle, by_string;
            const dlti_attr *want = dlti_attr_query(a, keys, n, &by_handle);
            const dlti_attr *got = dlti_attr_query_strings(a, paths[p], n, &by_string);
            assert_ptr_equal(got, want);
            if (!want) {
                assert_int_equal(by_string.code, by_handle.code);
                assert_string_equal(by_string.text, by_handle.text);
            }
        }
    }
    dlti_error_t err;
    const char *one[] = {"CPU"};
    assert_null(dlti_attr_query_strings(sys, one, 0, &err));
    assert_string_equal(err.text, "no keys provided to attempt query with");
    assert_null(dlti_attr_query_strings(attr_of(ctx, "1"), one, 1, &err));
    assert_int_equal(err.code, DLTI_ERROR_NOT_FOUND);
    assert_null(dlti_attr_query_strings(NULL, one, 1, NULL));
}

/* Maps over 8 entries use a hash index: every key, type keys, misses. */
static void big_maps(void **state)
{
    dlti_context *ctx = *state;
    for (int n = 7; n <= 200; n += 31) {
        static char text[16384];
        strcpy(text, "#dlti.map<");
        for (int i = 0; i < n; i++) {
            char one[40];
            snprintf(one, sizeof(one), "%s\"key%d\" = %d", i ? ", " : "", i, i);
            strcat(text, one);
        }
        strcat(text, ", i32 = -1, !llvm.ptr<3> = -2, vector<4xf32> = -3>");
        const dlti_attr *m = attr_of(ctx, text);
        assert_int_equal(dlti_attr_size(m), (size_t)n + 3);
        for (int i = 0; i < n; i++) {
            char key[32];
            sprintf(key, "key%d", i);
            int64_t v = -100;
            const dlti_attr *val = dlti_attr_lookup(m, skey(ctx, key));
            assert_non_null(val);
            assert_int_equal(dlti_attr_get_int64(val, &v, NULL), 0);
            assert_int_equal(v, i);
        }
        int64_t v;
        assert_int_equal(dlti_attr_get_int64(dlti_attr_lookup(m, tkey(ctx, "i32")), &v, NULL), 0);
        assert_int_equal(v, -1);
        assert_int_equal(dlti_attr_get_int64(dlti_attr_lookup(m, tkey(ctx, "!llvm.ptr<3>")), &v, NULL), 0);
        assert_int_equal(v, -2);
        assert_int_equal(dlti_attr_get_int64(dlti_attr_lookup(m, tkey(ctx, "vector<4xf32>")), &v, NULL), 0);
        assert_int_equal(v, -3);
        assert_null(dlti_attr_lookup(m, tkey(ctx, "i64")));
        /* By the bytes: the same answers; a type key is not a string key;
         * the length counts, not a NUL. */
        for (int i = 0; i < n; i++) {
            char key[32];
            int len = sprintf(key, "key%d", i);
            assert_ptr_equal(dlti_attr_lookup_string(m, key, (size_t)len),
                             dlti_attr_lookup(m, skey(ctx, key)));
            assert_null(dlti_attr_lookup_string(m, key, 3)); /* "key" */
        }
        assert_ptr_equal(dlti_attr_lookup_string(m, "key12", 4), /* "key1" */
                         dlti_attr_lookup(m, skey(ctx, "key1")));
        assert_null(dlti_attr_lookup_string(m, "i32", 3));
        assert_null(dlti_attr_lookup_string(m, "key1\0", 5));
        assert_null(dlti_attr_lookup_string(dlti_attr_lookup(m, skey(ctx, "key1")), "key1", 4));
        assert_null(dlti_attr_lookup_string(NULL, "key1", 4));
        assert_null(dlti_attr_lookup(m, skey(ctx, "key-1")));
        assert_null(dlti_attr_lookup(m, skey(ctx, "i32")));
        char miss[32];
        sprintf(miss, "key%d", n);
        assert_null(dlti_attr_lookup(m, skey(ctx, miss)));
    }
}

/* Maps of every size class of the index (linear up to 8 entries, then an
 * index whose slots double): every key by handle and by string, misses, in
 * maps from 9 to 70001 entries in the same context. */
static void huge_maps(void **state)
{
    dlti_context *ctx = *state;
    static const int sizes[] = {9, 1000, 16384, 16385, 70001};
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        int n = sizes[k];
        size_t cap = (size_t)n * 32 + 256, used = 0;
        char *text = malloc(cap);
        assert_non_null(text);
        used += (size_t)snprintf(text + used, cap - used, "module attributes {dlti.map = #dlti.map<");
        for (int i = 0; i < n; i++)
            used += (size_t)snprintf(text + used, cap - used, "%s\"k%d\" = %d", i ? ", " : "", i,
                                     i);
        used += (size_t)snprintf(text + used, cap - used, ">} {\n}\n");
        dlti_error_t err;
        const dlti_scope *s = dlti_parse(ctx, text, used, "t", &err);
        free(text);
        assert_non_null(s);
        const dlti_attr *m = dlti_scope_attr_value(s, 0);
        assert_int_equal(dlti_attr_size(m), (size_t)n);
        for (int i = -3; i < n + 3; i++) {
            char key[32];
            snprintf(key, sizeof(key), "k%d", i);
            const dlti_attr *by_handle = dlti_attr_lookup(m, skey(ctx, key));
            const char *keys[1] = {key};
            const dlti_attr *by_string = dlti_query_strings(s, keys, 1, NULL);
            assert_ptr_equal(by_handle, by_string);
            assert_ptr_equal(dlti_attr_lookup_string(m, key, strlen(key)), by_handle);
            if (i < 0 || i >= n) {
                assert_null(by_handle);
                continue;
            }
            int64_t v = -100;
            assert_non_null(by_handle);
            assert_int_equal(dlti_attr_get_int64(by_handle, &v, NULL), 0);
            assert_int_equal(v, i);
        }
        assert_null(dlti_attr_lookup(m, tkey(ctx, "i32")));
    }
}

/* dlti_query_hint: the nearest key where the path stops, else the keys there. */
static void hints(void **state)
{
    dlti_context *ctx = *state;
    const dlti_scope *s = root(ctx);
    char out[256];
    dlti_key k[4];
    const char *near[] = {"CPU", "cache", "L1", "sise"};
    for (int i = 0; i < 4; i++)
        k[i] = dlti_key_string(ctx, near[i], strlen(near[i]));
    assert_int_equal(dlti_query_hint(s, NULL, k, 4, out, sizeof(out)), 0);
    assert_string_equal(out, "did you mean \"size\"?");
    k[2] = dlti_key_string(ctx, "L3", 2); /* too short to guess: list */
    assert_int_equal(dlti_query_hint(s, NULL, k, 3, out, sizeof(out)), 0);
    assert_string_equal(out, "keys here: \"L1\"");
    k[0] = dlti_key_string(ctx, "CPUX", 4);
    assert_int_equal(dlti_query_hint(s, NULL, k, 1, out, sizeof(out)), 0);
    assert_string_equal(out, "did you mean \"CPU\"?");
    /* A key in the wrong case is suggested, however short ("l1" is within no
     * edit-distance limit): `sysdesc query SPEC gpu`, `... CPU cache l1`. */
    k[0] = dlti_key_string(ctx, "cpu", 3);
    assert_int_equal(dlti_query_hint(s, NULL, k, 1, out, sizeof(out)), 0);
    assert_string_equal(out, "did you mean \"CPU\"?");
    k[0] = dlti_key_string(ctx, "CPU", 3);
    k[1] = dlti_key_string(ctx, "cache", 5);
    k[2] = dlti_key_string(ctx, "l1", 2);
    assert_int_equal(dlti_query_hint(s, NULL, k, 3, out, sizeof(out)), 0);
    assert_string_equal(out, "did you mean \"L1\"?");
    k[1] = dlti_key_string(ctx, "CACHE", 5);
    assert_int_equal(dlti_query_hint(s, NULL, k, 2, out, sizeof(out)), 0);
    assert_string_equal(out, "did you mean \"cache\"?");
    k[0] = dlti_key_string(ctx, "CPU", 3);
    k[1] = dlti_key_string(ctx, "n", 1);
    assert_int_equal(dlti_query_hint(s, NULL, k, 2, out, sizeof(out)), -1); /* it is there */
    k[2] = dlti_key_string(ctx, "x", 1);
    assert_int_equal(dlti_query_hint(s, NULL, k, 3, out, sizeof(out)), 0);
    assert_string_equal(out, "the value before \"x\" holds no keys");
    /* On one attribute, as dlti_attr_query() looks. */
    const dlti_attr *cpu = q(s, NULL, 1, "CPU");
    assert_non_null(cpu);
    k[0] = dlti_key_string(ctx, "nothing_like_it", 15);
    assert_int_equal(dlti_query_hint(NULL, cpu, k, 1, out, sizeof(out)), 0);
    assert_string_equal(out, "keys here: \"cache\", \"isa\", \"CPU::cache::L1::size\", \"n\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(string_paths, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(failure_notes, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(whole_notes, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(type_keys, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(scopes, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(handles_and_strings, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(one_attribute, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(cluster_ids, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(attr_strings, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(big_maps, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(huge_maps, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(hints, setup_ctx, teardown_ctx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
