/* node.c - Node: one queryable attribute as a read-only mapping, in spec order. */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

PyObject *ext_node_new(SystemObject *system, const dlti_attr *attr, const dlti_scope *scope,
                       PyObject *cls)
{
    PyTypeObject *type = cls ? (PyTypeObject *)cls : &NodeType;
    NodeObject *n = (NodeObject *)type->tp_alloc(type, 0);
    if (!n)
        return NULL;
    n->system = (SystemObject *)Py_NewRef((PyObject *)system);
    n->attr = attr;
    n->scope = scope;
    return (PyObject *)n;
}

static void node_dealloc(NodeObject *self)
{
    /* Instances of the Python subclasses (Map, Spec) come here through
     * subtype_dealloc, which releases their heap type itself. */
    Py_CLEAR(self->system);
    Py_CLEAR(self->last_key);
    Py_CLEAR(self->last_value);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static const char *utf8_of(PyObject *s, Py_ssize_t *len, PyObject **holder)
{
    *holder = PyUnicode_AsEncodedString(s, "utf-8", "surrogateescape");
    if (!*holder)
        return NULL;
    *len = PyBytes_GET_SIZE(*holder);
    return PyBytes_AS_STRING(*holder);
}

/* A type key (an MlirType) is parsed and interned: that writes to the
 * context, which the GIL serialises (ext.h). */
static int type_key(SystemObject *system, PyObject *key, dlti_key *out)
{
    PyObject *holder;
    Py_ssize_t len;
    const char *s = utf8_of(key, &len, &holder);
    if (!s)
        return -1;
    dlti_error_t err;
    const dlti_type *t = dlti_type_parse(system->ctx, s, (size_t)len, &err);
    Py_DECREF(holder);
    if (!t) {
        ext_raise(&err);
        return -1;
    }
    *out = dlti_key_type(system->ctx, t);
    if (!*out) {
        PyErr_NoMemory();
        return -1;
    }
    return 1;
}

int ext_key_find(SystemObject *system, PyObject *key, dlti_key *out)
{
    if (!PyUnicode_Check(key)) {
        PyErr_Format(PyExc_TypeError, "a sysdesc key is a str (or sysdesc.MlirType), not %.100s",
                     Py_TYPE(key)->tp_name);
        return -1;
    }
    if (ext_reg.mlir_type && PyObject_TypeCheck(key, (PyTypeObject *)ext_reg.mlir_type))
        return type_key(system, key, out);
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(key, &len);
    if (!s) {
        /* Lone surrogates (bytes that were not UTF-8): the slow way. */
        PyErr_Clear();
        PyObject *holder;
        s = utf8_of(key, &len, &holder);
        if (!s)
            return -1;
        *out = dlti_key_find(system->ctx, s, (size_t)len);
        Py_DECREF(holder);
        return *out != NULL;
    }
    *out = dlti_key_find(system->ctx, s, (size_t)len);
    return *out != NULL;
}

/* Interns `key` (for an error message: a key the context never saw). */
static dlti_key key_intern(SystemObject *system, PyObject *key)
{
    dlti_key k;
    int r = ext_key_find(system, key, &k);
    if (r < 0)
        return NULL;
    if (r == 1)
        return k;
    PyObject *holder;
    Py_ssize_t len;
    const char *s = utf8_of(key, &len, &holder);
    if (!s)
        return NULL;
    k = dlti_key_string(system->ctx, s, (size_t)len);
    Py_DECREF(holder);
    if (!k)
        PyErr_NoMemory();
    return k;
}

/* The exception of a failed query over Python keys `keyobjs` (a tuple). */
static void raise_not_found(NodeObject *node, const dlti_scope *scope, PyObject *keyobjs)
{
    Py_ssize_t n = PyTuple_GET_SIZE(keyobjs);
    dlti_key stack[16], *keys = n <= 16 ? stack : PyMem_Malloc((size_t)n * sizeof(dlti_key));
    if (!keys) {
        PyErr_NoMemory();
        return;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!(keys[i] = key_intern(node->system, PyTuple_GET_ITEM(keyobjs, i))))
            goto out;
    }
    dlti_error_t err;
    const dlti_attr *v = scope ? dlti_query(scope, keys, (size_t)n, &err)
                               : dlti_attr_query(node->attr, keys, (size_t)n, &err);
    if (v) /* cannot happen: the fast path found nothing */
        PyErr_SetString(PyExc_KeyError, "key path vanished");
    else
        ext_raise_query(&err, node->system, scope, node->attr, keys, (size_t)n);
out:
    if (keys != stack)
        PyMem_Free(keys);
}

