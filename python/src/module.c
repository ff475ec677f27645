/* module.c - the _sysdesc module: loading, parsing, probing, composing,
 * checking and the catalog.  sysdesc/__init__.py wraps these in the public
 * API (docs/python.md). */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

/* A loaded system's root spec: a sysdesc.Spec node (scoped for modules).  A
 * module with no system spec (a data layout alone) is an empty mapping whose
 * layout() and scoped queries still work. */
static PyObject *spec_of(dlti_context *ctx, const sysdesc_system *sys, const char *source)
{
    const dlti_attr *root = sys->spec;
    dlti_error_t err;
    if (!root && !(root = dlti_container_new(ctx, DLTI_ATTR_MAP, NULL, 0, &err))) {
        dlti_context_free(ctx);
        return ext_raise(&err);
    }
    SystemObject *s = ext_system_new(ctx, sys, source);
    if (!s)
        return NULL;
    PyObject *r = ext_node_new(s, root, sys->module, ext_reg.spec_class);
    Py_DECREF(s);
    return r;
}

/* What the device schema does not know (a key, a device type), which a load
 * goes on with: a Python UserWarning each, "FILE:LINE:COL: MESSAGE".  Runs
 * with the GIL held (loads do not release it); a warning filter that turns
 * it into an exception stops the check, and the load's caller raises it. */
static int warn_problem(void *user, const dlti_error_t *problem)
{
    char line[DLTI_ERROR_TEXT_LENGTH + DLTI_ERROR_SOURCE_LENGTH + 64];
    dlti_error_format(problem, line, sizeof line);
    char *at = strstr(line, ": error: ");
    if (at)
        memmove(at + 2, at + 9, strlen(at + 9) + 1);
    if (PyErr_WarnEx(PyExc_UserWarning, line, 1) < 0) {
        *(int *)user = 1;
        return 1;
    }
    return 0;
}

/* check: 0 none, 1 the default (unknown keys warned), 2 strict. */
static void load_options(sysdesc_yaml_options *o, int check, const char *search_path,
                         int *warn_raised)
{
    memset(o, 0, sizeof *o);
    o->flags = check == 0 ? SYSDESC_LOAD_NO_CHECK : check == 2 ? SYSDESC_LOAD_STRICT : 0;
    o->search_path = search_path;
    o->warn = warn_problem;
    o->warn_user = warn_raised;
}

static PyObject *m_register(PyObject *mod, PyObject *args)
{
    (void)mod;
    ext_registry r;
    if (!PyArg_ParseTuple(args, "OOOOOO!:_register", &r.map_class, &r.spec_class, &r.mlir_type,
                          &r.mlir_attr, &r.unit, &PyDict_Type, &r.errors))
        return NULL;
    PyObject **slots[] = {&ext_reg.map_class, &ext_reg.spec_class, &ext_reg.mlir_type,
                          &ext_reg.mlir_attr, &ext_reg.unit, &ext_reg.errors};
    PyObject *vals[] = {r.map_class, r.spec_class, r.mlir_type, r.mlir_attr, r.unit, r.errors};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
        Py_XSETREF(*slots[i], Py_NewRef(vals[i]));
    Py_RETURN_NONE;
}

/* _load(path, check, search_path) */
static PyObject *m_load(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *path_obj;
    int check;
    const char *search_path;
    if (!PyArg_ParseTuple(args, "O&iz:_load", PyUnicode_FSConverter, &path_obj, &check,
                          &search_path))
        return NULL;
    const char *path = PyBytes_AS_STRING(path_obj);
    dlti_context *ctx = dlti_context_new();
    if (!ctx) {
        Py_DECREF(path_obj);
        return PyErr_NoMemory();
    }
    sysdesc_yaml_options o;
    int raised = 0;
    load_options(&o, check, search_path, &raised);
    o.flags |= SYSDESC_LOAD_ANY_MODULE; /* a data layout alone is a Spec too */
    sysdesc_system sys = {0};
    dlti_error_t err;
    PyObject *r;
    if (sysdesc_system_load(ctx, path, &o, &sys, &err) < 0 || raised) {
        dlti_context_free(ctx);
        r = raised ? NULL : ext_raise(&err);
    } else {
        r = spec_of(ctx, &sys, path);
    }
    Py_DECREF(path_obj);
    return r;
}

