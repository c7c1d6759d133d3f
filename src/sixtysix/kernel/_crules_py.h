/* The rules' Python types (_crules.c), for the engine that builds on them.
 *
 * StateObject is the Python State: one KState and the Config it is played by. The engine
 * (_ckernel.c) makes its State of the rules' methods and attributes with the playout
 * policy added, and reads its arguments with the same helpers.
 */

#ifndef SIXTYSIX_CRULES_PY_H
#define SIXTYSIX_CRULES_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include "_crules.h"

/* Shared between the rules' and the engine's files of one extension, and no further: a
 * hidden symbol is not interposable, so the compiler may inline it within its own file
 * (an exported one would be called through the procedure linkage table, every time). */
#if defined(__GNUC__) || defined(__clang__)
#define KR_SHARED __attribute__((visibility("hidden")))
#else
#define KR_SHARED
#endif

typedef struct {
    PyObject_HEAD
    PyObject *config;
    KState k;
} StateObject;

/* The rules' types: the state and the random numbers (SplitMix64). */
KR_SHARED extern PyTypeObject StateType;
KR_SHARED extern PyTypeObject RngType;
/* What the rules' State is made of, for a type that adds methods to it (the engine's):
 * its methods (to {NULL}), its attributes, its creation and its end. */
KR_SHARED extern PyMethodDef State_methods[];
KR_SHARED extern PyGetSetDef State_getset[];
KR_SHARED PyObject *State_new(PyTypeObject *type, PyObject *args, PyObject *kwds);
KR_SHARED void State_dealloc(StateObject *self);

/* Reading arguments (ValueError or TypeError naming what is wrong, and -1 or NULL): an int
 * in [lo, hi]; an int clamped to [lo, hi]; a call's arguments by position or keyword into
 * out (every one required, or the first `required`); a seat, 0 or 1 (or -1). */
KR_SHARED int get_int_in(PyObject *o, long lo, long hi, const char *what, long *out);
KR_SHARED int get_int_clamped(PyObject *o, long lo, long hi, long *out);
KR_SHARED int parse_fast(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
                         const char *const *names, int n, PyObject **out);
KR_SHARED int parse_fast_opt(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
                             const char *const *names, int n, int required, PyObject **out);
KR_SHARED int parse_seat(PyObject *o);
/* A tables.Config into out (the last one read is remembered); -1 with an error. */
KR_SHARED int read_config(PyObject *config, KConfig *out);
/* A new State of type (the rules' or a subclass) played by config, its KState unset. */
KR_SHARED StateObject *state_alloc(PyTypeObject *type, PyObject *config);
/* Ready the rules' types (once); -1 with an error. */
KR_SHARED int crules_ready(void);

#endif /* SIXTYSIX_CRULES_PY_H */
