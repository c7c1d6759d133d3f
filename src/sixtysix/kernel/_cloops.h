/* Whole loops in the kernel: the types Tables (_pure_tables.Tables) and Search
 * (_pure_search.Search), in C.
 *
 * Included by _ckernel.c after the Solver type and before the module definition:
 * it uses the kernel's functions on a KState (k_legal_mask, k_push, k_policy_code,
 * k_playout, k_solve, the Rng), the Python types State and Solver and the argument
 * helpers defined there.
 *
 * Both types run their loops with no Python call and the GIL released: the
 * arguments are read into C arrays first, buffers are held through the buffer
 * protocol, a Tables object refuses to be used from two threads at once, and a
 * Solver is marked busy while a Search uses its table (Solver.value and clear
 * refuse it meanwhile).
 *
 * Both give exactly what the pure classes give for the same arguments and seeds:
 * the same random numbers drawn in the same order, the same floating-point
 * operations in double in the same order (compile without -ffast-math and without
 * contracting a * b + c into one instruction: setup.py passes -ffp-contract=off).
 */

#include <math.h>
#include <time.h>
#if defined(_WIN32)
#include <windows.h>
#endif

/* Errors found with the GIL released, raised once it is held again. */
enum {
    KL_OK = 0,
    KL_ERR_NOMEM = 1,    /* MemoryError */
    KL_ERR_HISTORY = 2,  /* OverflowError: a line of play outgrew the history */
    KL_ERR_NOACTION = 3, /* ValueError: no legal action in an unfinished hand */
    KL_ERR_STOCK = 4,    /* ValueError: a sampled stock does not fill the stock's places */
    KL_ERR_VALUE = 5     /* ValueError: a result outside -3..3 game points */
};

static PyObject *kl_raise(int err) {
    switch (err) {
    case KL_ERR_NOMEM:
        return PyErr_NoMemory();
    case KL_ERR_HISTORY:
        PyErr_SetString(PyExc_OverflowError, "a line of play outgrew the history (64 actions)");
        return NULL;
    case KL_ERR_NOACTION:
        PyErr_SetString(PyExc_ValueError, "no legal action in an unfinished hand");
        return NULL;
    case KL_ERR_STOCK:
        PyErr_SetString(PyExc_ValueError,
                        "a sampled world's stock does not fill the state's stock (check unseen, "
                        "allowed, free, must and last)");
        return NULL;
    default:
        PyErr_SetString(PyExc_ValueError, "a hand ended with more than 3 game points");
        return NULL;
    }
}

/* Seconds on a monotonic clock. */
static double kl_now(void) {
#if defined(_WIN32)
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
}

/* A card index as a bit (0 for anything outside 0-23: never in legal play). */
static inline uint32_t kl_bit(int card) {
    return (card >= 0 && card < N_CARDS) ? 1u << card : 0u;
}

/* Buffers ------------------------------------------------------------------------------ */

/* Whether fmt (a buffer's format, NULL meaning "B") is one of the one-letter codes in
 * codes, with a native byte-order prefix at most. */
static int kl_format_is(const char *fmt, const char *codes) {
    if (!fmt)
        fmt = "B";
    if (*fmt == '@' || *fmt == '=')
        fmt++;
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    else if (*fmt == '<')
        fmt++;
#elif defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    else if (*fmt == '>' || *fmt == '!')
        fmt++;
#endif
    return fmt[0] != '\0' && fmt[1] == '\0' && strchr(codes, fmt[0]) != NULL;
}

/* Get a C-contiguous buffer of count items of itemsize bytes whose format is one of
 * codes (writable unless readonly is allowed); what names it and desc its type in the
 * errors. Returns -1 with an exception set, the buffer not held. */
static int kl_get_buffer(PyObject *obj, Py_buffer *view, const char *what, const char *desc, const char *codes,
                         Py_ssize_t itemsize, Py_ssize_t count, int writable) {
    if (!PyObject_CheckBuffer(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be a buffer of %s (a NumPy array), not %.200s", what, desc,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS_RO | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        if (writable && PyObject_GetBuffer(obj, view, PyBUF_RECORDS_RO) == 0) {
            PyBuffer_Release(view);
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s must be a writable buffer of %s, not a read-only one", what, desc);
        }
        return -1;
    }
    if (!PyBuffer_IsContiguous(view, 'C')) {
        PyErr_Format(PyExc_ValueError, "buffers must be C-contiguous (%s is not)", what);
        goto fail;
    }
    if (view->itemsize != itemsize || !kl_format_is(view->format, codes)) {
        PyErr_Format(PyExc_TypeError, "%s must hold %s, not items of format '%s' (%zd bytes)", what, desc,
                     view->format ? view->format : "B", view->itemsize);
        goto fail;
    }
    if (view->len != count * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items, not %zd", what, count, view->len / itemsize);
        goto fail;
    }
    return 0;
fail:
    PyBuffer_Release(view);
    return -1;
}

/* The type Tables (_pure_tables.Tables) ------------------------------------------------- */

#define KL_BLOCKS 23
#define KL_FORFEIT (-3.0)

/* The observation blocks, in the order of _pure_tables.OBSERVATION_BLOCKS, and how many
 * numbers the kernel may write into each (the match block: none). */
enum {
    OB_MY_HAND, OB_MY_TRICKS, OB_OPP_TRICKS, OB_TABLE, OB_LAST_TRICK, OB_STOCK_BOTTOM, OB_OPP_KNOWN,
    OB_UNSEEN, OB_TRUMP_SUIT, OB_STATE, OB_MY_TURN, OB_I_LEAD, OB_I_DEALT, OB_STOCK, OB_CLOSED, OB_SCORES,
    OB_CARD_POINTS, OB_TRICKS_WON, OB_REACHED, OB_MY_MARRIAGES, OB_OPP_MARRIAGES, OB_EXCHANGE, OB_MATCH
};
static const int KL_BLOCK_WIDTH[KL_BLOCKS] = {24, 24, 24, 24, 24, 24, 24, 24, 4, 4, 1, 1, 1,
                                              1,  2,  2,  2,  2,  4,  4,  4,  2, 0};

typedef struct {
    PyObject_HEAD
    PyObject *config;
    KConfig cfg;
    Py_ssize_t count;
    Py_ssize_t size;               /* numbers in one observation */
    Py_ssize_t offsets[KL_BLOCKS]; /* where each block starts */
    double scale;                  /* point_scale */
    int opponent;                  /* 0 random, 1 the playout policy */
    int seat;                      /* the agent's seat, -1 drawn for each hand */
    int npack;
    int8_t pack[N_CARDS];          /* the cards dealt, in index order */
    uint32_t pack_mask;
    uint64_t rng;
    KState *states;                /* count of them, once reset */
    int8_t *seats, *dealers, *done;
    int ready;                     /* reset was called */
    int busy;                      /* reset or step runs (the GIL released) */
} TablesObject;

static PyTypeObject TablesType;

/* _honest: the legal actions without the declarations that would be false (R8.3). */
static inline uint64_t kl_honest(KState *s) {
    uint64_t m = k_legal_mask(s);
    int p = s->to_act;
    if ((m & BIT_DECLARE) && k_score(s, p) < WINNING_TOTAL)
        m &= ~BIT_DECLARE;
    unsigned shows = (unsigned)(m >> DECLARE_MARRIAGE & 0xFu);
    for (int suit = 0; suit < 4; suit++) {
        if ((shows >> suit & 1u)
            && s->points[p] + s->marriages[p] + k_marriage_value(suit, s->trump) < WINNING_TOTAL)
            m &= ~(1ULL << (DECLARE_MARRIAGE + suit));
    }
    return m;
}

