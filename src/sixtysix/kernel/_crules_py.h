/* The rules' Python types (_crules.c), for the engine that builds on them.
 *
 * StateObject is the Python State: one KState and the Config it is played by. The engine
 * (_ckernel.c) subclasses State with the playout policy and the likelihood of a line of
 * play, and reads its arguments with the same helpers.
 */

#ifndef SIXTYSIX_CRULES_PY_H
#define SIXTYSIX_CRULES_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include "_crules.h"

typedef struct {
    PyObject_HEAD
    PyObject *config;
    KState k;
} StateObject;

/* The rules' types: the state and the random numbers (SplitMix64). */
extern PyTypeObject StateType;
extern PyTypeObject RngType;

/* Reading arguments (ValueError or TypeError naming what is wrong, and -1 or NULL): an int
 * in [lo, hi]; an int clamped to [lo, hi]; a call's arguments by position or keyword into
 * out (every one required, or the first `required`); a seat, 0 or 1 (or -1). */
int get_int_in(PyObject *o, long lo, long hi, const char *what, long *out);
int get_int_clamped(PyObject *o, long lo, long hi, long *out);
int parse_fast(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
               const char *const *names, int n, PyObject **out);
int parse_fast_opt(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
                   const char *const *names, int n, int required, PyObject **out);
int parse_seat(PyObject *o);
/* A tables.Config into out (the last one read is remembered); -1 with an error. */
int read_config(PyObject *config, KConfig *out);
/* A new State of type (the rules' or a subclass) played by config, its KState unset. */
StateObject *state_alloc(PyTypeObject *type, PyObject *config);
/* Ready the rules' types (once); -1 with an error. */
int crules_ready(void);

#endif /* SIXTYSIX_CRULES_PY_H */