/* _parse(text, source, check, search_path) */
static PyObject *m_parse(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *text, *source, *search_path;
    Py_ssize_t len;
    int check;
    if (!PyArg_ParseTuple(args, "s#ziz:_parse", &text, &len, &source, &check, &search_path))
        return NULL;
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        return PyErr_NoMemory();
    sysdesc_yaml_options o;
    int raised = 0;
    load_options(&o, check, search_path, &raised);
    o.flags |= SYSDESC_LOAD_ANY_MODULE;
    sysdesc_system sys = {0};
    dlti_error_t err;
    if (sysdesc_system_parse(ctx, text, (size_t)len, source, &o, &sys, &err) < 0 || raised) {
        dlti_context_free(ctx);
        return raised ? NULL : ext_raise(&err);
    }
    return spec_of(ctx, &sys, source ? source : "<string>");
}

/* ---- probing, with the GIL released ---- */

typedef struct {
    char **lines;
    size_t n, cap;
} warning_list;

static void collect_warning(void *user, const char *message)
{
    warning_list *w = user;
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 8;
        char **p = realloc(w->lines, cap * sizeof *p);
        if (!p)
            return; /* a lost warning, not a failed probe */
        w->lines = p;
        w->cap = cap;
    }
    char *copy = strdup(message);
    if (copy)
        w->lines[w->n++] = copy;
}

/* The warnings as a list of str (and the C list freed). */
static PyObject *warnings_take(warning_list *w)
{
    PyObject *list = PyList_New(0);
    for (size_t i = 0; i < w->n; i++) {
        PyObject *s = list ? PyUnicode_DecodeUTF8(w->lines[i], (Py_ssize_t)strlen(w->lines[i]),
                                                  "replace")
                           : NULL;
        if (list && (!s || PyList_Append(list, s) < 0))
            Py_CLEAR(list);
        Py_XDECREF(s);
        free(w->lines[i]);
    }
    free(w->lines);
    w->lines = NULL;
    w->n = w->cap = 0;
    return list;
}

typedef struct {
    int io;           /* -1 auto, 0 off, 1 on */
    unsigned runtimes;
    int cache;        /* sysdesc_probe_cache */
    const char *cache_dir;
    int catalog;
    const char *search_path;
} probe_args;

/* The options of `a`, warnings to `w`. */
static void probe_options(sysdesc_probe_options *opts, const probe_args *a, warning_list *w)
{
    sysdesc_probe_options_init(opts);
    opts->io = a->io < 0 ? SYSDESC_PROBE_IO_AUTO : a->io ? SYSDESC_PROBE_IO_ON : SYSDESC_PROBE_IO_OFF;
    opts->runtimes = a->runtimes;
    opts->cache = (sysdesc_probe_cache)a->cache;
    opts->cache_dir = a->cache_dir;
    opts->warning = collect_warning;
    opts->warning_user = w;
    if (a->catalog)
        sysdesc_catalog_probe_options(opts, a->search_path);
}

/* Probes into `ctx` without the GIL, as `sysdesc probe` (the host's data
 * layout with it); the warnings go to `w`. */
static int probe(dlti_context *ctx, const probe_args *a, warning_list *w, sysdesc_system *sys,
                 dlti_error_t *err)
{
    sysdesc_probe_options opts;
    probe_options(&opts, a, w);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = sysdesc_system_probe(ctx, &opts, sys, err);
    Py_END_ALLOW_THREADS
    return rc;
}

static int parse_probe_args(PyObject *args, probe_args *a, const char *fmt)
{
    return PyArg_ParseTuple(args, fmt, &a->io, &a->runtimes, &a->cache, &a->cache_dir,
                            &a->catalog, &a->search_path);
}

/* _host(io, runtimes, cache, cache_dir, catalog, search_path) -> (spec, warnings);
 * sysdesc.host() keeps the answer for the process (python/sysdesc/__init__.py). */
static PyObject *m_host(PyObject *mod, PyObject *args)
{
    (void)mod;
    probe_args a;
    if (!parse_probe_args(args, &a, "iIizpz:_host"))
        return NULL;
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        return PyErr_NoMemory();
    warning_list w = {0};
    dlti_error_t err;
    sysdesc_system sys;
    int rc = probe(ctx, &a, &w, &sys, &err);
    PyObject *warnings = warnings_take(&w);
    if (rc != 0 || !warnings) {
        dlti_context_free(ctx);
        Py_XDECREF(warnings);
        return rc == 0 ? NULL : ext_raise(&err);
    }
    PyObject *s = spec_of(ctx, &sys, "<host>");
    if (!s) {
        Py_DECREF(warnings);
        return NULL;
    }
    return Py_BuildValue("(NN)", s, warnings);
}