/* _opponent_plays: the opponent acts until seat is to act or the hand is over. */
static int kl_opponent_plays(TablesObject *t, KState *s, int seat) {
    while (s->phase != PH_OVER && s->to_act != seat) {
        int code;
        if (t->opponent == 1) {
            code = k_policy_code(s, 1, 0, NULL, 0.0);
        } else {
            uint64_t m = kl_honest(s);
            uint64_t k = k_rng_below(&t->rng, (uint64_t)K_POPCOUNT(m));
            while (k--)
                m &= m - 1;
            code = m ? K_CTZ(m) : -1;
        }
        if (code < 0 || code >= NUM_CODES)
            return KL_ERR_NOACTION;
        if (s->depth >= UNDO_CAP)
            return KL_ERR_HISTORY;
        k_push(s, code);
    }
    return KL_OK;
}

/* _deal: table i dealt anew (shuffled by the tables' Rng), the opponent playing up to
 * the agent's first turn; dealt again should the hand end before it. */
static int kl_deal(TablesObject *t, Py_ssize_t i) {
    KState *s = &t->states[i];
    for (;;) {
        int8_t deck[N_CARDS];
        int n = t->npack;
        memcpy(deck, t->pack, (size_t)n);
        for (int j = n - 1; j > 0; j--) {
            int k = (int)k_rng_below(&t->rng, (uint64_t)(j + 1));
            int8_t x = deck[j];
            deck[j] = deck[k];
            deck[k] = x;
        }
        int dealer = (int)k_rng_below(&t->rng, 2);
        int seat = t->seat >= 0 ? t->seat : (int)k_rng_below(&t->rng, 2);
        k_deal(s, &t->cfg, deck, dealer);
        int r = kl_opponent_plays(t, s, seat);
        if (r)
            return r;
        if (s->phase != PH_OVER) {
            t->seats[i] = (int8_t)seat;
            t->dealers[i] = (int8_t)dealer;
            return KL_OK;
        }
    }
}

static inline void kl_bits(float *out, uint32_t mask) {
    mask &= CARD_BITS;
    while (mask) {
        out[K_CTZ(mask)] = 1.0f;
        mask &= mask - 1;
    }
}

/* min(x, 1.0) as Python computes it. */
static inline double kl_min1(double x) {
    return 1.0 < x ? 1.0 : x;
}

/* What an observation needs of the past that a state does not hold: the cards each
 * seat won, the marriages each showed (suits as bits), who exchanged and the card he
 * took, the tricks played, the winner of the trick that emptied the stock, the last
 * trick's two cards, the stock's last card (for a state whose stock was empty when it
 * was built without its history). Gathered from the undo records (kl_past_scan), or given for a
 * state built without its history (a search's worlds). */
typedef struct {
    uint32_t won[2];
    unsigned shown[2];
    int exchanged_by, taken;
    int tricks;
    int sixth_winner;
    uint32_t last;
    int face_up; /* the stock's last card once drawn, when the state does not hold it; -1 */
} KLPast;

static void kl_past_clear(KLPast *p) {
    memset(p, 0, sizeof *p);
    p->exchanged_by = -1;
    p->taken = -1;
    p->sixth_winner = -1;
    p->face_up = -1;
}

/* The state's undo records added to what p knew before them. */
static void kl_past_scan(const KState *s, KLPast *p) {
    int trump = s->trump;
    int draws = s->cfg.deck == 24 ? 6 : 5; /* tricks until the stock is gone (R3.4, S2.2) */
    int n = s->depth;
    for (int index = 0; index < n; index++) {
        const KUndo *u = &s->undo[index];
        int code = u->code, phase = u->phase, actor = u->to_act & 1, lead = u->lead;
        if (code < EXCHANGE && phase == PH_FOLLOW) {
            p->last = kl_bit(lead) | kl_bit(code);
            p->tricks++;
            if (!(index == n - 1 && s->reason == R_REVOKE)) {
                int li = k_table_index(lead);
                int card = k_table_index(code < N_CARDS ? code : -1);
                int beats = K_SUIT_OF[card] == K_SUIT_OF[li] ? code > lead : K_SUIT_OF[card] == trump;
                int winner = beats ? actor : 1 - actor;
                p->won[winner] |= p->last;
                if (p->tricks == draws)
                    p->sixth_winner = winner;
            }
        } else if (code >= MARRIAGE && code < EXCHANGE) {
            p->shown[actor] |= 1u << ((code - MARRIAGE) / 6);
        } else if (code >= DECLARE_MARRIAGE) {
            p->shown[actor] |= 1u << ((code - DECLARE_MARRIAGE) & 3);
        } else if (code == EXCHANGE) {
            p->exchanged_by = actor;
            p->taken = u->stock_last;
        }
    }
}

/* kl_encode with the past given: the observation of seat me into out (zeroed by the
 * caller); the match block is not written. */
static void kl_encode_past(const KState *s, const KLPast *p, int me, int dealer, float *out,
                           const Py_ssize_t *off, double scale, uint32_t pack) {
    int them = 1 - me;
    int trump = s->trump;
    int draws = s->cfg.deck == 24 ? 6 : 5;
    uint32_t hands[2] = {s->hands[0], s->hands[1]};
    uint32_t stock_mask = 0;
    for (int i = s->drawn; i < STOCK_CARDS; i++)
        stock_mask |= kl_bit(s->stock[i]);
    uint32_t played = pack & ~hands[0] & ~hands[1] & ~stock_mask;
    uint32_t known = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (p->shown[them] >> suit & 1u)
            known |= 0xCu << (6 * suit); /* the Queen and the King */
    }
    if (p->exchanged_by == them && p->taken >= 0)
        known |= kl_bit(p->taken);
    int size = STOCK_CARDS - s->drawn;
    int bottom = size == 0 && p->face_up >= 0 ? p->face_up : s->stock[STOCK_CARDS - 1];
    if (size == 0 && s->closed_by < 0 && p->tricks >= draws && p->sixth_winner == me)
        known |= kl_bit(bottom); /* R3.4: he took the face-up card with the last draw */
    known &= ~(played | hands[me]);
    uint32_t seen = hands[me] | played | known;
    if (size > 0) {
        seen |= kl_bit(bottom);
        if (bottom >= 0 && bottom < N_CARDS)
            out[off[OB_STOCK_BOTTOM] + bottom] = 1.0f;
    }
    kl_bits(out + off[OB_MY_HAND], hands[me]);
    kl_bits(out + off[OB_MY_TRICKS], p->won[me]);
    kl_bits(out + off[OB_OPP_TRICKS], p->won[them]);
    if (s->lead >= 0) {
        if (s->lead < N_CARDS)
            out[off[OB_TABLE] + s->lead] = 1.0f;
    } else if (p->tricks) {
        kl_bits(out + off[OB_LAST_TRICK], p->last);
    }
    kl_bits(out + off[OB_OPP_KNOWN], known);
    kl_bits(out + off[OB_UNSEEN], pack & ~seen);
    out[off[OB_TRUMP_SUIT] + (trump & 3)] = 1.0f;
    out[off[OB_STATE] + (s->phase & 3)] = 1.0f;
    int over = s->phase == PH_OVER;
    if (!over && s->to_act == me)
        out[off[OB_MY_TURN]] = 1.0f;
    int leader = s->lead >= 0 ? 1 - s->to_act : (over ? -1 : s->to_act);
    if (leader == me)
        out[off[OB_I_LEAD]] = 1.0f;
    if (dealer == me)
        out[off[OB_I_DEALT]] = 1.0f;
    out[off[OB_STOCK]] = (float)((double)size / 12.0);
    if (s->closed_by >= 0)
        out[off[OB_CLOSED] + (s->closed_by == me ? 0 : 1)] = 1.0f;
    for (int i = 0; i < 2; i++) {
        int seat = i == 0 ? me : them;
        int total = k_score(s, seat);
        out[off[OB_SCORES] + i] = (float)kl_min1((double)total / scale);
        out[off[OB_CARD_POINTS] + i] = (float)kl_min1((double)s->points[seat] / scale);
        out[off[OB_TRICKS_WON] + i] = (float)((double)s->tricks[seat] / 12.0);
        out[off[OB_REACHED] + 2 * i] = total >= 33 ? 1.0f : 0.0f;
        out[off[OB_REACHED] + 2 * i + 1] = total >= 66 ? 1.0f : 0.0f;
    }
    kl_bits(out + off[OB_MY_MARRIAGES], p->shown[me] & 0xFu);
    kl_bits(out + off[OB_OPP_MARRIAGES], p->shown[them] & 0xFu);
    if (p->exchanged_by >= 0)
        out[off[OB_EXCHANGE] + (p->exchanged_by == me ? 0 : 1)] = 1.0f;
}

