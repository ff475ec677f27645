/* layout.c - Layout: MLIR's DataLayout answers for one scope (sysdesc/layout.h). */
#include "ext.h"

#include <stdlib.h>

typedef struct {
    PyObject_HEAD
    SystemObject *system;
    dlti_layout *layout;
    PyObject *scope; /* str: the scope's path, "" for the top */
} LayoutObject;

PyObject *ext_layout_new(SystemObject *system, const char *scope_path)
{
    dlti_error_t err;
    dlti_layout *l;
    if (system->sys.module) {
        const dlti_scope *scope = dlti_scope_find(system->sys.module, scope_path ? scope_path : "",
                                                  &err);
        l = scope ? dlti_layout_new(scope, &err) : NULL;
    } else if (scope_path && scope_path[0]) {
        return ext_raise_argument("scope needs an MLIR module; %s is one system spec",
                                  PyUnicode_AsUTF8(system->source));
    } else {
        l = dlti_layout_from_spec(system->sys.dl_spec, &err);
    }
    if (!l)
        return ext_raise(&err);
    LayoutObject *o = PyObject_New(LayoutObject, &LayoutType);
    if (!o) {
        dlti_layout_free(l);
        return NULL;
    }
    o->system = (SystemObject *)Py_NewRef((PyObject *)system);
    o->layout = l;
    o->scope = PyUnicode_FromString(scope_path ? scope_path : "");
    if (!o->scope) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject *)o;
}

static void layout_dealloc(LayoutObject *self)
{
    dlti_layout_free(self->layout); /* before the context it points into */
    Py_CLEAR(self->scope);
    Py_CLEAR(self->system);
    PyObject_Free(self);
}

/* The type named by `arg` (MLIR syntax), parsed into the system's context
 * (a write: the GIL serialises it). */
static const dlti_type *type_arg(LayoutObject *self, PyObject *arg)
{
    Py_ssize_t len;
    const char *s = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, &len) : NULL;
    if (!s) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a type is given as MLIR text: \"i64\", \"vector<4xf32>\"");
        return NULL;
    }
    dlti_error_t err;
    const dlti_type *t = dlti_type_parse(self->system->ctx, s, (size_t)len, &err);
    if (!t)
        ext_raise(&err);
    return t;
}

typedef int (*layout_fn)(const dlti_layout *, const dlti_type *, uint64_t *, dlti_error_t *);

static PyObject *one(LayoutObject *self, PyObject *arg, layout_fn fn, bool none_for_zero)
{
    const dlti_type *t = type_arg(self, arg);
    if (!t)
        return NULL;
    uint64_t v;
    dlti_error_t err;
    if (fn(self->layout, t, &v, &err) < 0)
        return ext_raise(&err);
    if (none_for_zero && v == 0)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(v);
}

static PyObject *l_size(LayoutObject *s, PyObject *a) { return one(s, a, dlti_layout_type_size, false); }
static PyObject *l_bits(LayoutObject *s, PyObject *a) { return one(s, a, dlti_layout_type_bitsize, false); }
static PyObject *l_abi(LayoutObject *s, PyObject *a) { return one(s, a, dlti_layout_abi_alignment, false); }
static PyObject *l_pref(LayoutObject *s, PyObject *a) { return one(s, a, dlti_layout_preferred_alignment, false); }
static PyObject *l_index(LayoutObject *s, PyObject *a) { return one(s, a, dlti_layout_index_bitwidth, true); }

/* The property's value as a Python value (sysdesc's value mapping: "little",
 * 128, a tuple for array<i32>, an MlirAttr for the function pointer
 * alignment): mlir-opt-22's printed answer read back, so that a default
 * answers as a set entry does. */
static PyObject *prop_value(LayoutObject *self, dlti_layout_prop p)
{
    dlti_error_t err;
    char *text = dlti_layout_prop_print(self->layout, p, &err);
    if (!text)
        return ext_raise(&err);
    const dlti_attr *a = dlti_attr_parse(self->system->ctx, text, strlen(text), NULL, &err);
    free(text);
    return a ? ext_value(self->system, a) : ext_raise(&err);
}

