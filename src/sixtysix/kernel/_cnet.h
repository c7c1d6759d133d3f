/* The type Net (_pure_net.Net): a learned network's trunk and value head, run on a
 * state in the kernel (the search's leaves). Included by _cloops.h after the
 * observation encoding (kl_encode_past) and before the type Search.
 *
 * The layers are kept transposed (inputs x outputs), so that a layer is a sum of the
 * rows of its nonzero inputs: observations are mostly zeros and half of a ReLU layer's
 * outputs are. The trunk runs in single precision (each product and each sum rounded
 * to float32, no fused multiply-add: -ffp-contract=off), the heads sum in double; the
 * pure kernel rounds the same operations the same way in the same order, so both
 * kernels compute the same values exactly. */

#define KL_PAST_FIELDS 15

/* The public facts of a search's root the state does not hold (_pure_net.PAST). */
typedef struct {
    KLPast past;
    int dealer;
    int has_match;
    int match[4]; /* seat 0's game points, seat 1's, the target, the tie bonus at stake */
} KLRoot;

typedef struct {
    int nin, nout;
    float *wt; /* nin x nout, as given (float32): half the memory the sums read */
    float *b;  /* nout */
} KLLayer;

typedef struct {
    PyObject_HEAD
    int nlayers;
    KLLayer *layers;
    int width;      /* the widest layer */
    float *value_w; /* the last layer's width */
    double value_b;
    float *policy_w; /* the last layer's width x NUM_CODES (transposed), or NULL */
    double policy_b[NUM_CODES];
    Py_ssize_t size; /* numbers in an observation */
    Py_ssize_t offsets[KL_BLOCKS];
    double scale;
} NetObject;

static PyTypeObject NetType;

static uint32_t kl_pack_mask(const KState *s) {
    uint32_t m = 0;
    for (int c = 0; c < N_CARDS; c++)
        if (s->cfg.deck == 24 || c % 6)
            m |= 1u << c;
    return m;
}