/* encode: the observation of seat me into out (zeroed by the caller), from the state
 * and its history (the undo records). */
static void kl_encode(const KState *s, int me, int dealer, float *out, const Py_ssize_t *off, double scale,
                      uint32_t pack) {
    KLPast p;
    kl_past_clear(&p);
    kl_past_scan(s, &p);
    kl_encode_past(s, &p, me, dealer, out, off, scale, pack);
}

/* _write: table i's observation and action mask. */
static void kl_write(const TablesObject *t, Py_ssize_t i, float *obs, int8_t *masks) {
    KState *s = &t->states[i];
    int me = t->seats[i];
    float *out = obs + i * t->size;
    memset(out, 0, (size_t)t->size * sizeof(float));
    kl_encode(s, me, t->dealers[i], out, t->offsets, t->scale, t->pack_mask);
    uint64_t m = (s->phase != PH_OVER && s->to_act == me) ? k_legal_mask(s) : 0;
    int8_t *mask = masks + i * NUM_CODES;
    for (int code = 0; code < NUM_CODES; code++)
        mask[code] = (int8_t)(m >> code & 1u);
}

/* reset's loop: every table dealt, its observation written. */
static int kl_tables_reset(TablesObject *t, float *obs, int8_t *masks) {
    for (Py_ssize_t i = 0; i < t->count; i++) {
        int r = kl_deal(t, i);
        if (r)
            return r;
        t->done[i] = 0;
        kl_write(t, i, obs, masks);
    }
    return KL_OK;
}

/* step's loop. actions: int64, terminated: one byte each. */
static int kl_tables_step(TablesObject *t, const int64_t *actions, float *obs, int8_t *masks, float *rewards,
                          uint8_t *terminated) {
    for (Py_ssize_t i = 0; i < t->count; i++) {
        double reward = 0.0;
        KState *s = &t->states[i];
        if (t->done[i]) {
            int r = kl_deal(t, i);
            if (r)
                return r;
            t->done[i] = 0;
        } else {
            int seat = t->seats[i];
            int64_t code = actions[i];
            if (code >= 0 && code < NUM_CODES && (k_legal_mask(s) >> code & 1u)) {
                if (s->depth >= UNDO_CAP)
                    return KL_ERR_HISTORY;
                k_push(s, (int)code);
                int r = kl_opponent_plays(t, s, seat);
                if (r)
                    return r;
                if (s->phase == PH_OVER) {
                    int v = k_value(s);
                    reward = (double)(seat == 0 ? v : -v);
                }
            } else {
                k_forfeit(s, seat);
                reward = KL_FORFEIT;
            }
            t->done[i] = s->phase == PH_OVER;
        }
        rewards[i] = (float)reward;
        terminated[i] = (uint8_t)(t->done[i] != 0);
        kl_write(t, i, obs, masks);
    }
    return KL_OK;
}

/* The blocks' offsets and the observation's size (KL_BLOCKS + 1 ints) from o into
 * offsets (their ranges are the caller's to check); -1 with an error. */
static int kl_offsets(PyObject *o, Py_ssize_t *offsets) {
    PyObject *seq = PySequence_Fast(o, "offsets must be a sequence of ints");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != KL_BLOCKS + 1) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "offsets must give %d blocks and the size", KL_BLOCKS);
        return -1;
    }
    for (int i = 0; i <= KL_BLOCKS; i++) {
        offsets[i] = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(seq, i), PyExc_OverflowError);
        if (offsets[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static int Tables_init(TablesObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"count", "config", "offsets", "point_scale", "opponent", "seat", NULL};
    PyObject *count_o, *config, *offsets_o, *scale_o, *opponent_o, *seat_o;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOO:Tables", kwlist, &count_o, &config, &offsets_o,
                                     &scale_o, &opponent_o, &seat_o))
        return -1;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the tables are being stepped in another thread");
        return -1;
    }
    int overflow = 0;
    long long count = PyLong_AsLongLongAndOverflow(count_o, &overflow);
    if (count == -1 && PyErr_Occurred())
        return -1;
    if (overflow < 0 || (!overflow && count < 1)) {
        PyErr_Format(PyExc_ValueError, "count must be at least 1, not %R", count_o);
        return -1;
    }
    if (overflow || count > (long long)(PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(KState))) {
        PyErr_Format(PyExc_ValueError, "count is too large: %R", count_o);
        return -1;
    }
    KConfig cfg;
    if (read_config(config, &cfg) < 0)
        return -1;
    Py_ssize_t offsets[KL_BLOCKS + 1];
    if (kl_offsets(offsets_o, offsets) < 0)
        return -1;
    Py_ssize_t size = offsets[KL_BLOCKS];
    if (size < 1 || size > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(float) / (Py_ssize_t)count) {
        PyErr_Format(PyExc_ValueError, "the observation size must be positive, not %zd", size);
        return -1;
    }
    for (int i = 0; i < KL_BLOCKS; i++) {
        if (offsets[i] < 0 || offsets[i] > size - KL_BLOCK_WIDTH[i]) {
            PyErr_Format(PyExc_ValueError, "block %d (offset %zd, %d numbers) does not fit an observation of %zd",
                         i, offsets[i], KL_BLOCK_WIDTH[i], size);
            return -1;
        }
    }
    double scale = PyFloat_AsDouble(scale_o);
    if (scale == -1.0 && PyErr_Occurred())
        return -1;
    if (!(scale > 0.0)) {
        PyErr_Format(PyExc_ValueError, "point_scale must be positive, not %R", scale_o);
        return -1;
    }
    long opponent = -1, seat = -2;
    if (PyLong_Check(opponent_o)) {
        opponent = PyLong_AsLongAndOverflow(opponent_o, &overflow);
        if (opponent == -1 && PyErr_Occurred())
            return -1;
        if (overflow)
            opponent = -1;
    }
    if (opponent < 0 || opponent > 1) {
        PyErr_Format(PyExc_ValueError, "opponent must be 0-1, not %R", opponent_o);
        return -1;
    }
    if (PyLong_Check(seat_o)) {
        seat = PyLong_AsLongAndOverflow(seat_o, &overflow);
        if (seat == -1 && PyErr_Occurred())
            return -1;
        if (overflow)
            seat = -2;
    }
    if (seat < -1 || seat > 1) {
        PyErr_Format(PyExc_ValueError, "seat must be 0, 1 or -1 (random), not %R", seat_o);
        return -1;
    }
    KState *states = (KState *)PyMem_Calloc((size_t)count, sizeof(KState));
    int8_t *small = (int8_t *)PyMem_Calloc((size_t)count, 3);
    if (!states || !small) {
        PyMem_Free(states);
        PyMem_Free(small);
        PyErr_NoMemory();
        return -1;
    }
    PyMem_Free(self->states);
    PyMem_Free(self->seats);
    self->states = states;
    self->seats = small;
    self->dealers = small + count;
    self->done = small + 2 * count;
    Py_INCREF(config);
    Py_XSETREF(self->config, config);
    self->cfg = cfg;
    self->count = (Py_ssize_t)count;
    self->size = size;
    memcpy(self->offsets, offsets, sizeof self->offsets);
    self->scale = scale;
    self->opponent = (int)opponent;
    self->seat = (int)seat;
    self->npack = 0;
    self->pack_mask = 0;
    for (int c = 0; c < N_CARDS; c++) {
        if (cfg.deck == 24 || c % 6) {
            self->pack[self->npack++] = (int8_t)c;
            self->pack_mask |= 1u << c;
        }
    }
    self->rng = 0;
    self->ready = 0;
    return 0;
}

