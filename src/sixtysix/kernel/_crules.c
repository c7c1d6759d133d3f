/* The compiled rules' Python types: State (_pure_rules.State) and Rng (_pure_rng.Rng).
 *
 * CPython C API only, C99. State wraps one KState (_crules.h) and a reference to the
 * Config it is played by; it holds the rules alone: the state, legal actions and
 * refusals, push and pop, scoring, the public record. This file includes nothing of the
 * engine: built alone it is the module sixtysix.kernel._crules, the rules as a library;
 * linked into the engine (_ckernel.c), its methods, attributes and life cycle make the
 * engine's State, with the engine's own methods added (one type, no subclass: a method
 * call on a subclass's object pays a type check).
 * Where the pure kernel would index out of range or shift by a negative count on input
 * that no legal play produces, this one raises ValueError or stays memory-safe.
 */

#include "_crules_py.h"

/* The Python type State ------------------------------------------------------------ */



/* The last Config read, and its reading (a Config is immutable; we hold a reference). */
static PyObject *cached_config = NULL;
static KConfig cached_kconfig;

#define N_CONFIG_FIELDS 19
static const char *const CONFIG_FIELDS[N_CONFIG_FIELDS] = {
    "deck", "exchange_rank", "enforce_follow", "auto_declare", "close_before_draw",
    "close_min_stock", "close_first_lead", "exchange_min_stock", "exchange_first_lead",
    "marriage_first_lead", "marriages_in_phase2", "last_trick_bonus", "next_trick", "king_lead",
    "last_trick_wins", "close_scored_at_close", "failed_close_three", "false_declaration_three",
    "closing",
};

/* An int within [lo, hi], else ValueError naming what. */
int get_int_in(PyObject *o, long lo, long hi, const char *what, long *out) {
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be in %ld..%ld, not %R", what, lo, hi, o);
        return -1;
    }
    *out = v;
    return 0;
}

/* An int, clamped to [lo, hi]: for thresholds compared with a stock of 0-12. */
int get_int_clamped(PyObject *o, long lo, long hi, long *out) {
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow)
        v = overflow > 0 ? hi : lo;
    *out = v < lo ? lo : (v > hi ? hi : v);
    return 0;
}

int read_config(PyObject *config, KConfig *out) {
    if (config == cached_config) {
        *out = cached_kconfig;
        return 0;
    }
    int vals[N_CONFIG_FIELDS];
    for (int i = 0; i < N_CONFIG_FIELDS; i++) {
        PyObject *v = PyObject_GetAttrString(config, CONFIG_FIELDS[i]);
        if (!v)
            return -1;
        long x = 0;
        int r = 0;
        switch (i) {
        case 0: /* deck */
            r = get_int_in(v, 20, 24, "config.deck", &x);
            if (r == 0 && x != 20 && x != 24) {
                PyErr_Format(PyExc_ValueError, "config.deck must be 24 or 20, not %R", v);
                r = -1;
            }
            break;
        case 1: /* exchange_rank */
            r = get_int_in(v, 0, 5, "config.exchange_rank", &x);
            break;
        case 5: /* close_min_stock */
        case 7: /* exchange_min_stock */
            r = get_int_clamped(v, -1000, 1000, &x);
            break;
        case 11: /* last_trick_bonus */
            r = get_int_in(v, -1000000, 1000000, "config.last_trick_bonus", &x);
            break;
        default: { /* flags, read as the pure kernel reads them: by truth */
            int t = PyObject_IsTrue(v);
            if (t < 0)
                r = -1;
            x = t;
        }
        }
        Py_DECREF(v);
        if (r < 0)
            return -1;
        vals[i] = (int)x;
    }
    KConfig c;
    c.deck = vals[0];
    c.exchange_rank = vals[1];
    c.enforce_follow = vals[2];
    c.auto_declare = vals[3];
    c.close_before_draw = vals[4];
    c.close_min_stock = vals[5];
    c.close_first_lead = vals[6];
    c.exchange_min_stock = vals[7];
    c.exchange_first_lead = vals[8];
    c.marriage_first_lead = vals[9];
    c.marriages_in_phase2 = vals[10];
    c.last_trick_bonus = vals[11];
    c.next_trick = vals[12];
    c.king_lead = vals[13];
    c.last_trick_wins = vals[14];
    c.close_scored_at_close = vals[15];
    c.failed_close_three = vals[16];
    c.false_declaration_three = vals[17];
    c.closing = vals[18];
    Py_INCREF(config);
    Py_XSETREF(cached_config, config);
    cached_kconfig = c;
    *out = c;
    return 0;
}