/* _measure(devices, mode, max_threads, device_timeout_ms, io, runtimes, cache,
 * cache_dir, catalog, search_path) -> (spec, warnings, failed): probes this
 * host and measures it as `sysdesc measure` does (devices empty: the CPU by
 * its own kernels) or as `sysdesc measure --device` (devices: ids, or
 * "all"), all without the GIL. */
static PyObject *m_measure(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *devices;
    int mode;
    unsigned max_threads, timeout_ms;
    probe_args a;
    if (!PyArg_ParseTuple(args, "O!iIIiIizpz:_measure", &PyTuple_Type, &devices, &mode,
                          &max_threads, &timeout_ms, &a.io, &a.runtimes, &a.cache, &a.cache_dir,
                          &a.catalog, &a.search_path))
        return NULL;
    if (mode != SYSDESC_MEASURE_DEFAULT && mode != SYSDESC_MEASURE_QUICK &&
        mode != SYSDESC_MEASURE_FULL)
        return ext_raise_argument("measure: unknown mode %d", mode);
    size_t n = (size_t)PyTuple_GET_SIZE(devices);
    const char **ids = PyMem_Calloc(n ? n : 1, sizeof(*ids));
    if (!ids)
        return PyErr_NoMemory();
    for (size_t i = 0; i < n; i++) {
        /* Kept alive by the tuple: usable without the GIL. */
        ids[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(devices, (Py_ssize_t)i));
        if (!ids[i]) {
            PyMem_Free(ids);
            return NULL;
        }
    }
    dlti_context *ctx = dlti_context_new();
    if (!ctx) {
        PyMem_Free(ids);
        return PyErr_NoMemory();
    }
    warning_list w = {0};
    sysdesc_probe_options popts;
    probe_options(&popts, &a, &w);
    if (!n) /* the CPU by its own kernels: no runtime to ask */
        popts.runtimes = SYSDESC_RUNTIME_NONE;
    sysdesc_measure_options mo;
    sysdesc_measure_options_init(&mo);
    mo.mode = (sysdesc_measure_mode)mode;
    mo.max_threads = max_threads;
    mo.device_timeout_ms = timeout_ms;
    dlti_error_t err;
    size_t failed = 0;
    bool no_cpu = false;
    sysdesc_system sys;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = sysdesc_system_probe(ctx, &popts, &sys, &err);
    no_cpu = rc == 0 && !n && !dlti_attr_lookup_string(sys.spec, "CPU", 3);
    if (rc == 0 && !no_cpu)
        rc = sysdesc_system_measure(ctx, &sys, ids, n, &mo, &failed, &err);
    Py_END_ALLOW_THREADS
    PyMem_Free(ids);
    PyObject *warnings = warnings_take(&w);
    if (rc != 0 || no_cpu || !warnings) {
        dlti_context_free(ctx);
        Py_XDECREF(warnings);
        if (no_cpu)
            return ext_raise_argument("measure: the probe found no CPU device");
        return rc == 0 ? NULL : ext_raise(&err);
    }
    PyObject *s = spec_of(ctx, &sys, "<measured>");
    if (!s) {
        Py_DECREF(warnings);
        return NULL;
    }
    return Py_BuildValue("(NNn)", s, warnings, (Py_ssize_t)failed);
}

/* Adds one item string to the composition, as `sysdesc compose` does. */
static int compose_item(sysdesc_compose *c, PyObject *obj, const sysdesc_yaml_options *o)
{
    PyObject *bytes;
    if (!PyUnicode_FSConverter(obj, &bytes))
        return -1;
    dlti_error_t err;
    int rc = sysdesc_compose_add_item(c, PyBytes_AS_STRING(bytes), o, &err);
    Py_DECREF(bytes);
    if (PyErr_Occurred()) /* a warning the program raises as an exception: it stands */
        return -1;
    if (rc == 0)
        return 0;
    if (!err.source[0]) { /* the item itself, or the composition: as the CLI says it */
        char text[sizeof err.text];
        snprintf(text, sizeof text, "compose: %.1000s", err.text);
        memcpy(err.text, text, sizeof text);
    }
    ext_raise(&err);
    return -1;
}

