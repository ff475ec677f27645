/*
 * ext.h - the one private header of sysdesc's CPython extension (_sysdesc).
 *
 * The extension is built on the library's public C API only.  Objects:
 *   System  owns a dlti_context and the sysdesc_system loaded into it;
 *           everything else keeps its System alive by a reference.
 *   Node    a read-only mapping over one queryable attribute of a System
 *           (a system spec, a device spec, a #dlti.map); the Python layer
 *           subclasses it (sysdesc.Map, sysdesc.Spec).
 *   Path    a key path resolved once, queried many times.
 *   Layout  a dlti_layout of one scope.
 *
 * Threads: the context is written (types parsed, keys interned) only while
 * the GIL is held, and the GIL is released only around a probe into a
 * context no other object sees yet; reads need no lock of their own.
 */
#ifndef SYSDESC_PY_EXT_H
#define SYSDESC_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "sysdesc/sysdesc.h"

typedef struct {
    PyObject_HEAD
    dlti_context *ctx;
    sysdesc_system sys;
    PyObject *source; /* str: the file, catalog name or "<host>" it came from */
} SystemObject;

typedef struct {
    PyObject_HEAD
    SystemObject *system;   /* strong reference */
    const dlti_attr *attr;  /* a queryable attribute of system->ctx */
    const dlti_scope *scope; /* non-NULL on a module's root spec: scoped queries */
    PyObject *last_key;     /* node[last_key] is last_value (node.c, node_getitem) */
    PyObject *last_value;
} NodeObject;

extern PyTypeObject SystemType;
extern PyTypeObject NodeType;
extern PyTypeObject PathType;
extern PyTypeObject LayoutType;
extern PyTypeObject KeyIterType;

/* Classes the Python layer registers (sysdesc/__init__.py calls _register). */
typedef struct {
    PyObject *map_class;    /* sysdesc.Map, a subclass of Node */
    PyObject *spec_class;   /* sysdesc.Spec, a subclass of Map */
    PyObject *mlir_type;    /* sysdesc.MlirType(str) */
    PyObject *mlir_attr;    /* sysdesc.MlirAttr(str) */
    PyObject *unit;         /* sysdesc.UNIT */
    PyObject *errors;       /* dict: code name -> exception class */
} ext_registry;
extern ext_registry ext_reg;

/* errors.c: raises the exception for `err` (its class by err->code). */
PyObject *ext_raise(const dlti_error_t *err);
/* Raises NotFoundError for a failed query, with the library's hint line. */
PyObject *ext_raise_query(const dlti_error_t *err, SystemObject *system,
                          const dlti_scope *scope, const dlti_attr *attr, const dlti_key *keys,
                          size_t n);
/* query_error.c: a failed query's message (the key path, the device, the
 * keys where it stops) into `out`; false when the path is there after all. */
bool ext_query_message(SystemObject *system, const dlti_attr *attr, const dlti_key *keys,
                       size_t n, char *out, size_t size);
/* system.c: raises NotFoundError for a module that holds no system spec
 * (its layout can be asked for; it has nothing to print or export). */
PyObject *ext_raise_no_spec(SystemObject *self);
/* Raises ArgumentError with `msg`. */
PyObject *ext_raise_argument(const char *fmt, ...);
const char *ext_code_name(dlti_error_code code);

/* values.c: the Python value of an attribute of `system`. */
PyObject *ext_value(SystemObject *system, const dlti_attr *attr);
/* A new Map (or, for the system's root spec, Spec) node. */
PyObject *ext_node_new(SystemObject *system, const dlti_attr *attr, const dlti_scope *scope,
                       PyObject *cls);
/* The Python key of a DLTI key: str, or MlirType for a type key. */
PyObject *ext_key_object(dlti_key key);
/* The DLTI key for a Python key, found without writing to the context:
 * 1 found, 0 absent (no attribute can hold it), -1 with an exception set. */
int ext_key_find(SystemObject *system, PyObject *key, dlti_key *out);

/* system.c */
SystemObject *ext_system_new(dlti_context *ctx, const sysdesc_system *sys, const char *source);

/* Check helpers shared by System.check and sysdesc.check (system.c). */
unsigned ext_check_flags(int complete, int partial);
int ext_check_report(void *user, const dlti_error_t *problem);
PyObject *ext_check_list(long n, PyObject *list);

/* path.c */
PyObject *ext_path_new(NodeObject *node, PyObject *keys);
/* Resolves a query on `node` with `n` keys; NULL with the exception set. */
const dlti_attr *ext_node_query(NodeObject *node, const dlti_key *keys, size_t n,
                                PyObject *keyobjs);

/* layout.c */
PyObject *ext_layout_new(SystemObject *system, const char *scope_path);

#endif
