/* system.c - System: owns the dlti_context of one loaded, parsed, probed or
 * composed description; prints it and checks it. */
#include "ext.h"

#include <stdio.h>
#include <stdlib.h>

SystemObject *ext_system_new(dlti_context *ctx, const sysdesc_system *sys, const char *source)
{
    SystemObject *s = PyObject_New(SystemObject, &SystemType);
    if (!s) {
        dlti_context_free(ctx);
        return NULL;
    }
    s->ctx = ctx;
    s->sys = *sys;
    s->source = PyUnicode_DecodeUTF8(source, (Py_ssize_t)strlen(source), "surrogateescape");
    if (!s->source) {
        Py_DECREF(s);
        return NULL;
    }
    return s;
}

PyObject *ext_raise_no_spec(SystemObject *self)
{
    dlti_error_t err = {.code = DLTI_ERROR_NOT_FOUND};
    const char *source = PyUnicode_AsUTF8(self->source);
    snprintf(err.source, sizeof err.source, "%s", source ? source : "");
    snprintf(err.text, sizeof err.text, "no #dlti.target_system_spec on the top module");
    return ext_raise(&err);
}

static void system_dealloc(SystemObject *self)
{
    Py_CLEAR(self->source);
    dlti_context_free(self->ctx);
    PyObject_Free(self);
}

/* print(format, typed=False): sysdesc_system_print, the CLI's bytes. */
static PyObject *system_print(SystemObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"format", "typed", NULL};
    const char *name;
    int typed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|p:print", kwlist, &name, &typed))
        return NULL;
    sysdesc_format format;
    if (sysdesc_format_parse(name, &format) < 0)
        return ext_raise_argument("unknown format '%s' (%s)", name, sysdesc_format_names());
    if (!self->sys.spec)
        return ext_raise_no_spec(self);
    size_t len;
    char *text = sysdesc_system_print(&self->sys, format, typed ? SYSDESC_PRINT_TYPED : 0, &len);
    if (!text)
        return PyErr_NoMemory();
    PyObject *r = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "surrogateescape");
    free(text);
    return r;
}

/* Problems -> a list of (formatted, message, file, line, column). */
static int collect_problem(void *user, const dlti_error_t *problem)
{
    char line[DLTI_ERROR_TEXT_LENGTH + DLTI_ERROR_SOURCE_LENGTH + 64];
    dlti_error_format(problem, line, sizeof line);
    PyObject *t = Py_BuildValue("(s#s#zii)", line, (Py_ssize_t)strlen(line), problem->text,
                                (Py_ssize_t)strlen(problem->text),
                                problem->source[0] ? problem->source : NULL, problem->line,
                                problem->column);
    if (!t || PyList_Append((PyObject *)user, t) < 0) {
        Py_XDECREF(t);
        return 1; /* stop: the exception is set */
    }
    Py_DECREF(t);
    return 0;
}

unsigned ext_check_flags(int complete, int partial)
{
    return (complete ? SYSDESC_CHECK_COMPLETE : 0u) | (partial ? SYSDESC_CHECK_PARTIAL : 0u);
}

PyObject *ext_check_list(long n, PyObject *list)
{
    if (PyErr_Occurred()) {
        Py_DECREF(list);
        return NULL;
    }
    if (n < 0) {
        Py_DECREF(list);
        return PyErr_NoMemory();
    }
    return list;
}

int ext_check_report(void *user, const dlti_error_t *problem)
{
    return collect_problem(user, problem);
}

/* check(complete=False, partial=False): every problem of the loaded system. */
static PyObject *system_check(SystemObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"complete", "partial", NULL};
    int complete = 0, partial = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|pp:check", kwlist, &complete, &partial))
        return NULL;
    PyObject *list = PyList_New(0);
    if (!list || !self->sys.spec) /* a module with no system spec: nothing to check */
        return list;
    long n = sysdesc_system_check(&self->sys, ext_check_flags(complete, partial),
                                  PyUnicode_AsUTF8(self->source), collect_problem, list);
    return ext_check_list(n, list);
}

static PyObject *system_layout(SystemObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"scope", NULL};
    const char *scope = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|z:layout", kwlist, &scope))
        return NULL;
    return ext_layout_new(self, scope);
}

/* export(device, tuner): sysdesc_tuner_export's JSON text, as `sysdesc export` prints it. */
static PyObject *system_export(SystemObject *self, PyObject *args)
{
    const char *device, *name;
    if (!PyArg_ParseTuple(args, "ss:export", &device, &name))
        return NULL;
    sysdesc_tuner tuner;
    if (sysdesc_tuner_parse(name, &tuner) < 0)
        return ext_raise_argument("unknown tuner '%s' (%s)", name, sysdesc_tuner_names());
    if (!self->sys.spec)
        return ext_raise_no_spec(self);
    dlti_error_t err;
    size_t len;
    char *text = sysdesc_tuner_export(self->sys.spec, device, tuner, &len, &err);
    if (!text)
        return ext_raise(&err);
    PyObject *r = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "surrogateescape");
    free(text);
    return r;
}

/* fingerprint(device=None, explain=False): sysdesc_fingerprint, or with
 * explain what `sysdesc fingerprint --explain` prints. */