/* _compose(items, host, io, runtimes, cache, cache_dir, catalog, search_path, check) */
static PyObject *m_compose(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *items;
    int host, check;
    probe_args a;
    if (!PyArg_ParseTuple(args, "O!piIizpzi:_compose", &PyTuple_Type, &items, &host, &a.io,
                          &a.runtimes, &a.cache, &a.cache_dir, &a.catalog, &a.search_path,
                          &check))
        return NULL;
    if (PyTuple_GET_SIZE(items) == 0 && !host)
        return ext_raise_argument("compose: nothing to compose");
    dlti_context *ctx = dlti_context_new();
    sysdesc_compose *c = ctx ? sysdesc_compose_new(ctx) : NULL;
    if (!c) {
        dlti_context_free(ctx);
        return PyErr_NoMemory();
    }
    sysdesc_yaml_options o;
    int raised = 0;
    load_options(&o, check, a.search_path, &raised);
    dlti_error_t err;
    PyObject *warnings = NULL;
    bool ok = true;
    if (host) {
        warning_list w = {0};
        sysdesc_system hs = {0};
        int rc = probe(ctx, &a, &w, &hs, &err);
        /* the host's devices alone, as `sysdesc compose --host` adds them */
        hs.dl_spec = NULL;
        hs.data_layout = NULL;
        warnings = warnings_take(&w);
        ok = warnings && rc == 0 && sysdesc_compose_add(c, &hs, NULL, 0, &err) == 0;
        if (!ok && warnings)
            ext_raise(&err);
    } else {
        warnings = PyList_New(0);
        ok = warnings != NULL;
    }
    for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(items); i++)
        ok = compose_item(c, PyTuple_GET_ITEM(items, i), &o) == 0;
    sysdesc_system result = {0};
    if (ok && sysdesc_compose_finish(c, &result, &err) < 0) {
        ok = false;
        ext_raise(&err);
    }
    sysdesc_compose_free(c);
    if (!ok) {
        dlti_context_free(ctx);
        Py_XDECREF(warnings);
        return NULL;
    }
    PyObject *s = spec_of(ctx, &result, "<composed>");
    if (!s) {
        Py_DECREF(warnings);
        return NULL;
    }
    return Py_BuildValue("(NN)", s, warnings);
}

/* _check_file(path, complete, partial, search_path) -> [problems] */
static PyObject *m_check_file(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *path_obj;
    int complete, partial;
    const char *search_path;
    if (!PyArg_ParseTuple(args, "O&ppz:_check_file", PyUnicode_FSConverter, &path_obj, &complete,
                          &partial, &search_path))
        return NULL;
    dlti_context *ctx = dlti_context_new();
    PyObject *list = ctx ? PyList_New(0) : NULL;
    if (!list) {
        dlti_context_free(ctx);
        Py_DECREF(path_obj);
        return ctx ? NULL : PyErr_NoMemory();
    }
    sysdesc_yaml_options o;
    load_options(&o, 1, search_path, NULL);
    o.warn = NULL; /* the check reports every problem to the list */
    long n = sysdesc_check_file(ctx, PyBytes_AS_STRING(path_obj), &o,
                                ext_check_flags(complete, partial), ext_check_report, list);
    dlti_context_free(ctx);
    Py_DECREF(path_obj);
    return ext_check_list(n, list);
}

static PyObject *m_catalog_path(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    char *p = sysdesc_catalog_path();
    if (!p)
        return PyErr_NoMemory();
    PyObject *r = PyUnicode_DecodeFSDefault(p);
    free(p);
    return r;
}

/* _catalog_list(search_path) -> [(name, path, vendor, model)] */
static PyObject *m_catalog_list(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *search_path;
    if (!PyArg_ParseTuple(args, "z:_catalog_list", &search_path))
        return NULL;
    sysdesc_catalog_entry *e;
    size_t n;
    dlti_error_t err;
    if (sysdesc_catalog_list(search_path, &e, &n, &err) < 0)
        return ext_raise(&err);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *t = Py_BuildValue("(ssss)", e[i].name, e[i].path, e[i].vendor, e[i].model);
        if (!t)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, t);
    }
    sysdesc_catalog_list_free(e, n);
    return list;
}

