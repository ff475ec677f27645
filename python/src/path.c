/* path.c - Path: a key path resolved once against one spec, queried many
 * times (the autotuner's hot loop: no key hashing, no string handling). */
#include "ext.h"

typedef struct {
    PyObject_HEAD
    NodeObject *node;    /* where the query starts (its scope, if any) */
    PyObject *keyobjs;   /* tuple of the keys as given, for messages */
    Py_ssize_t n;
    bool missing;        /* a key the context never saw: the path cannot match */
    dlti_key keys[];
} PathObject;

PyObject *ext_path_new(NodeObject *node, PyObject *keys)
{
    Py_ssize_t n = PyTuple_GET_SIZE(keys);
    if (n == 0)
        return ext_raise_argument("a path needs at least one key");
    PathObject *p = PyObject_NewVar(PathObject, &PathType, n);
    if (!p)
        return NULL;
    p->node = (NodeObject *)Py_NewRef((PyObject *)node);
    p->keyobjs = Py_NewRef(keys);
    p->n = n;
    p->missing = false;
    for (Py_ssize_t i = 0; i < n; i++) {
        int r = ext_key_find(node->system, PyTuple_GET_ITEM(keys, i), &p->keys[i]);
        if (r < 0) {
            Py_DECREF(p);
            return NULL;
        }
        if (r == 0)
            p->missing = true;
    }
    return (PyObject *)p;
}

static void path_dealloc(PathObject *self)
{
    Py_CLEAR(self->node);
    Py_CLEAR(self->keyobjs);
    PyObject_Free(self);
}

/* The value, or NULL with nothing raised when absent. */
static const dlti_attr *path_lookup(PathObject *self, dlti_error_t *err)
{
    if (self->missing)
        return NULL;
    NodeObject *node = self->node;
    return node->scope ? dlti_query(node->scope, self->keys, (size_t)self->n, err)
                       : dlti_attr_query(node->attr, self->keys, (size_t)self->n, err);
}

static PyObject *path_call(PathObject *self, PyObject *args, PyObject *kwargs)
{
    if ((args && PyTuple_GET_SIZE(args)) || (kwargs && PyDict_GET_SIZE(kwargs))) {
        PyErr_SetString(PyExc_TypeError, "a Path is called without arguments");
        return NULL;
    }
    dlti_error_t err;
    const dlti_attr *v = path_lookup(self, &err);
    if (v)
        return ext_value(self->node->system, v);
    /* The slow path builds the message (and interns the keys it lacks). */
    PyObject *m = PyObject_GetAttrString((PyObject *)self->node, "query");
    if (!m)
        return NULL;
    PyObject *r = PyObject_Call(m, self->keyobjs, NULL);
    Py_DECREF(m);
    return r;
}

static PyObject *path_get(PathObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "get() takes an optional default");
        return NULL;
    }
    dlti_error_t err;
    const dlti_attr *v = path_lookup(self, &err);
    if (v)
        return ext_value(self->node->system, v);
    return Py_NewRef(nargs ? args[0] : Py_None);
}

static PyObject *path_keys(PathObject *self, void *unused)
{
    (void)unused;
    return Py_NewRef(self->keyobjs);
}

static PyObject *path_repr(PathObject *self)
{
    return PyUnicode_FromFormat("sysdesc.Path%R", self->keyobjs);
}

static PyMethodDef path_methods[] = {
    {"get", (PyCFunction)(void (*)(void))path_get, METH_FASTCALL,
     "get($self, default=None, /)\n--\n\nThe value, or `default` when the path is not there."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef path_getset[] = {
    {"keys", (getter)path_keys, NULL, "The keys, as given.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PathType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sysdesc.Path",
    .tp_doc = "A key path resolved once against one spec (spec.path(\"CPU\", \"cache\", ...)).\n"
              "path() answers the query as spec.query(*keys) does, without resolving the\n"
              "keys again; path.get(default) returns `default` instead of raising.",
    .tp_basicsize = sizeof(PathObject),
    .tp_itemsize = sizeof(dlti_key),
    .tp_dealloc = (destructor)path_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_call = (ternaryfunc)path_call,
    .tp_repr = (reprfunc)path_repr,
    .tp_methods = path_methods,
    .tp_getset = path_getset,
};