/* A past tuple (_pure_net.PAST) into r; -1 with an error. */
static int kl_root_parse(PyObject *o, KLRoot *r) {
    PyObject *seq = PySequence_Fast(o, "past must be a sequence of ints");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != KL_PAST_FIELDS) {
        PyErr_Format(PyExc_ValueError, "past gives %zd numbers, not %d", PySequence_Fast_GET_SIZE(seq),
                     KL_PAST_FIELDS);
        Py_DECREF(seq);
        return -1;
    }
    long v[KL_PAST_FIELDS];
    static const long lo[KL_PAST_FIELDS] = {0, 0, 0, 0, -1, -1, 0, -1, 0, -1, 0, 0, 0, 0, 0};
    static const long hi[KL_PAST_FIELDS] = {CARD_BITS, CARD_BITS, 15, 15, 1, N_CARDS - 1, 12, 1, CARD_BITS,
                                            N_CARDS - 1, 1, 1000000, 1000000, 1000000, 1000000};
    for (int i = 0; i < KL_PAST_FIELDS; i++) {
        if (get_int_in(PySequence_Fast_GET_ITEM(seq, i), lo[i], hi[i], "a number of past", &v[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    kl_past_clear(&r->past);
    r->past.won[0] = (uint32_t)v[0];
    r->past.won[1] = (uint32_t)v[1];
    r->past.shown[0] = (unsigned)v[2];
    r->past.shown[1] = (unsigned)v[3];
    r->past.exchanged_by = (int)v[4];
    r->past.taken = (int)v[5];
    r->past.tricks = (int)v[6];
    r->past.sixth_winner = (int)v[7];
    r->past.last = (uint32_t)v[8];
    r->past.face_up = (int)v[9];
    r->dealer = (int)v[10];
    for (int i = 0; i < 4; i++)
        r->match[i] = (int)v[11 + i];
    r->has_match = v[13] > 0;
    return 0;
}

/* The observation of seat me of s, whose undo records follow the root r, into out
 * (size numbers, zeroed here). */
static void kl_net_observe(const NetObject *net, const KLRoot *r, const KState *s, int me, float *out) {
    memset(out, 0, (size_t)net->size * sizeof(float));
    KLPast p = r->past;
    kl_past_scan(s, &p);
    kl_encode_past(s, &p, me, r->dealer, out, net->offsets, net->scale, kl_pack_mask(s));
    if (r->has_match) {
        double target = r->match[2] > 1 ? (double)r->match[2] : 1.0;
        float *m = out + net->offsets[OB_MATCH];
        m[0] = (float)kl_min1((double)r->match[me] / target);
        m[1] = (float)kl_min1((double)r->match[1 - me] / target);
        m[2] = (float)kl_min1((double)r->match[3] / target);
    }
}

/* The value head (tanh) for observation x; a and b are scratch of net->width floats.
 * With prior (and a policy head), also the policy over the actions of legal: their
 * probabilities in code order (softmax of their logits), popcount(legal) of them. */
static double kl_net_forward(const NetObject *net, const float *x, float *a, float *b, uint64_t legal,
                             double *prior) {
    float *out = a;
    const float *in = x;
    int nin = (int)net->size;
    for (int l = 0; l < net->nlayers; l++) {
        const KLLayer *L = &net->layers[l];
        const int nout = L->nout;
        memcpy(out, L->b, (size_t)nout * sizeof(float));
        for (int i = 0; i < nin; i++) {
            const float xi = in[i];
            if (xi != 0.0f) {
                const float *row = L->wt + (size_t)i * (size_t)nout;
                for (int j = 0; j < nout; j++)
                    out[j] += xi * row[j];
            }
        }
        for (int j = 0; j < nout; j++)
            out[j] = out[j] > 0.0f ? out[j] : 0.0f;
        in = out;
        nin = nout;
        out = out == a ? b : a;
    }
    double sum = net->value_b;
    for (int j = 0; j < nin; j++)
        sum += (double)in[j] * (double)net->value_w[j];
    if (prior && net->policy_w && legal) {
        double logit[NUM_CODES];
        memcpy(logit, net->policy_b, sizeof logit);
        for (int j = 0; j < nin; j++) {
            const double hj = (double)in[j];
            if (hj != 0.0) {
                const float *row = net->policy_w + (size_t)j * NUM_CODES;
                for (uint64_t m = legal; m; m &= m - 1) {
                    int code = K_CTZ(m);
                    logit[code] += hj * (double)row[code];
                }
            }
        }
        double top = -HUGE_VAL;
        for (uint64_t m = legal; m; m &= m - 1)
            if (logit[K_CTZ(m)] > top)
                top = logit[K_CTZ(m)];
        double total = 0.0;
        int n = 0;
        for (uint64_t m = legal; m; m &= m - 1) {
            prior[n] = exp(logit[K_CTZ(m)] - top);
            total += prior[n++];
        }
        for (int i = 0; i < n; i++)
            prior[i] /= total;
    }
    return tanh(sum);
}

/* A float32 matrix of rows x cols (rows -1: any number) into w; -1 with an error. */
static int kl_matrix(PyObject *o, const char *what, Py_ssize_t rows, Py_ssize_t cols, Py_buffer *w) {
    if (PyObject_GetBuffer(o, w, PyBUF_RECORDS_RO) < 0)
        return -1;
    if (!PyBuffer_IsContiguous(w, 'C') || w->itemsize != 4 || !kl_format_is(w->format, "f")) {
        PyErr_Format(PyExc_TypeError, "%s must be a C-contiguous buffer of float32", what);
        PyBuffer_Release(w);
        return -1;
    }
    if (w->ndim != 2 || w->shape[0] < 1 || w->shape[1] != cols || (rows >= 0 && w->shape[0] != rows)) {
        if (rows >= 0)
            PyErr_Format(PyExc_ValueError, "%s must be a %zd x %zd matrix", what, rows, cols);
        else
            PyErr_Format(PyExc_ValueError, "%s must be a matrix of %zd columns", what, cols);
        PyBuffer_Release(w);
        return -1;
    }
    return 0;
}

static void kl_net_free(NetObject *self) {
    for (int l = 0; l < self->nlayers; l++) {
        PyMem_RawFree(self->layers[l].wt);
        PyMem_RawFree(self->layers[l].b);
    }
    PyMem_RawFree(self->layers);
    PyMem_RawFree(self->value_w);
    PyMem_RawFree(self->policy_w);
    self->layers = NULL;
    self->value_w = NULL;
    self->policy_w = NULL;
    self->nlayers = 0;
}

/* One (weight, bias) pair: weight rows x nin (rows -1: any), bias rows; transposed into L. */
static int kl_layer(PyObject *pair, const char *what, int nin, int rows, KLLayer *L) {
    PyObject *seq = PySequence_Fast(pair, "a layer is a (weight, bias) pair");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 2) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s is not a (weight, bias) pair", what);
        return -1;
    }
    Py_buffer w, b;
    if (kl_matrix(PySequence_Fast_GET_ITEM(seq, 0), what, rows, nin, &w) < 0) {
        Py_DECREF(seq);
        return -1;
    }
    int nout = (int)w.shape[0];
    if (kl_get_buffer(PySequence_Fast_GET_ITEM(seq, 1), &b, what, "float32 biases", "f", 4, nout, 0) < 0) {
        PyBuffer_Release(&w);
        Py_DECREF(seq);
        return -1;
    }
    Py_DECREF(seq);
    L->nin = nin;
    L->nout = nout;
    L->wt = (float *)PyMem_RawMalloc((size_t)nin * (size_t)nout * sizeof(float));
    L->b = (float *)PyMem_RawMalloc((size_t)nout * sizeof(float));
    if (!L->wt || !L->b) {
        PyBuffer_Release(&w);
        PyBuffer_Release(&b);
        PyErr_NoMemory();
        return -1;
    }
    const float *src = (const float *)w.buf;
    for (int j = 0; j < nout; j++)
        for (int i = 0; i < nin; i++)
            L->wt[(size_t)i * (size_t)nout + (size_t)j] = src[(size_t)j * (size_t)nin + (size_t)i];
    memcpy(L->b, b.buf, (size_t)nout * sizeof(float));
    PyBuffer_Release(&w);
    PyBuffer_Release(&b);
    return 0;
}

static int Net_init(NetObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"trunk", "value", "offsets", "point_scale", "policy", NULL};
    PyObject *trunk_o, *value_o, *offsets_o, *policy_o = Py_None;
    double scale;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOd|O:Net", kwlist, &trunk_o, &value_o, &offsets_o, &scale,
                                     &policy_o))
        return -1;
    if (!(scale > 0.0)) {
        PyErr_SetString(PyExc_ValueError, "point_scale must be positive");
        return -1;
    }
    Py_ssize_t offsets[KL_BLOCKS + 1];
    if (kl_offsets(offsets_o, offsets) < 0)
        return -1;
    Py_ssize_t size = offsets[KL_BLOCKS];
    if (size < 1 || size > 100000) {
        PyErr_Format(PyExc_ValueError, "the observation size must be 1-100000, not %zd", size);
        return -1;
    }
    for (int i = 0; i < KL_BLOCKS; i++) {
        int width = i == OB_MATCH ? 3 : KL_BLOCK_WIDTH[i];
        if (offsets[i] < 0 || offsets[i] > size - width) {
            PyErr_Format(PyExc_ValueError, "block %d (offset %zd, %d numbers) does not fit an observation of %zd",
                         i, offsets[i], width, size);
            return -1;
        }
    }
    kl_net_free(self);
    PyObject *seq = PySequence_Fast(trunk_o, "trunk must be a sequence of (weight, bias) pairs");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 64) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "trunk has more than 64 layers");
        return -1;
    }
    self->layers = (KLLayer *)PyMem_RawCalloc((size_t)(n ? n : 1), sizeof(KLLayer));
    if (!self->layers) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    int nin = (int)size, width = (int)size;
    for (Py_ssize_t l = 0; l < n; l++) {
        char what[32];
        snprintf(what, sizeof what, "trunk layer %zd", l);
        self->nlayers = (int)l + 1; /* what kl_net_free frees */
        if (kl_layer(PySequence_Fast_GET_ITEM(seq, l), what, nin, -1, &self->layers[l]) < 0) {
            Py_DECREF(seq);
            kl_net_free(self);
            return -1;
        }
        nin = self->layers[l].nout;
        if (nin > width)
            width = nin;
    }
    Py_DECREF(seq);
    KLLayer head = {0, 0, NULL, NULL};
    if (kl_layer(value_o, "the value head", nin, 1, &head) < 0) {
        PyMem_RawFree(head.wt);
        PyMem_RawFree(head.b);
        kl_net_free(self);
        return -1;
    }
    self->value_w = head.wt; /* nin x 1: the same numbers */
    self->value_b = (double)head.b[0];
    PyMem_RawFree(head.b);
    if (policy_o != Py_None) {
        KLLayer policy = {0, 0, NULL, NULL};
        if (kl_layer(policy_o, "the policy head", nin, NUM_CODES, &policy) < 0) {
            PyMem_RawFree(policy.wt);
            PyMem_RawFree(policy.b);
            kl_net_free(self);
            return -1;
        }
        self->policy_w = policy.wt;
        for (int code = 0; code < NUM_CODES; code++)
            self->policy_b[code] = (double)policy.b[code];
        PyMem_RawFree(policy.b);
    }
    self->width = width;
    self->size = size;
    memcpy(self->offsets, offsets, sizeof self->offsets);
    self->scale = scale;
    return 0;
}