static void Tables_dealloc(TablesObject *self) {
    Py_XDECREF(self->config);
    PyMem_Free(self->states);
    PyMem_Free(self->seats);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int kl_tables_usable(TablesObject *self) {
    if (!self->states) {
        PyErr_SetString(PyExc_RuntimeError, "the tables were not initialised");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the tables are being stepped in another thread");
        return -1;
    }
    return 0;
}

static PyObject *Tables_reset(TablesObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"seed", "observations", "masks"};
    PyObject *a[3];
    if (parse_fast(args, nargs, kwnames, "reset", names, 3, a) < 0)
        return NULL;
    if (kl_tables_usable(self) < 0)
        return NULL;
    uint64_t seed = PyLong_AsUnsignedLongLongMask(a[0]);
    if (seed == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    Py_buffer obs, masks;
    if (kl_get_buffer(a[1], &obs, "observations", "float32 ('f')", "f", 4, self->count * self->size, 1) < 0)
        return NULL;
    if (kl_get_buffer(a[2], &masks, "masks", "int8 ('b')", "b", 1, self->count * NUM_CODES, 1) < 0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    self->rng = seed;
    self->busy = 1;
    self->ready = 0;
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = kl_tables_reset(self, (float *)obs.buf, (int8_t *)masks.buf);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    PyBuffer_Release(&obs);
    PyBuffer_Release(&masks);
    if (r)
        return kl_raise(r);
    self->ready = 1;
    Py_RETURN_NONE;
}

static PyObject *Tables_step(TablesObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"actions", "observations", "masks", "rewards", "terminated"};
    PyObject *a[5];
    if (parse_fast(args, nargs, kwnames, "step", names, 5, a) < 0)
        return NULL;
    if (kl_tables_usable(self) < 0)
        return NULL;
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "reset the tables before stepping them");
        return NULL;
    }
    Py_ssize_t n = self->count;
    Py_buffer b[5];
    int held = 0;
    if (kl_get_buffer(a[0], &b[0], "actions", "int64 ('q')", sizeof(long) == 8 ? "ql" : "q", 8, n, 0) < 0)
        goto fail;
    held++;
    if (kl_get_buffer(a[1], &b[1], "observations", "float32 ('f')", "f", 4, n * self->size, 1) < 0)
        goto fail;
    held++;
    if (kl_get_buffer(a[2], &b[2], "masks", "int8 ('b')", "b", 1, n * NUM_CODES, 1) < 0)
        goto fail;
    held++;
    if (kl_get_buffer(a[3], &b[3], "rewards", "float32 ('f')", "f", 4, n, 1) < 0)
        goto fail;
    held++;
    if (kl_get_buffer(a[4], &b[4], "terminated", "bool ('?') or uint8 ('B')", "?B", 1, n, 1) < 0)
        goto fail;
    held++;
    self->busy = 1;
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = kl_tables_step(self, (const int64_t *)b[0].buf, (float *)b[1].buf, (int8_t *)b[2].buf, (float *)b[3].buf,
                       (uint8_t *)b[4].buf);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    for (int i = 0; i < held; i++)
        PyBuffer_Release(&b[i]);
    if (r) {
        self->ready = 0; /* a table is left half stepped: reset them */
        return kl_raise(r);
    }
    Py_RETURN_NONE;
fail:
    for (int i = 0; i < held; i++)
        PyBuffer_Release(&b[i]);
    return NULL;
}