const dlti_attr *ext_node_query(NodeObject *node, const dlti_key *keys, size_t n,
                                PyObject *keyobjs)
{
    dlti_error_t err;
    const dlti_attr *v = node->scope ? dlti_query(node->scope, keys, n, &err)
                                     : dlti_attr_query(node->attr, keys, n, &err);
    if (!v)
        ext_raise_query(&err, node->system, node->scope, node->attr, keys, n);
    (void)keyobjs;
    return v;
}

/* The UTF-8 bytes of `key` when it is a plain str that has them (CPython
 * keeps them: no copy); NULL, with no exception set, for anything else (a
 * MlirType, lone surrogates, not a str), which the general way handles. */
static const char *str_bytes(PyObject *key, size_t *len)
{
    Py_ssize_t n;
    const char *s = PyUnicode_CheckExact(key) ? PyUnicode_AsUTF8AndSize(key, &n) : NULL;
    if (!s) {
        PyErr_Clear();
        return NULL;
    }
    *len = (size_t)n;
    return s;
}

/* The value of `key` in the node's attribute: *out NULL when it has none.
 * A str by its bytes (one probe, nothing interned); a MlirType, lone
 * surrogates or another type the general way (ext_key_find).  -1 with an
 * exception set on error. */
static int lookup_key(NodeObject *self, PyObject *key, const dlti_attr **out)
{
    size_t len;
    const char *s = str_bytes(key, &len);
    if (s) {
        *out = dlti_attr_lookup_string(self->attr, s, len);
        return 0;
    }
    dlti_key k;
    int r = ext_key_find(self->system, key, &k);
    if (r < 0)
        return -1;
    *out = r ? dlti_attr_lookup(self->attr, k) : NULL;
    return 0;
}

/* Whether node[key] may be given again as the same object: a Node (a
 * read-only view) or an immutable scalar, not a list a caller could change. */
static bool keepable(PyObject *v)
{
    return PyLong_CheckExact(v) || PyFloat_CheckExact(v) || PyUnicode_CheckExact(v) ||
           PyBool_Check(v) || PyObject_TypeCheck(v, &NodeType);
}

static PyObject *node_getitem(NodeObject *self, PyObject *key)
{
    /* A tuner's hot loop asks a node for the same key again
     * (spec["GPU0"]["num_sms"]): the last answer is kept, so that the same
     * str object gives the same value without a lookup or an allocation.
     * A str is immutable, and so is what a node shows. */
    if (key == self->last_key)
        return Py_NewRef(self->last_value);
    const dlti_attr *v;
    if (lookup_key(self, key, &v) < 0)
        return NULL;
    if (v) {
        PyObject *value = ext_value(self->system, v);
        if (value && keepable(value)) {
            /* both set before either old one is released: a finalizer run
             * by the release sees a consistent pair */
            PyObject *old_key = self->last_key, *old_value = self->last_value;
            self->last_key = Py_NewRef(key);
            self->last_value = Py_NewRef(value);
            Py_XDECREF(old_key);
            Py_XDECREF(old_value);
        }
        return value;
    }
    PyObject *keys = PyTuple_Pack(1, key);
    if (keys) {
        raise_not_found(self, NULL, keys);
        Py_DECREF(keys);
    }
    return NULL;
}

static Py_ssize_t node_length(NodeObject *self)
{
    return (Py_ssize_t)dlti_attr_size(self->attr);
}