static void Net_dealloc(NetObject *self) {
    kl_net_free(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int kl_net_ready(NetObject *self) {
    if (!self->value_w) {
        PyErr_SetString(PyExc_RuntimeError, "the network was not initialised");
        return -1;
    }
    return 0;
}

static PyObject *Net_observe(NetObject *self, PyObject *args) {
    PyObject *state_o, *past_o;
    int seat;
    if (!PyArg_ParseTuple(args, "O!iO:observe", &EngineStateType, &state_o, &seat, &past_o))
        return NULL;
    if (kl_net_ready(self) < 0)
        return NULL;
    if (seat < 0 || seat > 1) {
        PyErr_Format(PyExc_ValueError, "seat must be 0 or 1, not %d", seat);
        return NULL;
    }
    KLRoot r;
    if (kl_root_parse(past_o, &r) < 0)
        return NULL;
    float *x = (float *)PyMem_RawMalloc((size_t)self->size * sizeof(float));
    if (!x)
        return PyErr_NoMemory();
    kl_net_observe(self, &r, &((StateObject *)state_o)->k, seat, x);
    PyObject *list = PyList_New(self->size);
    for (Py_ssize_t i = 0; list && i < self->size; i++) {
        PyObject *f = PyFloat_FromDouble((double)x[i]);
        if (!f) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, f);
    }
    PyMem_RawFree(x);
    return list;
}

/* Net.value and Net.policy: the network on state_o for its seat to act, after the past
 * past_o; the value into *value, and with prior the policy over legal (see
 * kl_net_forward). 0, or -1 with an error. */
static int kl_net_call(NetObject *self, PyObject *state_o, PyObject *past_o, uint64_t legal, double *prior,
                       double *value) {
    if (kl_net_ready(self) < 0)
        return -1;
    const KState *s = &((StateObject *)state_o)->k;
    if (s->phase == PH_OVER) {
        PyErr_SetString(PyExc_ValueError, "the hand is over: no seat is to act");
        return -1;
    }
    KLRoot r;
    if (kl_root_parse(past_o, &r) < 0)
        return -1;
    float *x = (float *)PyMem_RawMalloc((size_t)self->size * sizeof(float));
    float *h = (float *)PyMem_RawMalloc((size_t)(2 * self->width) * sizeof(float));
    if (!x || !h) {
        PyMem_RawFree(x);
        PyMem_RawFree(h);
        PyErr_NoMemory();
        return -1;
    }
    kl_net_observe(self, &r, s, s->to_act, x);
    *value = kl_net_forward(self, x, h, h + self->width, legal, prior);
    PyMem_RawFree(x);
    PyMem_RawFree(h);
    return 0;
}

static PyObject *Net_value(NetObject *self, PyObject *args) {
    PyObject *state_o, *past_o;
    double v;
    if (!PyArg_ParseTuple(args, "O!O:value", &EngineStateType, &state_o, &past_o) ||
        kl_net_call(self, state_o, past_o, 0, NULL, &v) < 0)
        return NULL;
    return PyFloat_FromDouble(v);
}

static PyObject *Net_policy(NetObject *self, PyObject *args) {
    PyObject *state_o, *past_o;
    if (!PyArg_ParseTuple(args, "O!O:policy", &EngineStateType, &state_o, &past_o))
        return NULL;
    if (self->value_w && !self->policy_w) {
        PyErr_SetString(PyExc_ValueError, "the network has no policy head");
        return NULL;
    }
    KState *s = &((StateObject *)state_o)->k;
    uint64_t legal = s->phase == PH_OVER ? 0 : k_legal_mask(s);
    double prior[NUM_CODES], v;
    if (kl_net_call(self, state_o, past_o, legal, prior, &v) < 0)
        return NULL;
    PyObject *list = PyList_New(NUM_CODES);
    int n = 0;
    for (int code = 0; list && code < NUM_CODES; code++) {
        PyObject *f = PyFloat_FromDouble(legal >> code & 1u ? prior[n++] : 0.0);
        if (!f) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, code, f);
    }
    return list;
}