static PyObject *Tables_table(TablesObject *self, PyObject *arg) {
    if (kl_tables_usable(self) < 0)
        return NULL;
    Py_ssize_t i = PyNumber_AsSsize_t(arg, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (i < 0)
        i += self->count;
    if (!self->ready || i < 0 || i >= self->count) {
        PyErr_SetString(PyExc_IndexError, "table index out of range");
        return NULL;
    }
    StateObject *copy = state_alloc(&EngineStateType, self->config);
    if (!copy)
        return NULL;
    const KState *s = &self->states[i];
    memcpy(&copy->k, s, KSTATE_HEAD_SIZE);
    memcpy(copy->k.undo, s->undo, (size_t)s->depth * sizeof(KUndo));
    return Py_BuildValue("(Nii)", (PyObject *)copy, (int)self->seats[i], (int)self->dealers[i]);
}

static PyObject *Tables_get_count(TablesObject *self, void *Py_UNUSED(closure)) {
    return PyLong_FromSsize_t(self->count);
}

static PyObject *Tables_get_size(TablesObject *self, void *Py_UNUSED(closure)) {
    return PyLong_FromSsize_t(self->size);
}

static PyObject *Tables_get_config(TablesObject *self, void *Py_UNUSED(closure)) {
    if (!self->config)
        Py_RETURN_NONE;
    Py_INCREF(self->config);
    return self->config;
}

static PyGetSetDef Tables_getset[] = {
    {"count", (getter)Tables_get_count, NULL, "How many tables.", NULL},
    {"size", (getter)Tables_get_size, NULL, "The numbers in one observation.", NULL},
    {"config", (getter)Tables_get_config, NULL, "The rule options (tables.Config) the hands are played by.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Tables_methods[] = {
    {"reset", (PyCFunction)(void (*)(void))Tables_reset, METH_FASTCALL | METH_KEYWORDS,
     "reset($self, seed, observations, masks)\n--\n\n"
     "Deal every table from the random numbers of seed; write the first observations and masks."},
    {"step", (PyCFunction)(void (*)(void))Tables_step, METH_FASTCALL | METH_KEYWORDS,
     "step($self, actions, observations, masks, rewards, terminated)\n--\n\n"
     "Play each table's action (an illegal one forfeits: reward -3), then the opponent\n"
     "until the agent is to act or the hand is over; write observations, masks, rewards\n"
     "(the agent's game points at the end of a hand, else 0) and terminated flags."},
    {"table", (PyCFunction)Tables_table, METH_O,
     "table($self, i, /)\n--\n\nTable i: a copy of its state, the agent's seat and the dealer."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sixtysix.kernel._ckernel.Tables",
    .tp_doc = "Tables(count, config, offsets, point_scale, opponent, seat)\n--\n\n"
              "count tables of one hand each; the agent plays seat (0, 1, or -1 for a random\n"
              "seat each hand) against opponent (an index of OPPONENTS: random, policy).\n\n"
              "Buffers are writable C-contiguous buffers (NumPy arrays): observations\n"
              "float32[count, size], masks int8[count, 56], rewards float32[count], terminated\n"
              "bool or uint8[count], actions int64[count]. A table whose hand ended is dealt\n"
              "anew at the next step (its action is ignored, its reward 0).",
    .tp_basicsize = sizeof(TablesObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tables_init,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_methods = Tables_methods,
    .tp_getset = Tables_getset,
};

/* The type Search (_pure_search.Search) -------------------------------------------------- */

/* A node of the tree: an information set reached by a sequence of actions. Nodes live
 * in one array and name each other by index; a node's children are a list in code
 * order. */
typedef struct {
    double total;      /* summed rewards */
    double squares;    /* summed squared rewards (the root's children only) */
    long long visits;
    long long avail;   /* visits to the parent in which this action was legal (from 1) */
    int32_t child;     /* the first child, or -1 */
    int32_t next;      /* the next sibling, or -1 */
    int8_t code;       /* the action that leads here */
    int8_t prior;      /* the playout policy's action here; -2 not asked yet */
} KLNode;

#define KL_MAX_CARDS 64 /* most cards in allowed or unseen */
#define KL_PATH_CAP (UNDO_CAP + 2)

/* What a search is asked (Search's settings and run's arguments, in C). */
typedef struct {
    int me;
    double c, bias, epsilon;
    int solve_cards;
    double utility[7];
    int opponent;
    int nlayouts;
    uint32_t *lay_hand;   /* nlayouts hands */
    int8_t *lay_stock;    /* nlayouts stocks of nstock cards */
    int nstock;           /* places of the stock left: 12 - drawn */
    uint32_t must;
    int nallowed, free, nunseen, ordered, last;
    int8_t allowed[KL_MAX_CARDS];
    int8_t unseen[KL_MAX_CARDS];
    long long iterations;
    double seconds;
    double settle, tolerance;
    double prior;             /* the root prior's weight (PUCT) */
    const double *root_prior; /* a probability by action code, or NULL */
    int cards_only;           /* the tree holds card plays only (k_fixed_code takes the rest) */
} KLSearchArgs;

typedef struct {
    KLNode *nodes;
    int32_t count, capacity;
    int8_t root_order[NUM_CODES]; /* the root's children in the order they were added */
    int nroot;
    uint64_t rng;
    KSolver *solver;
    KState world;
    KState work; /* what the solver searches */
} KLSearchRun;

/* A new node (its index), or -1 when out of memory. */
static int32_t kl_node_new(KLSearchRun *run, int code) {
    if (run->count >= run->capacity) {
        if (run->capacity >= INT32_MAX / 2)
            return -1;
        int32_t cap = run->capacity ? run->capacity * 2 : 1024;
        KLNode *nodes = (KLNode *)PyMem_RawRealloc(run->nodes, (size_t)cap * sizeof(KLNode));
        if (!nodes)
            return -1;
        run->nodes = nodes;
        run->capacity = cap;
    }
    KLNode *n = &run->nodes[run->count];
    n->total = 0.0;
    n->squares = 0.0;
    n->visits = 0;
    n->avail = 1;
    n->child = -1;
    n->next = -1;
    n->code = (int8_t)code;
    n->prior = -2;
    return run->count++;
}

/* _phase2: a position with the stock closed or exhausted, played on by the policy until
 * solve_cards are left, then solved. */
static int kl_phase2(const KLSearchArgs *a, KLSearchRun *run, KState *w, int *value) {
    if (w->phase != PH_OVER && K_POPCOUNT(w->hands[w->to_act]) > a->solve_cards) {
        uint64_t prng = k_rng_next(&run->rng);
        int r = k_playout(w, &prng, a->epsilon, 0, 0, a->solve_cards);
        if (r == -1)
            return KL_ERR_HISTORY;
        if (r < 0)
            return KL_ERR_NOACTION;
    }
    if (w->phase == PH_OVER) {
        *value = k_value(w);
        return KL_OK;
    }
    int v = k_solve(run->solver, w, -3, 3, &run->work);
    if (v == -9)
        return KL_ERR_NOMEM;
    if (v == -10)
        return KL_ERR_HISTORY;
    *value = v;
    return KL_OK;
}

/* _evaluate: the value for seat 0 of a position just added to the tree. */
static int kl_evaluate(const KLSearchArgs *a, KLSearchRun *run, KState *w, int *value) {
    if (w->phase == PH_OVER) {
        *value = k_value(w);
        return KL_OK;
    }
    if (k_stock_open(w)) {
        uint64_t prng = k_rng_next(&run->rng);
        int r = k_playout(w, &prng, a->epsilon, 0, 0, a->solve_cards);
        if (r == -1)
            return KL_ERR_HISTORY;
        if (r < 0)
            return KL_ERR_NOACTION;
        if (w->phase == PH_OVER) {
            *value = k_value(w);
            return KL_OK;
        }
    }
    return kl_phase2(a, run, w, value);
}

/* _sample: a uniform layout of the hidden cards into the world: the opponent's hand and
 * the stock. */
static int kl_sample(const KLSearchArgs *a, KLSearchRun *run, KState *w) {
    int n = a->nallowed;
    uint32_t hand = a->must;
    int8_t pool[KL_MAX_CARDS];
    memcpy(pool, a->allowed, (size_t)n);
    for (int i = 0; i < a->free; i++) {
        int j = i + (int)k_rng_below(&run->rng, (uint64_t)(n - i));
        int8_t x = pool[i];
        pool[i] = pool[j];
        pool[j] = x;
        hand |= 1u << pool[i];
    }
    int8_t stock[KL_MAX_CARDS + 1];
    int m = 0;
    for (int i = 0; i < a->nunseen; i++) {
        if (!(hand >> a->unseen[i] & 1u))
            stock[m++] = a->unseen[i];
    }
    if (a->ordered) {
        for (int i = m - 1; i > 0; i--) {
            int j = (int)k_rng_below(&run->rng, (uint64_t)(i + 1));
            int8_t x = stock[i];
            stock[i] = stock[j];
            stock[j] = x;
        }
    }
    if (a->last >= 0)
        stock[m++] = (int8_t)a->last;
    if (m != a->nstock)
        return KL_ERR_STOCK;
    w->hands[a->opponent] = hand;
    memcpy(w->stock + (STOCK_CARDS - m), stock, (size_t)m);
    w->lmask_valid = 0;
    return KL_OK;
}

/* Search._settled: whether the choice is settled. The root's most visited action (the
 * lowest code among equals: the children are in code order) leads the next by more than
 * settle times the iterations left (left of the budget, fewer if the time runs out
 * first), or no other action is better by tolerance or more, with two standard errors
 * of the difference to spare. */
static int kl_settled(const KLSearchArgs *a, const KLSearchRun *run, long long left, long long done,
                      double start, double deadline) {
    long long first = 0, second = 0;
    int32_t leader = -1;
    for (int32_t ch = run->nodes[0].child; ch >= 0; ch = run->nodes[ch].next) {
        long long visits = run->nodes[ch].visits;
        if (visits > first) {
            second = first;
            first = visits;
            leader = ch;
        } else if (visits > second) {
            second = visits;
        }
    }
    if (a->settle > 0) {
        double remaining = (double)left;
        if (a->seconds > 0) {
            double now = kl_now();
            double elapsed = now - start > 1e-9 ? now - start : 1e-9;
            double by_time = (double)done * (deadline - now) / elapsed;
            if (by_time < remaining)
                remaining = by_time;
        }
        if ((double)(first - second) > a->settle * remaining)
            return 1;
    }
    if (!(a->tolerance > 0) || done < TOLERANCE_FROM || first < 2)
        return 0;
    const KLNode *l = &run->nodes[leader];
    double mean = l->total / (double)first;
    double v = l->squares / (double)first - mean * mean;
    double spread = (v > 0.0 ? v : 0.0) / (double)first;
    for (int32_t ch = run->nodes[0].child; ch >= 0; ch = run->nodes[ch].next) {
        if (ch == leader)
            continue;
        const KLNode *n = &run->nodes[ch];
        if (n->visits < 2)
            return 0;
        double other = n->total / (double)n->visits;
        double w = n->squares / (double)n->visits - other * other;
        double error = spread + (w > 0.0 ? w : 0.0) / (double)n->visits;
        if (other - mean + 2.0 * sqrt(error) >= a->tolerance)
            return 0;
    }
    return 1;
}

/* _advance: take the policy's fixed actions (k_fixed_code) until a card is to be played
 * or the hand is over. */
static int kl_advance(KState *w) {
    while (w->phase != PH_OVER) {
        int code = k_fixed_code(w, k_legal_mask(w), k_counted(w, w->to_act));
        if (code < 0)
            return KL_OK;
        if (w->depth >= UNDO_CAP)
            return KL_ERR_HISTORY;
        k_push(w, code);
    }
    return KL_OK;
}

/* Search.run's loop: iterations run in *done, the root's prior in *root_prior. The tree
 * is left in run (node 0 the root). */
static int kl_search(const KLSearchArgs *a, const KState *template, KLSearchRun *run, long long *done_out) {
    double start = kl_now();
    double deadline = a->seconds > 0 ? start + a->seconds : 0.0;
    int timed = a->seconds > 0;
    const int me = a->me;
    const double c = a->c, bias = a->bias;
    const int use_bias = bias != 0.0;
    const double *guide = a->prior > 0.0 ? a->root_prior : NULL;
    int next_layout = 0;
    long long done = 0;
    int32_t path[KL_PATH_CAP];
    KState *world = &run->world;
    if (kl_node_new(run, -1) != 0)
        return KL_ERR_NOMEM;
    while (done < a->iterations) {
        if (timed && done && kl_now() >= deadline)
            break;
        if ((a->settle > 0 || a->tolerance > 0) && done >= SETTLE_FROM && done % SETTLE_EVERY == 0 &&
            kl_settled(a, run, a->iterations - done, done, start, deadline))
            break;
        done++;
        memcpy(world, template, KSTATE_HEAD_SIZE);
        if (a->nlayouts) {
            int k = next_layout;
            next_layout = k + 1 < a->nlayouts ? k + 1 : 0;
            world->hands[a->opponent] = a->lay_hand[k];
            memcpy(world->stock + (STOCK_CARDS - a->nstock), a->lay_stock + (size_t)k * (size_t)a->nstock,
                   (size_t)a->nstock);
            world->lmask_valid = 0;
        } else {
            int r = kl_sample(a, run, world);
            if (r)
                return r;
        }
        int32_t node = 0;
        int plen = 1;
        path[0] = 0;
        int value = 0;
        for (;;) {
            if (a->cards_only && node != 0) {
                int r = kl_advance(world);
                if (r)
                    return r;
            }
            if (world->phase == PH_OVER) {
                value = k_value(world);
                break;
            }
            if (node != 0 && !a->cards_only && (world->drawn >= STOCK_CARDS || world->closed_by >= 0)) {
                int r = kl_phase2(a, run, world, &value);
                if (r)
                    return r;
                break;
            }
            uint64_t legal = k_legal_mask(world);
            if (a->cards_only)
                legal = k_card_codes(world, legal);
            int mine = world->to_act == me;
            int prior = -1;
            if (use_bias) {
                prior = run->nodes[node].prior;
                if (prior == -2) {
                    prior = k_policy_code(world, 1, 0, NULL, 0.0);
                    run->nodes[node].prior = (int8_t)prior;
                }
            }
            int best_code = -1;
            double best_score = -HUGE_VAL;
            int32_t best_child = node;
            int untried[NUM_CODES];
            int nuntried = 0;
            int prior_untried = 0;
            const double *guided = node == 0 ? guide : NULL;
            double scale = guided ? a->prior * sqrt((double)run->nodes[0].visits) : 0.0;
            int32_t ch = run->nodes[node].child;
            uint64_t m = legal;
            while (m) {
                int code = K_CTZ(m);
                m &= m - 1;
                while (ch >= 0 && run->nodes[ch].code < code)
                    ch = run->nodes[ch].next;
                if (ch < 0 || run->nodes[ch].code != code) {
                    untried[nuntried++] = code;
                    if (code == prior)
                        prior_untried = 1;
                    continue;
                }
                KLNode *child = &run->nodes[ch];
                child->avail += 1;
                long long visits = child->visits;
                double mean = child->total / (double)visits;
                double score = (mine ? mean : -mean) + c * sqrt(log((double)child->avail) / (double)visits);
                if (code == prior)
                    score += bias / (double)(visits + 1);
                if (guided)
                    score += scale * guided[code] / (double)(1 + visits);
                if (score > best_score) {
                    best_code = code;
                    best_score = score;
                    best_child = ch;
                }
            }
            if (world->depth >= UNDO_CAP || plen >= KL_PATH_CAP)
                return KL_ERR_HISTORY;
            if (nuntried) {
                int code;
                if (guided) {
                    /* The likeliest untried action (the first in code order among equals). */
                    code = untried[0];
                    for (int i = 1; i < nuntried; i++)
                        if (guided[untried[i]] > guided[code])
                            code = untried[i];
                } else if (prior_untried)
                    code = prior;
                else
                    code = nuntried == 1 ? untried[0] : untried[k_rng_below(&run->rng, (uint64_t)nuntried)];
                k_push(world, code);
                int32_t child = kl_node_new(run, code);
                if (child < 0)
                    return KL_ERR_NOMEM;
                /* Into the parent's list, in code order. */
                int32_t *link = &run->nodes[node].child;
                while (*link >= 0 && run->nodes[*link].code < code)
                    link = &run->nodes[*link].next;
                run->nodes[child].next = *link;
                *link = child;
                if (node == 0)
                    run->root_order[run->nroot++] = (int8_t)code;
                path[plen++] = child;
                int r = kl_evaluate(a, run, world, &value);
                if (r)
                    return r;
                break;
            }
            if (best_code < 0)
                return KL_ERR_NOACTION;
            k_push(world, best_code);
            node = best_child;
            path[plen++] = node;
        }
        int result = me == 0 ? value : -value;
        if (result < -3 || result > 3)
            return KL_ERR_VALUE;
        double reward = a->utility[result + 3];
        for (int i = 0; i < plen; i++) {
            KLNode *n = &run->nodes[path[i]];
            n->visits += 1;
            n->total += reward;
        }
        if (plen > 1)
            run->nodes[path[1]].squares += reward * reward;
        *done_out = done;
    }
    *done_out = done;
    return KL_OK;
}

typedef struct {
    PyObject_HEAD
    int seat;
    /* The tree's options, read once from config (a checked TreeConfig). */
    double c, bias, epsilon;
    double settle, tolerance;
    double prior;
    int cards_only;
    int solve_cards;
    double utility[7];
    double root_prior[NUM_CODES];
    int has_root_prior;
    PyObject *config;
    PyObject *utility_tuple;
} SearchObject;

/* The numbers of o (NULL or empty: none) into out, which takes n: 1 when given, 0 when
 * not, -1 with an error (a wrong count names what each is of, e.g. one per card). */
static int kl_numbers(PyObject *o, double *out, int n, const char *name, const char *numbers, const char *per) {
    if (!o)
        return 0;
    PyObject *seq = PySequence_Fast(o, "expected a sequence of numbers");
    if (!seq)
        return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count && count != n) {
        PyErr_Format(PyExc_ValueError, "%s gives %zd %s, not one per %s (%d)", name, count, numbers, per, n);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return count != 0;
}

/* The class sixtysix.kernel.tree.TreeConfig (a new reference), imported when the first
 * search is made: the options are checked there, once, when a config is made. */
static PyObject *kl_tree_config_type(void) {
    static PyObject *type = NULL;
    if (!type) {
        PyObject *module = PyImport_ImportModule("sixtysix.kernel.tree");
        if (!module)
            return NULL;
        type = PyObject_GetAttrString(module, "TreeConfig");
        Py_DECREF(module);
        if (!type)
            return NULL;
    }
    Py_INCREF(type);
    return type;
}

/* The number config.name into *out: 0, or -1 with an error. */
static int kl_option(PyObject *config, const char *name, double *out) {
    PyObject *v = PyObject_GetAttrString(config, name);
    if (!v)
        return -1;
    *out = PyFloat_AsDouble(v);
    Py_DECREF(v);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* The tree's options from config, a TreeConfig (checked when it was made), into self. */
static int kl_read_config(SearchObject *self, PyObject *config) {
    PyObject *type = kl_tree_config_type();
    if (!type)
        return -1;
    int is = PyObject_IsInstance(config, type);
    Py_DECREF(type);
    if (is <= 0) {
        PyObject *name = is == 0 ? PyType_GetName(Py_TYPE(config)) : NULL;
        if (name) {
            PyErr_Format(PyExc_TypeError, "config must be a TreeConfig, not %U", name);
            Py_DECREF(name);
        }
        return -1;
    }
    if (kl_option(config, "c", &self->c) < 0 || kl_option(config, "bias", &self->bias) < 0
        || kl_option(config, "epsilon", &self->epsilon) < 0 || kl_option(config, "settle", &self->settle) < 0
        || kl_option(config, "tolerance", &self->tolerance) < 0
        || kl_option(config, "net_prior", &self->prior) < 0)
        return -1;
    PyObject *cards_only = PyObject_GetAttrString(config, "cards_only");
    if (!cards_only)
        return -1;
    self->cards_only = PyObject_IsTrue(cards_only);
    Py_DECREF(cards_only);
    if (self->cards_only < 0)
        return -1;
    Py_INCREF(config);
    Py_XSETREF(self->config, config);
    return 0;
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"seat", "config", "utility", "solve_cards", "root_prior", NULL};
    PyObject *seat_o, *config, *utility_o, *solve_o = NULL, *root_prior_o = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO|$OO:Search", kwlist, &seat_o, &config, &utility_o,
                                     &solve_o, &root_prior_o))
        return -1;
    int seat = parse_seat(seat_o);
    if (seat < 0)
        return -1;
    long solve_cards = -1;
    if (solve_o && get_int_clamped(solve_o, -1, 1000, &solve_cards) < 0)
        return -1;
    PyObject *tuple = PySequence_Tuple(utility_o);
    if (!tuple)
        return -1;
    if (PyTuple_GET_SIZE(tuple) != 7) {
        Py_DECREF(tuple);
        PyErr_SetString(PyExc_ValueError, "utility must give the worth of each result from -3 to 3 game points");
        return -1;
    }
    double utility[7];
    for (int i = 0; i < 7; i++) {
        utility[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(tuple, i));
        if (utility[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(tuple);
            return -1;
        }
    }
    double root_prior[NUM_CODES];
    int has_root_prior = kl_numbers(root_prior_o, root_prior, NUM_CODES, "root_prior", "probabilities",
                                    "action code");
    if (has_root_prior < 0 || kl_read_config(self, config) < 0) {
        Py_DECREF(tuple);
        return -1;
    }
    self->seat = seat;
    self->solve_cards = (int)solve_cards;
    self->has_root_prior = has_root_prior;
    if (has_root_prior)
        memcpy(self->root_prior, root_prior, sizeof root_prior);
    memcpy(self->utility, utility, sizeof utility);
    Py_XSETREF(self->utility_tuple, tuple);
    return 0;
}

static void Search_dealloc(SearchObject *self) {
    Py_XDECREF(self->config);
    Py_XDECREF(self->utility_tuple);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Card indices from a sequence into out (at most cap of them); their number, or -1. */
static int kl_cards(PyObject *o, const char *what, int8_t *out, int cap) {
    PyObject *seq = PySequence_Fast(o, "expected a sequence of card indices");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > cap) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd cards, more than %d", what, n, cap);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (get_int_in(PySequence_Fast_GET_ITEM(seq, i), 0, N_CARDS - 1, "a card index", &v) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int8_t)v;
    }
    Py_DECREF(seq);
    return (int)n;
}

static PyObject *Search_run(SearchObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"template", "opponent", "layouts", "must", "allowed", "free", "unseen",
                                        "ordered", "last", "iterations", "seconds", "seed", "solver"};
    PyObject *o[13];
    if (parse_fast(args, nargs, kwnames, "run", names, 13, o) < 0)
        return NULL;
    if (!self->utility_tuple) {
        PyErr_SetString(PyExc_RuntimeError, "the search was not initialised");
        return NULL;
    }
    if (!PyObject_TypeCheck(o[0], &EngineStateType)) {
        PyErr_Format(PyExc_TypeError, "template must be a %s, not %.200s", EngineStateType.tp_name,
                     Py_TYPE(o[0])->tp_name);
        return NULL;
    }
    if (!PyObject_TypeCheck(o[12], &SolverType)) {
        PyErr_Format(PyExc_TypeError, "solver must be a %s, not %.200s", SolverType.tp_name,
                     Py_TYPE(o[12])->tp_name);
        return NULL;
    }
    SolverObject *solver = (SolverObject *)o[12];
    KLSearchArgs a;
    memset(&a, 0, sizeof a);
    a.me = self->seat;
    a.c = self->c;
    a.bias = self->bias;
    a.epsilon = self->epsilon;
    a.solve_cards = self->solve_cards;
    a.settle = self->settle;
    a.tolerance = self->tolerance;
    a.prior = self->prior;
    a.root_prior = self->has_root_prior ? self->root_prior : NULL;
    a.cards_only = self->cards_only;
    memcpy(a.utility, self->utility, sizeof a.utility);
    const KState *template = &((StateObject *)o[0])->k;
    a.nstock = STOCK_CARDS - template->drawn;
    if ((a.opponent = parse_seat(o[1])) < 0)
        return NULL;
    long v;
    if (get_int_in(o[3], 0, CARD_BITS, "must", &v) < 0)
        return NULL;
    a.must = (uint32_t)v;
    if ((a.nallowed = kl_cards(o[4], "allowed", a.allowed, KL_MAX_CARDS)) < 0)
        return NULL;
    if (get_int_in(o[5], 0, a.nallowed, "free", &v) < 0)
        return NULL;
    a.free = (int)v;
    if ((a.nunseen = kl_cards(o[6], "unseen", a.unseen, KL_MAX_CARDS)) < 0)
        return NULL;
    if ((a.ordered = PyObject_IsTrue(o[7])) < 0)
        return NULL;
    if (get_int_in(o[8], -1, N_CARDS - 1, "last", &v) < 0)
        return NULL;
    a.last = (int)v;
    int overflow = 0;
    long long iterations = PyLong_AsLongLongAndOverflow(o[9], &overflow);
    if (iterations == -1 && PyErr_Occurred())
        return NULL;
    a.iterations = overflow > 0 ? LLONG_MAX : (overflow < 0 || iterations < 0 ? 0 : iterations);
    a.seconds = PyFloat_AsDouble(o[10]);
    if (a.seconds == -1.0 && PyErr_Occurred())
        return NULL;
    uint64_t seed = PyLong_AsUnsignedLongLongMask(o[11]);
    if (seed == (uint64_t)-1 && PyErr_Occurred())
        return NULL;

    /* The layouts: (hand mask, stock) pairs. */
    PyObject *lays = PySequence_Fast(o[2], "layouts must be a sequence of (hand, stock) pairs");
    if (!lays)
        goto fail_layouts;
    Py_ssize_t nl = PySequence_Fast_GET_SIZE(lays);
    if (nl > INT32_MAX / (STOCK_CARDS + 1)) {
        PyErr_SetString(PyExc_ValueError, "too many layouts");
        goto fail_layouts;
    }
    a.nlayouts = (int)nl;
    if (nl) {
        a.lay_hand = (uint32_t *)PyMem_RawMalloc((size_t)nl * sizeof(uint32_t));
        a.lay_stock = (int8_t *)PyMem_RawMalloc((size_t)nl * STOCK_CARDS + 1);
        if (!a.lay_hand || !a.lay_stock) {
            PyErr_NoMemory();
            goto fail_layouts;
        }
    }
    for (Py_ssize_t i = 0; i < nl; i++) {
        PyObject *pair = PySequence_Fast(PySequence_Fast_GET_ITEM(lays, i), "a layout is a (hand, stock) pair");
        if (!pair)
            goto fail_layouts;
        if (PySequence_Fast_GET_SIZE(pair) != 2) {
            Py_DECREF(pair);
            PyErr_SetString(PyExc_ValueError, "a layout is a (hand, stock) pair");
            goto fail_layouts;
        }
        int8_t cards[STOCK_CARDS];
        int r = get_int_in(PySequence_Fast_GET_ITEM(pair, 0), 0, CARD_BITS, "a layout's hand", &v);
        int n = r < 0 ? -1 : kl_cards(PySequence_Fast_GET_ITEM(pair, 1), "a layout's stock", cards, STOCK_CARDS);
        Py_DECREF(pair);
        if (n < 0)
            goto fail_layouts;
        if (n != a.nstock) {
            PyErr_Format(PyExc_ValueError, "the stock holds %d cards, not %d", a.nstock, n);
            goto fail_layouts;
        }
        a.lay_hand[i] = (uint32_t)v;
        memcpy(a.lay_stock + (size_t)i * (size_t)a.nstock, cards, (size_t)n);
    }
    Py_DECREF(lays);
    lays = NULL;

    if (solver->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the solver is in use by a search in another thread");
        goto fail_layouts;
    }
    KLSearchRun *run = (KLSearchRun *)PyMem_RawCalloc(1, sizeof(KLSearchRun));
    KState *tmpl = (KState *)PyMem_RawMalloc(sizeof(KState));
    if (!run || !tmpl) {
        PyMem_RawFree(run);
        PyMem_RawFree(tmpl);
        PyErr_NoMemory();
        goto fail_layouts;
    }
    memcpy(tmpl, template, KSTATE_HEAD_SIZE); /* the worlds never pop: no history needed */
    tmpl->depth = 0;                          /* their undo records: this iteration's actions */
    run->rng = seed;
    run->solver = &solver->t;
    long long done = 0;
    int r;
    Py_INCREF(solver);
    solver->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    r = kl_search(&a, tmpl, run, &done);
    Py_END_ALLOW_THREADS
    solver->busy = 0;
    Py_DECREF(solver);
    PyMem_RawFree(tmpl);
    PyMem_RawFree(a.lay_hand);
    PyMem_RawFree(a.lay_stock);
    PyObject *result = NULL;
    if (r) {
        kl_raise(r);
    } else {
        PyObject *stats = PyDict_New();
        int ok = stats != NULL;
        int32_t ch = run->count ? run->nodes[0].child : -1;
        for (int i = 0; ok && i < run->nroot; i++) {
            int code = run->root_order[i];
            for (ch = run->nodes[0].child; ch >= 0 && run->nodes[ch].code != code; ch = run->nodes[ch].next) {
            }
            if (ch < 0)
                continue;
            const KLNode *n = &run->nodes[ch];
            PyObject *key = PyLong_FromLong(code);
            PyObject *val = Py_BuildValue("(Ldd)", n->visits, n->total, n->squares);
            ok = key && val && PyDict_SetItem(stats, key, val) == 0;
            Py_XDECREF(key);
            Py_XDECREF(val);
        }
        if (ok)
            result = Py_BuildValue("(LiN)", done, run->count ? (int)run->nodes[0].prior : -2, stats);
        else
            Py_XDECREF(stats);
    }
    PyMem_RawFree(run->nodes);
    PyMem_RawFree(run);
    return result;

fail_layouts:
    Py_XDECREF(lays);
    PyMem_RawFree(a.lay_hand);
    PyMem_RawFree(a.lay_stock);
    return NULL;
}

static PyObject *Search_get_utility(SearchObject *self, void *Py_UNUSED(closure)) {
    if (!self->utility_tuple)
        Py_RETURN_NONE;
    Py_INCREF(self->utility_tuple);
    return self->utility_tuple;
}

/* A tuple of the n numbers of v. */
static PyObject *kl_tuple(const double *v, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *f = PyFloat_FromDouble(v[i]);
        if (!f) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, f);
    }
    return t;
}