static PyObject *system_fingerprint(SystemObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"device", "explain", NULL};
    const char *device = NULL;
    int explain = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|zp:fingerprint", kwlist, &device, &explain))
        return NULL;
    if (!self->sys.spec)
        return ext_raise_no_spec(self);
    dlti_error_t err;
    if (!explain) {
        char fp[SYSDESC_FINGERPRINT_LENGTH + 1];
        if (sysdesc_fingerprint(self->sys.spec, device, fp, &err) < 0)
            return ext_raise(&err);
        return PyUnicode_FromString(fp);
    }
    size_t len;
    char *text = sysdesc_fingerprint_text(self->sys.spec, device, SYSDESC_FINGERPRINT_EXPLAIN,
                                          &len, &err);
    if (!text)
        return ext_raise(&err);
    PyObject *r = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "surrogateescape");
    free(text);
    return r;
}

/* occupancy(device, threads, registers, shared, carveout=None, subgroup=0):
 * sysdesc_occupancy_json's text, as `sysdesc occupancy --json` prints it. */
static PyObject *system_occupancy(SystemObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"device", "threads", "registers", "shared", "carveout", "subgroup",
                             NULL};
    const char *device;
    long long threads, registers, shared, subgroup = 0;
    PyObject *carveout = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sLLL|OL:occupancy", kwlist, &device, &threads,
                                     &registers, &shared, &carveout, &subgroup))
        return NULL;
    if (!self->sys.spec)
        return ext_raise_no_spec(self);
    sysdesc_occupancy_request req = sysdesc_occupancy_request_make(threads, registers, shared);
    req.subgroup_size = subgroup;
    if (carveout != Py_None) {
        req.carveout_percent = PyLong_AsLongLong(carveout);
        if (req.carveout_percent == -1 && PyErr_Occurred())
            return NULL;
        if (req.carveout_percent < 0)
            return ext_raise_argument("carveout must be 0..100 percent, not %lld",
                                      (long long)req.carveout_percent);
    }
    dlti_error_t err;
    const dlti_attr *dev = dlti_attr_lookup_string(self->sys.spec, device, strlen(device));
    if (!dev) {
        err.code = DLTI_ERROR_NOT_FOUND;
        err.line = err.column = 0;
        err.position = 0;
        err.source[0] = '\0';
        snprintf(err.text, sizeof err.text, "no device '%s' in the system", device);
        return ext_raise(&err);
    }
    size_t len;
    char *text = sysdesc_occupancy_json(dev, device, &req, &len, &err);
    if (!text)
        return ext_raise(&err);
    PyObject *r = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "surrogateescape");
    free(text);
    return r;
}

static PyObject *system_data_layout(SystemObject *self, void *unused)
{
    (void)unused;
    if (!self->sys.data_layout)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(self->sys.data_layout, (Py_ssize_t)strlen(self->sys.data_layout),
                                "surrogateescape");
}

static PyObject *system_source(SystemObject *self, void *unused)
{
    (void)unused;
    return Py_NewRef(self->source);
}

static PyObject *system_is_module(SystemObject *self, void *unused)
{
    (void)unused;
    return PyBool_FromLong(self->sys.module != NULL);
}

static PyMethodDef system_methods[] = {
    {"print", (PyCFunction)(void (*)(void))system_print, METH_VARARGS | METH_KEYWORDS,
     "print($self, /, format, typed=False)\n--\n\nThe system as `sysdesc convert --to FORMAT` prints it."},
    {"check", (PyCFunction)(void (*)(void))system_check, METH_VARARGS | METH_KEYWORDS,
     "check($self, /, complete=False, partial=False)\n--\n\nEvery problem the device schema finds."},
    {"export", (PyCFunction)system_export, METH_VARARGS,
     "export($self, device, tuner, /)\n--\n\nThe JSON `sysdesc export --to TUNER SPEC DEVICE` prints."},
    {"fingerprint", (PyCFunction)(void (*)(void))system_fingerprint, METH_VARARGS | METH_KEYWORDS,
     "fingerprint($self, /, device=None, explain=False)\n--\n\n`sysdesc fingerprint`'s key, "
     "or with explain the text it hashes."},
    {"occupancy", (PyCFunction)(void (*)(void))system_occupancy, METH_VARARGS | METH_KEYWORDS,
     "occupancy($self, /, device, threads, registers, shared, carveout=None, subgroup=0)\n--\n\n"
     "The JSON `sysdesc occupancy --json SPEC DEVICE ...` prints."},
    {"layout", (PyCFunction)(void (*)(void))system_layout, METH_VARARGS | METH_KEYWORDS,
     "layout($self, /, scope=None)\n--\n\nThe data layout of the system (or of a nested module)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef system_getset[] = {
    {"data_layout", (getter)system_data_layout, NULL,
     "`data_layout:` as written (an LLVM data layout string or a triple), or None.", NULL},
    {"source", (getter)system_source, NULL, "The file, catalog name or '<host>'.", NULL},
    {"is_module", (getter)system_is_module, NULL, "Whether it came from an MLIR module.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject SystemType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sysdesc._sysdesc.System",
    .tp_doc = "One loaded description and the context that owns its attributes.",
    .tp_basicsize = sizeof(SystemObject),
    .tp_dealloc = (destructor)system_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = system_methods,
    .tp_getset = system_getset,
};