static PyMethodDef Net_methods[] = {
    {"observe", (PyCFunction)Net_observe, METH_VARARGS,
     "observe($self, state, seat, past, /)\n--\n\n"
     "The observation of seat of state (a list of floats): state's own history added\n"
     "to past (what happened before it, see PAST)."},
    {"value", (PyCFunction)Net_value, METH_VARARGS,
     "value($self, state, past, /)\n--\n\n"
     "The value head's output for the seat to act of state: its expected game points / 3."},
    {"policy", (PyCFunction)Net_policy, METH_VARARGS,
     "policy($self, state, past, /)\n--\n\n"
     "The policy head's probability of each action code for the seat to act of state (0 for\n"
     "the illegal ones): the softmax of the legal actions' logits."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Net_members[] = {
    {"size", T_PYSSIZET, offsetof(NetObject, size), READONLY, "Numbers in an observation."},
    {"width", T_INT, offsetof(NetObject, width), READONLY, "The widest layer (or the observation)."},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject NetType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sixtysix.kernel._ckernel.Net",
    .tp_doc = "Net(trunk, value, offsets, point_scale, policy=None)\n"
              "--\n\n"
              "A learned network's trunk, value head and policy head, run on kernel states (the\n"
              "search's leaves).",
    .tp_basicsize = sizeof(NetObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Net_init,
    .tp_dealloc = (destructor)Net_dealloc,
    .tp_methods = Net_methods,
    .tp_members = Net_members,
};