/* property(name): the scope-wide property, as mlir-opt-22's test pass answers it. */
static PyObject *l_property(LayoutObject *self, PyObject *arg)
{
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (!name) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a property name is a str");
        return NULL;
    }
    for (int p = 0; p < DLTI_LAYOUT_NUM_PROPS; p++) {
        if (strcmp(dlti_layout_prop_name((dlti_layout_prop)p), name) == 0)
            return prop_value(self, (dlti_layout_prop)p);
    }
    PyObject *names = PyList_New(0);
    for (int p = 0; names && p < DLTI_LAYOUT_NUM_PROPS; p++) {
        PyObject *n = PyUnicode_FromString(dlti_layout_prop_name((dlti_layout_prop)p));
        if (!n || PyList_Append(names, n) < 0)
            Py_CLEAR(names);
        Py_XDECREF(n);
    }
    if (names) {
        PyErr_Format(PyExc_KeyError, "no layout property %R (there are %R)", arg, names);
        Py_DECREF(names);
    }
    return NULL;
}

/* <sysdesc.Layout of SOURCE[, scope S]: the properties its entries set> */
static PyObject *layout_repr(LayoutObject *self)
{
    PyObject *parts = PyList_New(0);
    for (int p = 0; parts && p < DLTI_LAYOUT_NUM_PROPS; p++) {
        if (!dlti_layout_prop_value(self->layout, (dlti_layout_prop)p))
            continue;
        dlti_error_t err;
        char *text = dlti_layout_prop_print(self->layout, (dlti_layout_prop)p, &err);
        PyObject *part = text ? PyUnicode_FromFormat("%s = %s",
                                                     dlti_layout_prop_name((dlti_layout_prop)p), text)
                              : ext_raise(&err);
        free(text);
        if (!part || PyList_Append(parts, part) < 0)
            Py_CLEAR(parts);
        Py_XDECREF(part);
    }
    if (!parts)
        return NULL;
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *props = sep ? PyUnicode_Join(sep, parts) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(parts);
    if (!props)
        return NULL;
    PyObject *r = PyUnicode_FromFormat(
        "<sysdesc.Layout of %R%s%V: %V>", self->system->source,
        PyUnicode_GET_LENGTH(self->scope) ? ", scope " : "",
        PyUnicode_GET_LENGTH(self->scope) ? self->scope : NULL, "",
        PyUnicode_GET_LENGTH(props) ? props : NULL, "MLIR's defaults");
    Py_DECREF(props);
    return r;
}

static PyObject *l_big_endian(LayoutObject *self, void *unused)
{
    (void)unused;
    return PyBool_FromLong(dlti_layout_is_big_endian(self->layout));
}

static PyMethodDef layout_methods[] = {
    {"size", (PyCFunction)l_size, METH_O, "size($self, type, /)\n--\n\nSize in bytes (ceil(bits / 8))."},
    {"size_in_bits", (PyCFunction)l_bits, METH_O, "size_in_bits($self, type, /)\n--\n\nSize in bits."},
    {"abi_alignment", (PyCFunction)l_abi, METH_O, "abi_alignment($self, type, /)\n--\n\nABI alignment in bytes."},
    {"preferred_alignment", (PyCFunction)l_pref, METH_O,
     "preferred_alignment($self, type, /)\n--\n\nPreferred alignment in bytes."},
    {"index_bitwidth", (PyCFunction)l_index, METH_O,
     "index_bitwidth($self, type, /)\n--\n\nIndex width in bits of index and pointer types; None for others."},
    {"property", (PyCFunction)l_property, METH_O,
     "property($self, name, /)\n--\n\nA scope-wide property ('endianness', 'stack_alignment', ...) as a\n"
     "Python value: the answer `sysdesc layout` and mlir-opt-22 print ('little', 128, ...)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef layout_getset[] = {
    {"big_endian", (getter)l_big_endian, NULL, "True when dlti.endianness is \"big\".", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject LayoutType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sysdesc.Layout",
    .tp_doc = "The data layout of one scope, as mlir::DataLayout answers (spec.layout()).\n"
              "Types are MLIR text: \"i64\", \"f32\", \"vector<4xf32>\", \"index\", \"!llvm.ptr<1>\".",
    .tp_basicsize = sizeof(LayoutObject),
    .tp_dealloc = (destructor)layout_dealloc,
    .tp_repr = (reprfunc)layout_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = layout_methods,
    .tp_getset = layout_getset,
};