static int node_contains(NodeObject *self, PyObject *key)
{
    if (!PyUnicode_Check(key))
        return 0;
    const dlti_attr *v;
    if (lookup_key(self, key, &v) < 0)
        return -1;
    return v != NULL;
}

/* get(key, default=None): no exception, nothing interned. */
static PyObject *node_get(NodeObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "get() takes a key and an optional default");
        return NULL;
    }
    PyObject *dflt = nargs == 2 ? args[1] : Py_None;
    if (!PyUnicode_Check(args[0]))
        return Py_NewRef(dflt);
    const dlti_attr *v;
    if (lookup_key(self, args[0], &v) < 0)
        return NULL;
    return v ? ext_value(self->system, v) : Py_NewRef(dflt);
}

/* The keys of a query call: every positional argument, each a key. */
static dlti_key *resolve_keys(NodeObject *self, PyObject *args, dlti_key *stack, bool *missing)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    dlti_key *keys = n <= 16 ? stack : PyMem_Malloc((size_t)n * sizeof(dlti_key));
    if (!keys) {
        PyErr_NoMemory();
        return NULL;
    }
    *missing = false;
    for (Py_ssize_t i = 0; i < n; i++) {
        int r = ext_key_find(self->system, PyTuple_GET_ITEM(args, i), &keys[i]);
        if (r < 0) {
            if (keys != stack)
                PyMem_Free(keys);
            return NULL;
        }
        if (r == 0)
            *missing = true;
    }
    return keys;
}

/* The scope a query runs in: the node's own, or `path` below it. */
static int pick_scope(NodeObject *self, PyObject *scope_arg, const dlti_scope **scope)
{
    *scope = self->scope;
    if (!scope_arg || scope_arg == Py_None)
        return 0;
    if (!PyUnicode_Check(scope_arg)) {
        PyErr_SetString(PyExc_TypeError, "scope must be a str (\"outer/inner\") or None");
        return -1;
    }
    if (!self->scope) {
        ext_raise_argument("scope needs an MLIR module; %s is one system spec",
                           PyUnicode_AsUTF8(self->system->source));
        return -1;
    }
    dlti_error_t err;
    *scope = dlti_scope_find(self->scope, PyUnicode_AsUTF8(scope_arg), &err);
    if (!*scope) {
        ext_raise(&err);
        return -1;
    }
    return 0;
}

/* node.query(*keys) on a node without a scope, every key a str: walked by
 * the keys' bytes (dlti_attr_lookup_string: one probe a level, nothing
 * interned).  NULL without an exception when that way does not answer (a
 * type key, lone surrogates, a key not found): the general way then
 * answers, or raises MLIR's error. */
static const dlti_attr *query_by_bytes(NodeObject *self, PyObject *args)
{
    const dlti_attr *cur = self->attr;
    for (Py_ssize_t i = 0, n = PyTuple_GET_SIZE(args); i < n && cur; i++) {
        size_t len;
        const char *s = str_bytes(PyTuple_GET_ITEM(args, i), &len);
        if (!s)
            return NULL;
        cur = dlti_attr_lookup_string(cur, s, len);
    }
    return cur;
}

static PyObject *node_query_impl(NodeObject *self, PyObject *args, PyObject *kwargs, bool raw)
{
    static char *kwlist[] = {"scope", NULL};
    PyObject *scope_arg = NULL;
    if (kwargs && PyDict_GET_SIZE(kwargs)) { /* parsed only when given: most calls give none */
        PyObject *empty = PyTuple_New(0);
        if (!empty ||
            !PyArg_ParseTupleAndKeywords(empty, kwargs, "|O:query", kwlist, &scope_arg)) {
            Py_XDECREF(empty);
            return NULL;
        }
        Py_DECREF(empty);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n == 0)
        return ext_raise_argument("query needs at least one key");
    const dlti_scope *scope;
    if (pick_scope(self, scope_arg, &scope) < 0)
        return NULL;
    const dlti_attr *found = scope ? NULL : query_by_bytes(self, args);
    if (found)
        return raw ? ext_node_new(self->system, found, NULL, NULL) : ext_value(self->system, found);
    dlti_key stack[16];
    bool missing;
    dlti_key *keys = resolve_keys(self, args, stack, &missing);
    if (!keys)
        return NULL;
    PyObject *r = NULL;
    dlti_error_t err;
    const dlti_attr *v = NULL;
    if (!missing)
        v = scope ? dlti_query(scope, keys, (size_t)n, &err)
                  : dlti_attr_query(self->attr, keys, (size_t)n, &err);
    if (v)
        r = raw ? ext_node_new(self->system, v, NULL, NULL) : ext_value(self->system, v);
    else if (missing)
        raise_not_found(self, scope, args);
    else
        ext_raise_query(&err, self->system, scope, self->attr, keys, (size_t)n);
    if (keys != stack)
        PyMem_Free(keys);
    return r;
}

