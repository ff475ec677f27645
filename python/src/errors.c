/* errors.c - dlti_error_t -> the sysdesc.Error hierarchy (sysdesc/_errors.py). */
#include "ext.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *ext_code_name(dlti_error_code code)
{
    switch (code) {
    case DLTI_OK: return "ok";
    case DLTI_ERROR_SYNTAX: return "syntax";
    case DLTI_ERROR_VERIFY: return "verify";
    case DLTI_ERROR_LIMIT: return "limit";
    case DLTI_ERROR_NOT_FOUND: return "not_found";
    case DLTI_ERROR_TYPE: return "type";
    case DLTI_ERROR_RANGE: return "range";
    case DLTI_ERROR_UNSUPPORTED: return "unsupported";
    case DLTI_ERROR_ARGUMENT: return "argument";
    case DLTI_ERROR_NOMEM: return "nomem";
    case DLTI_ERROR_IO: return "io";
    }
    return "unknown";
}

/* The class for `code`, borrowed; sysdesc.Error when the registry has none
 * (or PyExc_RuntimeError before _register ran). */
static PyObject *error_class(dlti_error_code code)
{
    if (!ext_reg.errors)
        return PyExc_RuntimeError;
    PyObject *cls = PyDict_GetItemString(ext_reg.errors, ext_code_name(code));
    if (!cls)
        cls = PyDict_GetItemString(ext_reg.errors, "error");
    return cls ? cls : PyExc_RuntimeError;
}

/* cls(formatted, message, file, line, column, position, code, hint) */
static PyObject *raise_with(const dlti_error_t *err, const char *hint)
{
    char line[DLTI_ERROR_TEXT_LENGTH + DLTI_ERROR_SOURCE_LENGTH + 64];
    dlti_error_format(err, line, sizeof line);
    PyObject *cls = error_class(err->code);
    PyObject *exc;
    if (cls == PyExc_RuntimeError) {
        exc = PyObject_CallFunction(cls, "s", line);
    } else {
        PyObject *file = err->source[0] ? PyUnicode_DecodeUTF8(err->source, strlen(err->source),
                                                               "replace")
                                        : Py_NewRef(Py_None);
        PyObject *full = PyUnicode_DecodeUTF8(line, strlen(line), "replace");
        PyObject *text = PyUnicode_DecodeUTF8(err->text, strlen(err->text), "replace");
        exc = file && full && text
                  ? PyObject_CallFunction(cls, "OOOiinsz", full, text, file, err->line,
                                          err->column, (Py_ssize_t)err->position,
                                          ext_code_name(err->code), hint)
                  : NULL;
        Py_XDECREF(file);
        Py_XDECREF(full);
        Py_XDECREF(text);
    }
    if (exc) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

/* The library says what it suggests at the end of its text ("no catalog
 * entry 'nvidia/h100' in ...; did you mean 'nvidia/h100-sxm'?", "no device
 * 'GPU0'; did you mean 'GPU'?"): that part is the exception's `hint`, as the
 * CLI prints it on a line of its own, and the message is the rest. */
static const char *split_hint(dlti_error_t *err)
{
    static const char mark[] = "; did you mean ";
    char *at = strstr(err->text, mark);
    if (!at)
        return NULL;
    *at = '\0';
    return at + 2;
}

PyObject *ext_raise(const dlti_error_t *err)
{
    if (err->code == DLTI_ERROR_NOMEM)
        return PyErr_NoMemory();
    dlti_error_t copy = *err;
    const char *hint = split_hint(&copy);
    return raise_with(&copy, hint);
}

PyObject *ext_raise_query(const dlti_error_t *err, SystemObject *system,
                          const dlti_scope *scope, const dlti_attr *attr, const dlti_key *keys,
                          size_t n)
{
    if (err->code == DLTI_ERROR_NOMEM)
        return PyErr_NoMemory();
    if (err->code != DLTI_ERROR_NOT_FOUND)
        return raise_with(err, NULL);
    /* The hint when it suggests a key; the keys there, or the value that
     * holds none, the message says already. */
    char hint[512];
    bool have = dlti_query_hint(scope, scope ? NULL : attr, keys, n, hint, sizeof hint) == 0 &&
                strncmp(hint, "did you mean ", 13) == 0;
    /* The key path, the device and the keys where it stops, not MLIR's
     * note with the container printed whole (query_error.c). */
    dlti_error_t said = *err;
    if (!ext_query_message(system, attr, keys, n, said.text, sizeof said.text))
        said = *err;
    return raise_with(&said, have ? hint : NULL);
}

PyObject *ext_raise_argument(const char *fmt, ...)
{
    dlti_error_t err = {.code = DLTI_ERROR_ARGUMENT};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err.text, sizeof err.text, fmt, ap);
    va_end(ap);
    return raise_with(&err, NULL);
}
