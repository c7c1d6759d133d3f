/* Inference from a seat's actions: State.likelihood, the pure kernel's State.likelihood
 * in C (the same model, the same sums in the same order, so the same values). Included
 * by _ckernel.c after the network (_cnet.h), which the model may be. */

/* The chance a model of the seat to act gives code (legal there), before the even
 * share epsilon: the playout policy's action (as the seat sees the hand) gets all of it;
 * with a network, mix of that and 1 - mix of the network's policy. x and h are the
 * network's scratch (NULL without one). */
static double kl_model_chance(KState *s, int code, uint64_t legal, const NetObject *net, const KLRoot *r,
                              double mix, float *x, float *h) {
    double model = code == k_policy_code(s, 1, 0, NULL, 0.0) ? 1.0 : 0.0;
    if (!net)
        return model;
    double prior[NUM_CODES];
    kl_net_observe(net, r, s, s->to_act, x);
    kl_net_forward(net, x, h, h + net->width, legal, prior);
    return mix * model + (1.0 - mix) * prior[__builtin_popcountll(legal & ((UINT64_C(1) << code) - 1))];
}

/* The sum of the logarithms of the chances of seat's actions among codes, pushed from s;
 * -inf at an action that is not legal. s is left as it was. -2.0 with an error set
 * (a code that is not an int, or a history grown full). */
static double kl_likelihood(KState *s, PyObject *seq, int seat, double epsilon, const NetObject *net,
                            const KLRoot *r, double mix, float *x, float *h) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int start = s->depth;
    double total = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int overflow = 0;
        long code = PyLong_AsLongAndOverflow(items[i], &overflow);
        if (code == -1 && PyErr_Occurred()) {
            total = -2.0;
            break;
        }
        uint64_t legal = s->phase == PH_OVER ? 0 : k_legal_mask(s);
        if (overflow || code < 0 || code >= NUM_CODES || !(legal >> code & 1)) {
            total = -INFINITY;
            break;
        }
        if (s->to_act == seat && (legal & (legal - 1))) {
            double model = kl_model_chance(s, (int)code, legal, net, r, mix, x, h);
            double chance = (1.0 - epsilon) * model + epsilon / (double)__builtin_popcountll(legal);
            if (!(chance > 0.0)) {
                total = -INFINITY;
                break;
            }
            total += log(chance);
        }
        if (s->depth >= UNDO_CAP) {
            PyErr_SetString(PyExc_OverflowError, "the history is full");
            total = -2.0;
            break;
        }
        k_push(s, (int)code);
    }
    while (s->depth > start)
        k_pop(s);
    return total;
}

static PyObject *State_likelihood(StateObject *self, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames) {
    static const char *const names[] = {"codes", "seat", "epsilon", "net", "past", "mix"};
    PyObject *a[6];
    if (parse_fast_opt(args, nargs, kwnames, "likelihood", names, 6, 3, a) < 0)
        return NULL;
    int seat = parse_seat(a[1]);
    if (seat < 0)
        return NULL;
    double epsilon = PyFloat_AsDouble(a[2]);
    if (epsilon == -1.0 && PyErr_Occurred())
        return NULL;
    if (!(epsilon >= 0.0 && epsilon <= 1.0)) {
        PyErr_Format(PyExc_ValueError, "epsilon must be between 0 and 1, not %R", a[2]);
        return NULL;
    }
    double mix = 0.0;
    if (a[5]) {
        mix = PyFloat_AsDouble(a[5]);
        if (mix == -1.0 && PyErr_Occurred())
            return NULL;
        if (!(mix >= 0.0 && mix <= 1.0)) {
            PyErr_Format(PyExc_ValueError, "mix must be between 0 and 1, not %R", a[5]);
            return NULL;
        }
    }
    const NetObject *net = NULL;
    KLRoot r;
    if (a[3] && a[3] != Py_None) {
        if (!PyObject_TypeCheck(a[3], &NetType)) {
            PyErr_SetString(PyExc_TypeError, "net must be a kernel Net");
            return NULL;
        }
        net = (const NetObject *)a[3];
        if (kl_net_ready((NetObject *)net) < 0)
            return NULL;
        if (!a[4] || a[4] == Py_None) {
            PyErr_SetString(PyExc_ValueError, "a network needs the past");
            return NULL;
        }
        if (!net->policy_w) {
            PyErr_SetString(PyExc_ValueError, "the network has no policy head");
            return NULL;
        }
        if (kl_root_parse(a[4], &r) < 0)
            return NULL;
    }
    PyObject *seq = PySequence_Fast(a[0], "codes must be a sequence of action codes");
    if (!seq)
        return NULL;
    float *x = NULL, *h = NULL;
    if (net) {
        x = (float *)PyMem_RawMalloc((size_t)net->size * sizeof(float));
        h = (float *)PyMem_RawMalloc((size_t)(2 * net->width) * sizeof(float));
        if (!x || !h) {
            PyMem_RawFree(x);
            PyMem_RawFree(h);
            Py_DECREF(seq);
            return PyErr_NoMemory();
        }
    }
    double total = kl_likelihood(&self->k, seq, seat, epsilon, net, &r, mix, x, h);
    PyMem_RawFree(x);
    PyMem_RawFree(h);
    Py_DECREF(seq);
    if (total == -2.0 && PyErr_Occurred())
        return NULL;
    return PyFloat_FromDouble(total);
}