static PyObject *node_query(NodeObject *self, PyObject *args, PyObject *kwargs)
{
    return node_query_impl(self, args, kwargs, false);
}

/* _query_raw(*keys, scope=None): a bare Node over the value (any kind), for
 * the Python layer's typed access (Attribute). */
static PyObject *node_query_raw(NodeObject *self, PyObject *args, PyObject *kwargs)
{
    return node_query_impl(self, args, kwargs, true);
}

static PyObject *node_path(NodeObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"scope", NULL};
    PyObject *scope_arg = NULL;
    PyObject *empty = PyTuple_New(0);
    if (!empty || !PyArg_ParseTupleAndKeywords(empty, kwargs, "|O:path", kwlist, &scope_arg)) {
        Py_XDECREF(empty);
        return NULL;
    }
    Py_DECREF(empty);
    const dlti_scope *scope;
    if (pick_scope(self, scope_arg, &scope) < 0)
        return NULL;
    NodeObject *at = self;
    PyObject *tmp = NULL;
    if (scope != self->scope) {
        tmp = ext_node_new(self->system, self->attr, scope, NULL);
        if (!tmp)
            return NULL;
        at = (NodeObject *)tmp;
    }
    PyObject *p = ext_path_new(at, args);
    Py_XDECREF(tmp);
    return p;
}

/* _mlir(): the attribute as MLIR prints it. */
static PyObject *node_mlir(NodeObject *self, PyObject *unused)
{
    (void)unused;
    size_t len;
    char *text = dlti_attr_print(self->attr, &len);
    if (!text)
        return PyErr_NoMemory();
    PyObject *r = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "surrogateescape");
    free(text);
    return r;
}

/* _at(path): (kind name, value) of the value at the dotted `path` below
 * this node, by the typed getters' rule (sysdesc/get.h: sysdesc_attr_at),
 * or None when absent.  Spec.get_int() and its siblings check the kind. */
static PyObject *node_at(NodeObject *self, PyObject *path)
{
    if (!PyUnicode_Check(path)) {
        PyErr_SetString(PyExc_TypeError, "a path is a str (\"CPU.cache.L1.size_in_bytes\")");
        return NULL;
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(path, &len);
    if (!s)
        return NULL;
    /* a NUL in the text would end the path early: no key answers it */
    const dlti_attr *v = (size_t)len == strlen(s) ? sysdesc_attr_at(self->attr, s) : NULL;
    if (!v)
        Py_RETURN_NONE;
    PyObject *value = ext_value(self->system, v);
    return value ? Py_BuildValue("(sN)", dlti_attr_kind_name(dlti_attr_get_kind(v)), value)
                 : NULL;
}

/* _info(): (kind name, MLIR type text or None, plain value) of a bare node. */
static PyObject *node_info(NodeObject *self, PyObject *unused)
{
    (void)unused;
    const dlti_type *t = dlti_attr_type(self->attr);
    PyObject *value = ext_value(self->system, self->attr);
    if (!value)
        return NULL;
    PyObject *r = Py_BuildValue("(szN)", dlti_attr_kind_name(dlti_attr_get_kind(self->attr)),
                                t ? dlti_type_str(t) : NULL, value);
    return r;
}

static PyObject *node_kind(NodeObject *self, void *unused)
{
    (void)unused;
    return PyUnicode_FromString(dlti_attr_kind_name(dlti_attr_get_kind(self->attr)));
}

static PyObject *node_system(NodeObject *self, void *unused)
{
    (void)unused;
    return Py_NewRef((PyObject *)self->system);
}

static PyObject *node_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &NodeType))
        Py_RETURN_NOTIMPLEMENTED;
    bool eq = dlti_attr_equal(((NodeObject *)a)->attr, ((NodeObject *)b)->attr);
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