static PyObject *Search_get_root_prior(SearchObject *self, void *Py_UNUSED(closure)) {
    return kl_tuple(self->root_prior, self->has_root_prior ? NUM_CODES : 0);
}

static PyObject *Search_get_config(SearchObject *self, void *Py_UNUSED(closure)) {
    if (!self->config)
        Py_RETURN_NONE;
    Py_INCREF(self->config);
    return self->config;
}

static PyGetSetDef Search_getset[] = {
    {"config", (getter)Search_get_config, NULL, "The tree's options (a TreeConfig).", NULL},
    {"root_prior", (getter)Search_get_root_prior, NULL, "A probability for each action code (or none).", NULL},
    {"utility", (getter)Search_get_utility, NULL, "The worth of each result from -3 to 3 game points.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef Search_members[] = {
    {"seat", T_INT, offsetof(SearchObject, seat), READONLY, "The seat searched for."},
    {"solve_cards", T_INT, offsetof(SearchObject, solve_cards), READONLY, "Cards in hand to solve exactly from."},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Search_run, METH_FASTCALL | METH_KEYWORDS,
     "run($self, template, opponent, layouts, must, allowed, free, unseen, ordered, last, iterations,\n"
     "    seconds, seed, solver)\n--\n\n"
     "Search for iterations iterations, or seconds when positive (whichever ends first, at\n"
     "least one iteration); returns the iterations run, the root's prior (-2 when none was\n"
     "asked for) and each root action's visits, summed rewards and summed squared rewards."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sixtysix.kernel._ckernel.Search",
    .tp_doc = "Search(seat, config, utility, *, solve_cards=-1, root_prior=())\n"
              "--\n\n"
              "Information-set MCTS over sampled worlds, in the kernel (the search of ISMCTSBot;\n"
              "with cards_only, of SantaseISMCTSBot). config is a sixtysix.kernel.TreeConfig,\n"
              "read once here.",
    .tp_basicsize = sizeof(SearchObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_members = Search_members,
    .tp_getset = Search_getset,
};