StateObject *state_alloc(PyTypeObject *type, PyObject *config) {
    StateObject *self = (StateObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    Py_INCREF(config);
    self->config = config;
    return self;
}

void State_dealloc(StateObject *self) {
    Py_XDECREF(self->config);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyObject *State_new(PyTypeObject *type, PyObject *Py_UNUSED(args), PyObject *Py_UNUSED(kwds)) {
    PyErr_Format(PyExc_TypeError, "cannot create '%s' instances directly: use State.deal() or State.from_key()",
                 type->tp_name);
    return NULL;
}

/* Arguments of a METH_FASTCALL | METH_KEYWORDS function with n positional-or-keyword
 * parameters, the first required of them required; a missing optional one is NULL. */
int parse_fast_opt(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
                          const char *const *names, int n, int required, PyObject **out) {
    if (nargs > n) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d positional arguments but %zd were given", fname, n, nargs);
        return -1;
    }
    for (int i = 0; i < n; i++)
        out[i] = i < nargs ? args[i] : NULL;
    if (kwnames) {
        Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t j = 0; j < nkw; j++) {
            PyObject *name = PyTuple_GET_ITEM(kwnames, j);
            int found = -1;
            for (int i = 0; i < n; i++) {
                if (PyUnicode_CompareWithASCIIString(name, names[i]) == 0) {
                    found = i;
                    break;
                }
            }
            if (found < 0) {
                PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %R", fname, name);
                return -1;
            }
            if (out[found]) {
                PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, names[found]);
                return -1;
            }
            out[found] = args[nargs + j];
        }
    }
    for (int i = 0; i < required; i++) {
        if (!out[i]) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fname, names[i]);
            return -1;
        }
    }
    return 0;
}

/* parse_fast_opt with every parameter required. */
int parse_fast(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
                      const char *const *names, int n, PyObject **out) {
    return parse_fast_opt(args, nargs, kwnames, fname, names, n, n, out);
}

int parse_seat(PyObject *o) {
    long v;
    if (get_int_in(o, 0, 1, "seat", &v) < 0)
        return -1;
    return (int)v;
}

/* Construction ---------------------------------------------------------------------- */

static PyObject *State_deal(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"deck", "dealer", "config"};
    PyObject *a[3];
    if (parse_fast(args, nargs, kwnames, "deal", names, 3, a) < 0)
        return NULL;
    KConfig cfg;
    if (read_config(a[2], &cfg) < 0)
        return NULL;
    long dealer;
    if (get_int_in(a[1], 0, 1, "dealer", &dealer) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(a[0], "deck must be a sequence of card indices");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != cfg.deck) {
        PyErr_Format(PyExc_ValueError, "the deck has %zd cards, the rules deal %d", n, cfg.deck);
        Py_DECREF(seq);
        return NULL;
    }
    int8_t deck[N_CARDS];
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (get_int_in(items[i], 0, N_CARDS - 1, "a card index", &v) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
        deck[i] = (int8_t)v;
    }
    Py_DECREF(seq);

    StateObject *self = state_alloc((PyTypeObject *)cls, a[2]);
    if (!self)
        return NULL;
    k_deal(&self->k, &cfg, deck, (int)dealer);
    return (PyObject *)self;
}