/* ---- key iterator ---- */

typedef struct {
    PyObject_HEAD
    NodeObject *node;
    size_t i;
} KeyIterObject;

static void keyiter_dealloc(KeyIterObject *self)
{
    Py_CLEAR(self->node);
    PyObject_Free(self);
}

static PyObject *keyiter_next(KeyIterObject *self)
{
    if (self->i >= dlti_attr_size(self->node->attr))
        return NULL;
    return ext_key_object(dlti_attr_entry_key(self->node->attr, self->i++));
}

PyTypeObject KeyIterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sysdesc._sysdesc.KeyIterator",
    .tp_basicsize = sizeof(KeyIterObject),
    .tp_dealloc = (destructor)keyiter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)keyiter_next,
};

static PyObject *node_iter(NodeObject *self)
{
    KeyIterObject *it = PyObject_New(KeyIterObject, &KeyIterType);
    if (!it)
        return NULL;
    it->node = (NodeObject *)Py_NewRef((PyObject *)self);
    it->i = 0;
    return (PyObject *)it;
}

static PyMappingMethods node_mapping = {
    .mp_length = (lenfunc)node_length,
    .mp_subscript = (binaryfunc)node_getitem,
};

static PySequenceMethods node_sequence = {
    .sq_contains = (objobjproc)node_contains,
};

static PyMethodDef node_methods[] = {
    {"get", (PyCFunction)(void (*)(void))node_get, METH_FASTCALL,
     "get($self, key, default=None, /)\n--\n\nThe value of `key`, or `default` when it is absent."},
    {"query", (PyCFunction)(void (*)(void))node_query, METH_VARARGS | METH_KEYWORDS,
     "query($self, /, *keys, scope=None)\n--\n\n"
     "The value at a path of keys, with MLIR's query semantics (transform.dlti.query).\n"
     "Raises NotFoundError with MLIR's reason and a hint when the path is not there.\n"
     "`scope` (\"outer/inner\") picks a nested module of an MLIR description."},
    {"_query_raw", (PyCFunction)(void (*)(void))node_query_raw, METH_VARARGS | METH_KEYWORDS,
     "as query(), a bare node over the value (sysdesc.Attribute uses it)"},
    {"path", (PyCFunction)(void (*)(void))node_path, METH_VARARGS | METH_KEYWORDS,
     "path($self, /, *keys, scope=None)\n--\n\n"
     "A Path: the keys resolved once; calling it answers the query again (the fast path)."},
    {"_mlir", (PyCFunction)node_mlir, METH_NOARGS, "the attribute as MLIR prints it"},
    {"_info", (PyCFunction)node_info, METH_NOARGS, "(kind, MLIR type or None, value)"},
    {"_at", (PyCFunction)node_at, METH_O,
     "(kind, value) at a dotted path (the typed getters' rule), or None"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef node_getset[] = {
    {"kind", (getter)node_kind, NULL,
     "The DLTI kind: 'map', 'target_device_spec', 'target_system_spec', 'dl_spec'.", NULL},
    {"system", (getter)node_system, NULL, "The System (loaded description) this belongs to.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject NodeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sysdesc._sysdesc.Node",
    .tp_doc = "A read-only mapping over one DLTI map or spec, in spec order.",
    .tp_basicsize = sizeof(NodeObject),
    .tp_dealloc = (destructor)node_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_MAPPING,
    .tp_as_mapping = &node_mapping,
    .tp_as_sequence = &node_sequence,
    .tp_iter = (getiterfunc)node_iter,
    .tp_richcompare = node_richcompare,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_methods = node_methods,
    .tp_getset = node_getset,
};