static PyMethodDef module_methods[] = {
    {"_register", m_register, METH_VARARGS, "the Python layer's classes"},
    {"_load", m_load, METH_VARARGS, "_load(path, check, search_path)"},
    {"_parse", m_parse, METH_VARARGS, "_parse(text, source, check, search_path)"},
    {"_host", m_host, METH_VARARGS,
     "_host(io, runtimes, cache, cache_dir, catalog, search_path) -> (spec, warnings)"},
    {"_compose", m_compose, METH_VARARGS, "_compose(items, host, ...probe..., check)"},
    {"_measure", m_measure, METH_VARARGS,
     "_measure(devices, mode, max_threads, device_timeout_ms, ...probe...) -> "
     "(spec, warnings, failed)"},
    {"_check_file", m_check_file, METH_VARARGS, "_check_file(path, complete, partial, search_path)"},
    {"catalog_path", m_catalog_path, METH_NOARGS,
     "catalog_path($module, /)\n--\n\nThe library's default catalog search path (':'-separated)."},
    {"_catalog_list", m_catalog_list, METH_VARARGS, "_catalog_list(search_path)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sysdesc._sysdesc",
    .m_doc = "The C half of the sysdesc module (use `import sysdesc`).",
    .m_size = -1,
    .m_methods = module_methods,
};

/* RUNTIME_<WORD> for every word of the runtimes option, and RUNTIMES,
 * word -> bit: from the library's table of runtime sources, so that a
 * runtime added there is here too. */
static int add_runtimes(PyObject *m)
{
    PyObject *all = PyDict_New();
    if (!all)
        return -1;
    unsigned bit;
    const char *w;
    for (size_t i = 0; (w = sysdesc_probe_runtime_name(i, &bit)) != NULL; i++) {
        char name[64] = "RUNTIME_";
        size_t n = strlen(name);
        for (const char *p = w; *p && n + 1 < sizeof(name); p++)
            name[n++] = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
        name[n] = '\0';
        PyObject *v = PyLong_FromUnsignedLong(bit);
        int rc = v ? PyDict_SetItemString(all, w, v) : -1;
        Py_XDECREF(v);
        if (rc < 0 || PyModule_AddIntConstant(m, name, (long)bit) < 0) {
            Py_DECREF(all);
            return -1;
        }
    }
    int rc = PyModule_AddObjectRef(m, "RUNTIMES", all);
    Py_DECREF(all);
    return rc;
}

PyMODINIT_FUNC PyInit__sysdesc(void)
{
    PyTypeObject *types[] = {&SystemType, &NodeType, &PathType, &LayoutType, &KeyIterType};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (PyType_Ready(types[i]) < 0)
            return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    if (PyModule_AddObjectRef(m, "System", (PyObject *)&SystemType) < 0 ||
        PyModule_AddObjectRef(m, "Node", (PyObject *)&NodeType) < 0 ||
        PyModule_AddObjectRef(m, "Path", (PyObject *)&PathType) < 0 ||
        PyModule_AddObjectRef(m, "Layout", (PyObject *)&LayoutType) < 0 ||
        PyModule_AddStringConstant(m, "version", sysdesc_version_string()) < 0 ||
        add_runtimes(m) < 0 ||
        PyModule_AddIntConstant(m, "RUNTIME_NONE", (long)SYSDESC_RUNTIME_NONE) < 0 ||
        PyModule_AddIntConstant(m, "CACHE_AUTO", SYSDESC_PROBE_CACHE_AUTO) < 0 ||
        PyModule_AddIntConstant(m, "CACHE_OFF", SYSDESC_PROBE_CACHE_OFF) < 0 ||
        PyModule_AddIntConstant(m, "CACHE_REFRESH", SYSDESC_PROBE_CACHE_REFRESH) < 0 ||
        PyModule_AddIntConstant(m, "MEASURE_DEFAULT", SYSDESC_MEASURE_DEFAULT) < 0 ||
        PyModule_AddIntConstant(m, "MEASURE_QUICK", SYSDESC_MEASURE_QUICK) < 0 ||
        PyModule_AddIntConstant(m, "MEASURE_FULL", SYSDESC_MEASURE_FULL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    /* host() probes this machine with PCI discovery when asked: hwloc need
     * not load its other plugins at every probe (about 50 ms of an
     * uncached host() here, against 10).  At import, before the program's
     * threads use the environment; a value already set is kept. */
    sysdesc_probe_setup_process(SYSDESC_PROBE_SETUP_IO);
    return m;
}