static PyObject *State_from_key(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"config", "key"};
    PyObject *a[2];
    if (parse_fast(args, nargs, kwnames, "from_key", names, 2, a) < 0)
        return NULL;
    KConfig cfg;
    if (read_config(a[0], &cfg) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(a[1], "key must be a sequence of ints");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    if (n < 19) {
        PyErr_Format(PyExc_ValueError, "a key has at least 19 numbers, not %zd", n);
        Py_DECREF(seq);
        return NULL;
    }
    /* phase, to_act, lead, trump, h0, h1, c0, c1, t0, t1, m0, m1, q0, q1, drawn,
     * closed_by, closed_at, close_value, bonus_seat */
    static const long lo[19] = {0, 0, -1, 0, 0, 0, -1000, -1000, -1000, -1000, -1000, -1000,
                                -1000, -1000, 0, -1, -1000, -1000, -1};
    static const long hi[19] = {3, 1, 23, 3, CARD_BITS, CARD_BITS, 1000, 1000, 1000, 1000, 1000,
                                1000, 1000, 1000, STOCK_CARDS, 1, 1000, 1000, 1};
    static const char *const what[19] = {
        "phase", "to_act", "lead", "trump", "hand 0", "hand 1", "card points 0", "card points 1",
        "tricks 0", "tricks 1", "marriages 0", "marriages 1", "pending 0", "pending 1", "drawn",
        "closed_by", "closed_at", "close_value", "bonus_seat"};
    long v[19];
    for (int i = 0; i < 19; i++) {
        if (get_int_in(items[i], lo[i], hi[i], what[i], &v[i]) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    int drawn = (int)v[14];
    if (drawn + (n - 19) != STOCK_CARDS) {
        PyErr_SetString(PyExc_ValueError, "the stock and the cards drawn do not add up to 12 places");
        Py_DECREF(seq);
        return NULL;
    }
    int8_t stock[STOCK_CARDS] = {0};
    for (Py_ssize_t i = 19; i < n; i++) {
        long c;
        if (get_int_in(items[i], 0, N_CARDS - 1, "a stock card", &c) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
        stock[drawn + (i - 19)] = (int8_t)c;
    }
    Py_DECREF(seq);

    StateObject *self = state_alloc((PyTypeObject *)cls, a[0]);
    if (!self)
        return NULL;
    KState *s = &self->k;
    s->cfg = cfg;
    memcpy(s->stock, stock, sizeof stock);
    k_start(s, (int)v[3], (uint32_t)v[4], (uint32_t)v[5], drawn, (int)v[1]);
    s->phase = (int8_t)v[0];
    s->lead = (int8_t)v[2];
    s->points[0] = (int16_t)v[6];
    s->points[1] = (int16_t)v[7];
    s->tricks[0] = (int16_t)v[8];
    s->tricks[1] = (int16_t)v[9];
    s->marriages[0] = (int16_t)v[10];
    s->marriages[1] = (int16_t)v[11];
    s->pending[0] = (int16_t)v[12];
    s->pending[1] = (int16_t)v[13];
    s->closed_by = (int8_t)v[15];
    s->closed_at = (int16_t)v[16];
    s->close_value = (int16_t)v[17];
    s->bonus_seat = (int8_t)v[18];
    return (PyObject *)self;
}

static PyObject *State_copy(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    StateObject *other = state_alloc(Py_TYPE(self), self->config);
    if (!other)
        return NULL;
    memcpy(&other->k, &self->k, KSTATE_HEAD_SIZE);
    memcpy(other->k.undo, self->k.undo, (size_t)self->k.depth * sizeof(KUndo));
    return (PyObject *)other;
}

/* Queries ---------------------------------------------------------------------------- */

static PyObject *State_hand(StateObject *self, PyObject *arg) {
    int seat = parse_seat(arg);
    if (seat < 0)
        return NULL;
    return PyLong_FromUnsignedLong(self->k.hands[seat]);
}

static PyObject *State_card_points(StateObject *self, PyObject *arg) {
    int seat = parse_seat(arg);
    if (seat < 0)
        return NULL;
    return PyLong_FromLong(self->k.points[seat]);
}

static PyObject *State_tricks_won(StateObject *self, PyObject *arg) {
    int seat = parse_seat(arg);
    if (seat < 0)
        return NULL;
    return PyLong_FromLong(self->k.tricks[seat]);
}

static PyObject *State_marriage_points(StateObject *self, PyObject *arg) {
    int seat = parse_seat(arg);
    if (seat < 0)
        return NULL;
    return PyLong_FromLong(self->k.marriages[seat]);
}

static PyObject *State_pending_points(StateObject *self, PyObject *arg) {
    int seat = parse_seat(arg);
    if (seat < 0)
        return NULL;
    return PyLong_FromLong(self->k.pending[seat]);
}

static PyObject *State_score(StateObject *self, PyObject *arg) {
    int seat = parse_seat(arg);
    if (seat < 0)
        return NULL;
    return PyLong_FromLong(k_score(&self->k, seat));
}

static PyObject *State_stock_cards(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    const KState *s = &self->k;
    int d = s->drawn;
    PyObject *list = PyList_New(STOCK_CARDS - d);
    if (!list)
        return NULL;
    for (int i = d; i < STOCK_CARDS; i++)
        PyList_SET_ITEM(list, i - d, PyLong_FromLong(s->stock[i]));
    return list;
}

static PyObject *State_history(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    const KState *s = &self->k;
    PyObject *list = PyList_New(s->depth);
    if (!list)
        return NULL;
    for (int i = 0; i < s->depth; i++) {
        PyObject *code = PyLong_FromLong(s->undo[i].code);
        PyObject *seat = PyLong_FromLong(s->undo[i].to_act);
        PyObject *t = (code && seat) ? PyTuple_Pack(2, code, seat) : NULL;
        Py_XDECREF(code);
        Py_XDECREF(seat);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *State_depth(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLong(self->k.depth);
}

/* The public record (_pure_rules.py: trick_history, marriages_shown, exchanged): what the kernel
 * decided as the actions were pushed, read off their undo records (each holds the state
 * before its action; the state after the last is the current one). */

/* A list of n tuples of four ints, v[4 * i] to v[4 * i + 3]. */
static PyObject *quads_list(const long *v, int n) {
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = Py_BuildValue("(llll)", v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *State_trick_history(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    const KState *s = &self->k;
    long v[4 * UNDO_CAP];
    int n = 0;
    for (int i = 0; i < s->depth; i++) {
        const KUndo *u = &s->undo[i];
        if (u->phase != PH_FOLLOW || u->code >= MARRIAGE)
            continue;
        const int16_t *after = i + 1 < s->depth ? s->undo[i + 1].tricks : s->tricks;
        /* R3.3: the seat whose tricks grew; none after a revoke (R10.2). */
        int winner = after[0] > u->tricks[0] ? 0 : (after[1] > u->tricks[1] ? 1 : -1);
        v[4 * n] = 1 - u->to_act;
        v[4 * n + 1] = u->lead;
        v[4 * n + 2] = u->code;
        v[4 * n + 3] = winner;
        n++;
    }
    return quads_list(v, n);
}

static PyObject *State_marriages_shown(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    const KState *s = &self->k;
    long v[4 * UNDO_CAP];
    int n = 0;
    for (int i = 0; i < s->depth; i++) {
        const KUndo *u = &s->undo[i];
        int code = u->code;
        if (!((code >= MARRIAGE && code < EXCHANGE) || code >= DECLARE_MARRIAGE))
            continue;
        int suit = code < EXCHANGE ? K_SUIT_OF[code - MARRIAGE] : code - DECLARE_MARRIAGE;
        v[4 * n] = u->to_act;
        v[4 * n + 1] = suit;
        v[4 * n + 2] = k_marriage_value(suit, s->trump);
        v[4 * n + 3] = u->tricks[0] + u->tricks[1];
        n++;
    }
    return quads_list(v, n);
}

static PyObject *State_exchanged(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    const KState *s = &self->k;
    for (int i = 0; i < s->depth; i++) {
        if (s->undo[i].code == EXCHANGE)
            return Py_BuildValue("(ii)", (int)s->undo[i].to_act, (int)s->undo[i].stock_last);
    }
    return Py_BuildValue("(ii)", -1, -1);
}

static PyObject *State_failed_close_points(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLong(self->k.closed_by < 0 ? 0 : K_SCORING_POINTS[k_failed_close(&self->k)]);
}

static PyObject *State_scoring(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    const KState *s = &self->k;
    if (s->phase != PH_OVER || s->winner < 0)
        return Py_BuildValue("(iii)", SC_NONE, 0, 0);
    if (s->scored >= SC_CLOSED_THIRTY_THREE && s->scored <= SC_CLOSED_NO_TRICK)
        return Py_BuildValue("(iii)", (int)s->scored, (int)s->close_score, (int)s->close_tricks);
    int loser = 1 - s->winner;
    return Py_BuildValue("(iii)", (int)s->scored, k_score(s, loser), (int)s->tricks[loser]);
}

static PyObject *State_value(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLong(k_value(&self->k));
}

static PyObject *State_key(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    const KState *s = &self->k;
    int d = s->drawn;
    long v[19 + STOCK_CARDS];
    v[0] = s->phase;
    v[1] = s->to_act;
    v[2] = s->lead;
    v[3] = s->trump;
    v[4] = (long)s->hands[0];
    v[5] = (long)s->hands[1];
    v[6] = s->points[0];
    v[7] = s->points[1];
    v[8] = s->tricks[0];
    v[9] = s->tricks[1];
    v[10] = s->marriages[0];
    v[11] = s->marriages[1];
    v[12] = s->pending[0];
    v[13] = s->pending[1];
    v[14] = d;
    v[15] = s->closed_by;
    v[16] = s->closed_at;
    v[17] = s->close_value;
    v[18] = s->bonus_seat;
    int n = 19;
    for (int i = d; i < STOCK_CARDS; i++)
        v[n++] = s->stock[i];
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *State_legal_mask(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromUnsignedLongLong(k_legal_mask(&self->k));
}

static PyObject *State_refusal(StateObject *self, PyObject *arg) {
    int overflow = 0;
    long code = PyLong_AsLongAndOverflow(arg, &overflow);
    if (code == -1 && PyErr_Occurred())
        return NULL;
    if (overflow || code < 0 || code >= NUM_CODES
        || (code >= MARRIAGE && code < EXCHANGE && !(KINGS >> ((code - MARRIAGE) | 1) & 1u))) {
        PyErr_Format(PyExc_ValueError, "%R is not an action code (0-55, a marriage a King's or Queen's)", arg);
        return NULL;
    }
    int argument;
    int why = k_refusal(&self->k, (int)code, &argument);
    return Py_BuildValue("(ii)", why, argument);
}

/* Make / unmake ---------------------------------------------------------------------- */

static PyObject *State_push(StateObject *self, PyObject *arg) {
    int overflow = 0;
    long code = PyLong_AsLongAndOverflow(arg, &overflow);
    if (code == -1 && PyErr_Occurred())
        return NULL;
    if (overflow || code < 0 || code >= NUM_CODES) {
        PyErr_Format(PyExc_ValueError, "an action code is in 0..55, not %R", arg);
        return NULL;
    }
    if (self->k.depth >= UNDO_CAP) {
        PyErr_SetString(PyExc_OverflowError, "the history is full (64 actions)");
        return NULL;
    }
    k_push(&self->k, (int)code);
    Py_RETURN_NONE;
}

static PyObject *State_pop(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    if (self->k.depth <= 0) {
        PyErr_SetString(PyExc_IndexError, "pop from an empty history");
        return NULL;
    }
    return PyLong_FromLong(k_pop(&self->k));
}

static PyObject *State_forfeit(StateObject *self, PyObject *arg) {
    int seat = parse_seat(arg);
    if (seat < 0)
        return NULL;
    k_forfeit(&self->k, seat);
    Py_RETURN_NONE;
}

static PyObject *State_deal_hidden(StateObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames) {
    static const char *const names[] = {"seat", "hand", "stock"};
    PyObject *a[3];
    if (parse_fast(args, nargs, kwnames, "deal_hidden", names, 3, a) < 0)
        return NULL;
    int seat = parse_seat(a[0]);
    if (seat < 0)
        return NULL;
    long hand;
    if (get_int_in(a[1], 0, CARD_BITS, "hand", &hand) < 0)
        return NULL;
    KState *s = &self->k;
    PyObject *seq = PySequence_Fast(a[2], "stock must be a sequence of card indices");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int d = s->drawn;
    if (n != STOCK_CARDS - d) {
        PyErr_Format(PyExc_ValueError, "the stock holds %d cards, not %zd", STOCK_CARDS - d, n);
        Py_DECREF(seq);
        return NULL;
    }
    int8_t cards[STOCK_CARDS];
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        long c;
        if (get_int_in(items[i], 0, N_CARDS - 1, "a stock card", &c) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
        cards[i] = (int8_t)c;
    }
    Py_DECREF(seq);
    s->hands[seat] = (uint32_t)hand;
    for (Py_ssize_t i = 0; i < n; i++)
        s->stock[d + i] = cards[i];
    s->lmask_valid = 0;
    Py_RETURN_NONE;
}

static PyObject *State_random_playout(StateObject *self, PyObject *arg) {
    uint64_t seed = PyLong_AsUnsignedLongLongMask(arg);
    if (seed == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    int r = k_random_playout(&self->k, seed);
    if (r == -1) {
        PyErr_SetString(PyExc_OverflowError, "the history is full (64 actions)");
        return NULL;
    }
    if (r == -2) {
        PyErr_SetString(PyExc_ValueError, "no legal action in an unfinished hand");
        return NULL;
    }
    return PyLong_FromLong(k_value(&self->k));
}

/* The number of legal action sequences of length depth from s, by push and pop (a
 * finished hand has no actions). -1 when the history would overflow. */
static long long k_perft(KState *s, int depth) {
    if (depth == 0)
        return 1;
    uint64_t m = k_legal_mask(s);
    if (depth == 1)
        return K_POPCOUNT(m);
    if (m && s->depth >= UNDO_CAP)
        return -1;
    unsigned long long total = 0;
    while (m) {
        k_push(s, K_CTZ(m));
        long long n = k_perft(s, depth - 1);
        k_pop(s);
        if (n < 0)
            return -1;
        total += (unsigned long long)n;
        m &= m - 1;
    }
    return (long long)(total & 0x7FFFFFFFFFFFFFFFULL);
}

static PyObject *State_perft(StateObject *self, PyObject *arg) {
    int overflow = 0;
    long depth = PyLong_AsLongAndOverflow(arg, &overflow);
    if (depth == -1 && PyErr_Occurred())
        return NULL;
    if (overflow < 0 || (!overflow && depth < 0))
        return PyLong_FromLong(0); /* every line ends in a finished hand: none is that long */
    if (overflow || depth > 1000)
        depth = 1000; /* a hand ends long before */
    long long n = k_perft(&self->k, (int)depth);
    if (n < 0) {
        PyErr_SetString(PyExc_OverflowError, "the history is full (64 actions)");
        return NULL;
    }
    return PyLong_FromLongLong(n);
}

/* Attributes ---------------------------------------------------------------------------- */

static PyObject *State_get_config(StateObject *self, void *Py_UNUSED(closure)) {
    Py_INCREF(self->config);
    return self->config;
}

#define INT_GETTER(field)                                                      \
    static PyObject *State_get_##field(StateObject *self, void *Py_UNUSED(c)) { \
        return PyLong_FromLong(self->k.field);                                 \
    }
INT_GETTER(phase)
INT_GETTER(to_act)
INT_GETTER(lead)
INT_GETTER(trump)
INT_GETTER(exchange_card)
INT_GETTER(drawn)
INT_GETTER(closed_by)
INT_GETTER(closed_at)
INT_GETTER(close_value)
INT_GETTER(bonus_seat)
INT_GETTER(winner)
INT_GETTER(game_points)
INT_GETTER(reason)
#undef INT_GETTER

static PyObject *State_get_stock_size(StateObject *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLong(STOCK_CARDS - self->k.drawn);
}

static PyObject *State_get_stock_open(StateObject *self, void *Py_UNUSED(closure)) {
    return PyBool_FromLong(k_stock_open(&self->k));
}

static PyObject *pair_list(long a, long b) {
    PyObject *list = PyList_New(2);
    if (!list)
        return NULL;
    PyObject *x = PyLong_FromLong(a), *y = PyLong_FromLong(b);
    if (!x || !y) {
        Py_XDECREF(x);
        Py_XDECREF(y);
        Py_DECREF(list);
        return NULL;
    }
    PyList_SET_ITEM(list, 0, x);
    PyList_SET_ITEM(list, 1, y);
    return list;
}

#define PAIR_GETTER(field)                                                      \
    static PyObject *State_get_##field(StateObject *self, void *Py_UNUSED(c)) { \
        return pair_list((long)self->k.field[0], (long)self->k.field[1]);       \
    }
PAIR_GETTER(hands)
PAIR_GETTER(points)
PAIR_GETTER(tricks)
PAIR_GETTER(marriages)
PAIR_GETTER(pending)
#undef PAIR_GETTER

static PyObject *State_get_stock(StateObject *self, void *Py_UNUSED(closure)) {
    PyObject *list = PyList_New(STOCK_CARDS);
    if (!list)
        return NULL;
    for (int i = 0; i < STOCK_CARDS; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLong(self->k.stock[i]));
    return list;
}

PyGetSetDef State_getset[] = {
    {"config", (getter)State_get_config, NULL, "The rule options (tables.Config) this hand is played by.", NULL},
    {"phase", (getter)State_get_phase, NULL, "tables.Phase: lead, follow, draw or over.", NULL},
    {"to_act", (getter)State_get_to_act, NULL, "The seat to act.", NULL},
    {"lead", (getter)State_get_lead, NULL, "The card led to the trick, or -1.", NULL},
    {"trump", (getter)State_get_trump, NULL, "The trump suit.", NULL},
    {"exchange_card", (getter)State_get_exchange_card, NULL, "The trump that may be exchanged.", NULL},
    {"drawn", (getter)State_get_drawn, NULL, "Places of the 12-place stock drawn.", NULL},
    {"closed_by", (getter)State_get_closed_by, NULL, "The seat that closed, or -1.", NULL},
    {"closed_at", (getter)State_get_closed_at, NULL, "Tricks played at the close, or -1.", NULL},
    {"close_value", (getter)State_get_close_value, NULL, "Game points at stake at the close.", NULL},
    {"bonus_seat", (getter)State_get_bonus_seat, NULL, "The seat with the last-trick bonus, or -1.", NULL},
    {"winner", (getter)State_get_winner, NULL, "The winner of a finished hand, -1 otherwise or for a tie.", NULL},
    {"game_points", (getter)State_get_game_points, NULL, "Game points of a finished hand.", NULL},
    {"reason", (getter)State_get_reason, NULL, "tables.Reason of a finished hand, or -1.", NULL},
    {"stock_size", (getter)State_get_stock_size, NULL, "Cards left in the stock, counting the turned-up trump.", NULL},
    {"stock_open", (getter)State_get_stock_open, NULL, "Neither closed nor exhausted: phase 1 (R3).", NULL},
    {"hands", (getter)State_get_hands, NULL, "Both hands as masks (a new list).", NULL},
    {"points", (getter)State_get_points, NULL, "Card points of both seats (a new list).", NULL},
    {"tricks", (getter)State_get_tricks, NULL, "Tricks won by both seats (a new list).", NULL},
    {"marriages", (getter)State_get_marriages, NULL, "Counted marriage points of both seats (a new list).", NULL},
    {"pending", (getter)State_get_pending, NULL, "Pending marriage points of both seats (a new list).", NULL},
    {"stock", (getter)State_get_stock, NULL, "The 12 stock places, drawn ones included (a new list).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyMethodDef State_methods[] = {
    {"deal", (PyCFunction)(void (*)(void))State_deal, METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "deal(deck, dealer, config)\n--\n\nDeal deck (card indices, top first, config.deck of them)."},
    {"from_key", (PyCFunction)(void (*)(void))State_from_key, METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "from_key(config, key)\n--\n\nThe state whose key() is key (with no history to pop)."},
    {"copy", (PyCFunction)State_copy, METH_NOARGS, "copy($self, /)\n--\n\nAn independent copy, with its history."},
    {"hand", (PyCFunction)State_hand, METH_O, "hand($self, seat, /)\n--\n\nThe cards seat holds, as a mask."},
    {"card_points", (PyCFunction)State_card_points, METH_O,
     "card_points($self, seat, /)\n--\n\nCard points taken in tricks (R1.3)."},
    {"tricks_won", (PyCFunction)State_tricks_won, METH_O, "tricks_won($self, seat, /)\n--\n\nTricks won."},
    {"marriage_points", (PyCFunction)State_marriage_points, METH_O,
     "marriage_points($self, seat, /)\n--\n\nMarriage points announced and not pending."},
    {"pending_points", (PyCFunction)State_pending_points, METH_O,
     "pending_points($self, seat, /)\n--\n\nMarriage points waiting for seat's next trick won."},
    {"score", (PyCFunction)State_score, METH_O,
     "score($self, seat, /)\n--\n\nThe total toward 66: card points, counted marriages, last-trick bonus."},
    {"stock_cards", (PyCFunction)State_stock_cards, METH_NOARGS,
     "stock_cards($self, /)\n--\n\nThe cards left in the stock, next to be drawn first."},
    {"history", (PyCFunction)State_history, METH_NOARGS,
     "history($self, /)\n--\n\nEvery action pushed on this state, as (code, seat)."},
    {"depth", (PyCFunction)State_depth, METH_NOARGS, "depth($self, /)\n--\n\nHow many actions pop() can take back."},
    {"value", (PyCFunction)State_value, METH_NOARGS,
     "value($self, /)\n--\n\nGame points of a finished hand for seat 0."},
    {"trick_history", (PyCFunction)State_trick_history, METH_NOARGS,
     "trick_history($self, /)\n--\n\nEvery trick completed by the actions pushed, as (leader, lead, follow,\n"
     "winner); the winner -1 for a revoke (R10.2)."},
    {"marriages_shown", (PyCFunction)State_marriages_shown, METH_NOARGS,
     "marriages_shown($self, /)\n--\n\nEvery marriage shown by the actions pushed, as (seat, suit, value,\n"
     "at_trick)."},
    {"exchanged", (PyCFunction)State_exchanged, METH_NOARGS,
     "exchanged($self, /)\n--\n\nWho exchanged by an action pushed and the turned-up card he took,\n"
     "or (-1, -1)."},
    {"scoring", (PyCFunction)State_scoring, METH_NOARGS,
     "scoring($self, /)\n--\n\nHow the game points of a finished hand were decided: the tables.Scoring\n"
     "and the loser's total and tricks it was measured on, (0, 0, 0) when there is no loser."},
    {"failed_close_points", (PyCFunction)State_failed_close_points, METH_NOARGS,
     "failed_close_points($self, /)\n--\n\nThe game points a failed close gives the closer's opponent "
     "(R6.4), as judged\nwhen the stock was closed; 0 while nobody closed."},
    {"key", (PyCFunction)State_key, METH_NOARGS,
     "key($self, /)\n--\n\nThe whole state as a tuple (history aside)."},
    {"refusal", (PyCFunction)State_refusal, METH_O,
     "refusal($self, code, /)\n--\n\nWhy the action code may not be taken now: a tables.Refused code\n"
     "(0, LEGAL, when it may) and its argument, a card index or a number (-1 for none)."},
    {"legal_mask", (PyCFunction)State_legal_mask, METH_NOARGS,
     "legal_mask($self, /)\n--\n\nThe legal actions as a bitmask over action codes."},
    {"push", (PyCFunction)State_push, METH_O,
     "push($self, code, /)\n--\n\nApply the action code, which must be legal (not checked)."},
    {"pop", (PyCFunction)State_pop, METH_NOARGS, "pop($self, /)\n--\n\nTake back the last action and return its code."},
    {"forfeit", (PyCFunction)State_forfeit, METH_O,
     "forfeit($self, seat, /)\n--\n\nEnd the hand: seat's program failed, the opponent scores 3."},
    {"deal_hidden", (PyCFunction)(void (*)(void))State_deal_hidden, METH_FASTCALL | METH_KEYWORDS,
     "deal_hidden($self, seat, hand, stock)\n--\n\nGive seat the cards hand and the stock the order stock."},
    {"random_playout", (PyCFunction)State_random_playout, METH_O,
     "random_playout($self, seed, /)\n--\n\nPlay on to the end at random (Rng seed); returns value()."},
    {"perft", (PyCFunction)State_perft, METH_O,
     "perft($self, depth, /)\n--\n\nThe number of legal action sequences of length depth from here, by push\n"
     "and pop (a finished hand has no actions: a sequence that ends it is not extended)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sixtysix.kernel._crules.State",
    .tp_doc = "One hand's whole state on bitmasks, with make/unmake (the compiled rules).",
    .tp_basicsize = sizeof(StateObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = State_new,
    .tp_dealloc = (destructor)State_dealloc,
    .tp_methods = State_methods,
    .tp_getset = State_getset,
};

/* The Python type Rng ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    uint64_t x;
} RngObject;

static int Rng_init(RngObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"seed", NULL};
    PyObject *seed;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:Rng", kwlist, &seed))
        return -1;
    uint64_t x = PyLong_AsUnsignedLongLongMask(seed);
    if (x == (uint64_t)-1 && PyErr_Occurred())
        return -1;
    self->x = x;
    return 0;
}

static PyObject *Rng_next64(RngObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromUnsignedLongLong(k_rng_next(&self->x));
}

static PyObject *Rng_random(RngObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyFloat_FromDouble((double)(k_rng_next(&self->x) >> 11) * (1.0 / 9007199254740992.0));
}

static PyObject *Rng_below(RngObject *self, PyObject *n) {
    uint64_t hi = k_rng_next(&self->x) >> 32;
    if (PyLong_Check(n)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(n, &overflow);
        if (v == -1 && PyErr_Occurred())
            return NULL;
        if (!overflow && v >= 0 && v <= (1LL << 32))
            return PyLong_FromUnsignedLongLong((hi * (uint64_t)v) >> 32);
    }
    /* Any other n: the pure kernel's arithmetic on Python numbers. */
    PyObject *h = PyLong_FromUnsignedLongLong(hi);
    if (!h)
        return NULL;
    PyObject *prod = PyNumber_Multiply(h, n);
    Py_DECREF(h);
    if (!prod)
        return NULL;
    PyObject *shift = PyLong_FromLong(32);
    if (!shift) {
        Py_DECREF(prod);
        return NULL;
    }
    PyObject *r = PyNumber_Rshift(prod, shift);
    Py_DECREF(prod);
    Py_DECREF(shift);
    return r;
}

static PyMethodDef Rng_methods[] = {
    {"next64", (PyCFunction)Rng_next64, METH_NOARGS, "next64($self, /)\n--\n\nThe next 64-bit number."},
    {"random", (PyCFunction)Rng_random, METH_NOARGS,
     "random($self, /)\n--\n\nA float in [0, 1) from the top 53 bits of the next number."},
    {"below", (PyCFunction)Rng_below, METH_O,
     "below($self, n, /)\n--\n\nA number in range(n) (n at most 2**32; a bias under n / 2**32)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject RngType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sixtysix.kernel._crules.Rng",
    .tp_doc = "Rng(seed)\n--\n\nThe kernels' random numbers: SplitMix64, the same sequence in both kernels.",
    .tp_basicsize = sizeof(RngObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rng_init,
    .tp_methods = Rng_methods,
};

int crules_ready(void) {
    return PyType_Ready(&StateType) < 0 || PyType_Ready(&RngType) < 0 ? -1 : 0;
}

/* The module of the rules alone ---------------------------------------------------------- */

static struct PyModuleDef crules_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sixtysix.kernel._crules",
    .m_doc = "The compiled rules alone: State and Rng, the same as sixtysix.kernel._pure_rules,\n"
             "in C (the engine, sixtysix.kernel._ckernel, builds its State on them).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__crules(void) {
    if (crules_ready() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&crules_module);
    if (!m)
        return NULL;
    if (PyModule_AddStringConstant(m, "NAME", "c") < 0
        || PyModule_AddIntConstant(m, "UNDO_CAPACITY", UNDO_CAP) < 0
        || PyModule_AddObjectRef(m, "State", (PyObject *)&StateType) < 0
        || PyModule_AddObjectRef(m, "Rng", (PyObject *)&RngType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
