/* values.c - DLTI attributes -> plain Python values (docs/python.md, "Values"). */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

ext_registry ext_reg;

/* An instance of str subclass `cls` (MlirType, MlirAttr) holding `s`. */
static PyObject *str_of(PyObject *cls, const char *s, size_t len)
{
    PyObject *text = PyUnicode_DecodeUTF8(s, (Py_ssize_t)len, "surrogateescape");
    if (!text || !cls)
        return text;
    PyObject *r = PyObject_CallOneArg(cls, text);
    Py_DECREF(text);
    return r;
}

/* The attribute as MLIR prints it, as an instance of `cls` (or str). */
static PyObject *mlir_text(PyObject *cls, const dlti_attr *a)
{
    size_t len;
    char *text = dlti_attr_print(a, &len);
    if (!text)
        return PyErr_NoMemory();
    PyObject *r = str_of(cls, text, len);
    free(text);
    return r;
}

/* An integer of any width: int64/uint64 when it fits, else its printed
 * digits (MLIR keeps every digit of an i128). */
static PyObject *integer(const dlti_attr *a)
{
    int64_t v;
    if (dlti_attr_get_int64(a, &v, NULL) == 0)
        return PyLong_FromLongLong(v);
    uint64_t u;
    if (dlti_attr_get_uint64(a, &u, NULL) == 0)
        return PyLong_FromUnsignedLongLong(u);
    size_t len;
    char *text = dlti_attr_print(a, &len);
    if (!text)
        return PyErr_NoMemory();
    char *colon = strstr(text, " : ");
    if (colon)
        *colon = '\0';
    PyObject *r = PyLong_FromString(text, NULL, 10);
    free(text);
    return r;
}

/* The elements of a dense array or dense elements attribute: a tuple of
 * ints; or, for float elements (no typed accessor), numbers read from the
 * printed text; NULL with no exception when neither works. */
static PyObject *dense_numbers(const dlti_attr *a)
{
    size_t n = dlti_attr_size(a);
    PyObject *t = PyTuple_New((Py_ssize_t)n);
    if (!t)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        int64_t v;
        if (dlti_attr_dense_int64(a, i, &v, NULL) < 0) {
            Py_DECREF(t);
            return NULL;
        }
        PyObject *o = PyLong_FromLongLong(v);
        if (!o) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)i, o);
    }
    return t;
}

/* array<f32: 1.5, 2.0>: its elements as floats (by value, not through the
 * printed text: no strtod, whose radix is the process's locale's). */
static PyObject *dense_float_array(const dlti_attr *a)
{
    size_t n = dlti_attr_size(a);
    PyObject *t = PyTuple_New((Py_ssize_t)n);
    if (!t)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        double d;
        dlti_error_t err;
        if (dlti_attr_dense_double(a, i, &d, &err) < 0) {
            Py_DECREF(t);
            PyErr_SetString(PyExc_ValueError, err.text);
            return NULL;
        }
        PyObject *o = PyFloat_FromDouble(d);
        if (!o) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)i, o);
    }
    return t;
}

PyObject *ext_key_object(dlti_key key)
{
    size_t len;
    const char *s = dlti_key_str(key, &len);
    if (s)
        return PyUnicode_DecodeUTF8(s, (Py_ssize_t)len, "surrogateescape");
    const char *t = dlti_type_str(dlti_key_get_type(key));
    return str_of(ext_reg.mlir_type, t, strlen(t));
}

PyObject *ext_value(SystemObject *system, const dlti_attr *a)
{
    switch (dlti_attr_get_kind(a)) {
    case DLTI_ATTR_INTEGER:
        return integer(a);
    case DLTI_ATTR_FLOAT: {
        double d;
        if (dlti_attr_get_double(a, &d, NULL) == 0)
            return PyFloat_FromDouble(d);
        return mlir_text(ext_reg.mlir_attr, a);
    }
    case DLTI_ATTR_BOOL: {
        bool b = false;
        dlti_attr_get_bool(a, &b, NULL);
        return PyBool_FromLong(b);
    }
    case DLTI_ATTR_STRING: {
        const char *s;
        size_t len;
        dlti_attr_get_string(a, &s, &len, NULL);
        return PyUnicode_DecodeUTF8(s, (Py_ssize_t)len, "surrogateescape");
    }
    case DLTI_ATTR_UNIT:
        return Py_NewRef(ext_reg.unit ? ext_reg.unit : Py_None);
    case DLTI_ATTR_TYPE: {
        const char *t = dlti_type_str(dlti_attr_type(a));
        return str_of(ext_reg.mlir_type, t, strlen(t));
    }
    case DLTI_ATTR_ARRAY: {
        size_t n = dlti_attr_size(a);
        PyObject *list = PyList_New((Py_ssize_t)n);
        for (size_t i = 0; list && i < n; i++) {
            PyObject *o = ext_value(system, dlti_attr_element(a, i));
            if (!o)
                Py_CLEAR(list);
            else
                PyList_SET_ITEM(list, (Py_ssize_t)i, o);
        }
        return list;
    }
    case DLTI_ATTR_DENSE_ARRAY:
    case DLTI_ATTR_DENSE: {
        PyObject *t = dense_numbers(a);
        if (t || PyErr_Occurred())
            return t;
        const dlti_type *et = dlti_attr_type(a);
        if (dlti_attr_get_kind(a) == DLTI_ATTR_DENSE_ARRAY && et &&
            dlti_type_get_kind(et) == DLTI_TYPE_FLOAT && (t = dense_float_array(a)))
            return t;
        if (PyErr_Occurred())
            return NULL;
        return mlir_text(ext_reg.mlir_attr, a);
    }
    case DLTI_ATTR_DICTIONARY: {
        PyObject *d = PyDict_New();
        for (size_t i = 0; d && i < dlti_attr_size(a); i++) {
            PyObject *k = ext_key_object(dlti_attr_entry_key(a, i));
            PyObject *v = k ? ext_value(system, dlti_attr_entry_value(a, i)) : NULL;
            if (!v || PyDict_SetItem(d, k, v) < 0)
                Py_CLEAR(d);
            Py_XDECREF(k);
            Py_XDECREF(v);
        }
        return d;
    }
    case DLTI_ATTR_MAP:
    case DLTI_ATTR_DL_SPEC:
    case DLTI_ATTR_DEVICE_SPEC:
    case DLTI_ATTR_SYSTEM_SPEC:
        return ext_node_new(system, a, NULL, ext_reg.map_class);
    case DLTI_ATTR_OPAQUE:
    case DLTI_ATTR_ENTRY:
        break;
    }
    return mlir_text(ext_reg.mlir_attr, a);
}
