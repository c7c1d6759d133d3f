/* The compiled kernel's engine: the same classes State, Rng and Solver as _pure.py and
 * _pure_search.py, in C, on the compiled rules.
 *
 * CPython C API only, C99. The rules are _crules.h (static inline functions on a plain C
 * struct, KState: k_legal_mask, k_push, k_pop, ...) and _crules.c (the Python types
 * State and Rng); this file and the headers it includes are the engine on top, so that
 * searches and playouts written in C run on the rules without a Python call per node.
 * The engine's State is the rules' (their methods and attributes) with the playout policy
 * added.
 *
 * The searches are C functions on a KState too, for other C code to call:
 * k_policy_code and k_playout (the playout policy, the same choices as the pure
 * one for the same state and seed), k_solve (the exact solver, on a KSolver: its
 * transposition table).
 *
 * _cloops.h, included before the module definition, adds the types Search (ISMCTS,
 * _pure_search.Search) and Tables (_pure_tables.Tables), whose loops run in C.
 *
 * Everything here mirrors _pure.py and _pure_search.py line by line; where the
 * pure kernel would index out of range or shift by a negative count on input
 * that no legal play produces, this one raises ValueError or stays memory-safe.
 */

#include "_crules_py.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* The engine's settings (tables.py) --------------------------------------------- */

/* A settling search looks after SETTLE_FROM iterations, then every SETTLE_EVERY; by the
 * means (tolerance) from TOLERANCE_FROM on (tables.py). */
#define SETTLE_FROM 1024
#define SETTLE_EVERY 256
#define TOLERANCE_FROM 16384

/* The playout policy (_pure_search.py: policy_code, playout) ----------------------- */

/* Premium for keeping a trump in phase 1 (before its rank) and in phase 2. */
#define TRUMP_KEEP_1 8.0
#define TRUMP_KEEP_2 3.0
/* Premium per rank step of a trump in phase 1. */
#define TRUMP_RANK_1 1.5
/* Premium for keeping a King or Queen whose partner is in hand while marriages can come. */
#define PARTNER_KEEP 14.0
/* Points counted for the opponent's card in each trick a closer runs off. */
#define CLOSE_SLACK 3

/* 0.1 * rank, folded at compile time with the same rounding as Python's 0.1 * (card % 6),
 * so that no build flag can fuse it with the addition that follows. */
static const double K_TENTHS[6] = {0.1 * 0, 0.1 * 1, 0.1 * 2, 0.1 * 3, 0.1 * 4, 0.1 * 5};

/* The index of the highest set bit plus one (int.bit_length), 0 for 0. */
static inline int k_bit_length(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return x ? 32 - __builtin_clz(x) : 0;
#else
    int n = 0;
    while (x) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* _KEEP[phase2][trump][card]: what a card is worth keeping beyond its points. */
static inline double k_keep(int trump, int phase2, int card) {
    if (K_SUIT_OF[card] != trump)
        return 0.0;
    return phase2 ? TRUMP_KEEP_2 : TRUMP_KEEP_1 + TRUMP_RANK_1 * (card % 6);
}

/* _PARTNER: the marriage partner of a King or Queen, as a mask (0 for other cards). */
static inline uint32_t k_partner(int card) {
    int r = card % 6;
    if (r == 2)
        return 1u << (card + 1);
    if (r == 3)
        return 1u << (card - 1);
    return 0;
}

/* Card points and counted marriages (the last-trick bonus aside): _counted. */
static inline int k_counted(const KState *s, int seat) {
    return s->points[seat] + (s->tricks[seat] ? s->marriages[seat] : 0);
}

/* Rng.random: a float in [0, 1) from the top 53 bits of the next number. */
static inline double k_rng_random(uint64_t *x) {
    return (double)(k_rng_next(x) >> 11) * (1.0 / 9007199254740992.0);
}

/* _random_card: one of cards, uniformly (-1 for none, as the pure kernel computes it). */
static inline int k_random_card(uint32_t cards, uint64_t *rng) {
    uint64_t k = k_rng_below(rng, (uint64_t)K_POPCOUNT(cards));
    while (k--)
        cards &= cards - 1;
    return cards ? K_CTZ(cards) : -1;
}

/* run_off: points of the cards mine can lead one after another after a close and win
 * whatever theirs plays, plus CLOSE_SLACK per trick. */
static inline int k_run_off(uint32_t mine, uint32_t theirs, int trump) {
    int points = 0, count = 0;
    for (int i = -1; i < 4; i++) {
        if (i == trump)
            continue;
        int suit = i < 0 ? trump : i;
        uint32_t sm = K_SUIT_MASK[suit];
        uint32_t t = theirs & sm;
        int top = k_bit_length(t);
        uint32_t run = (mine & sm) >> top << top;
        while (run) {
            int high = k_bit_length(run) - 1;
            points += K_POINTS[high];
            count++;
            run ^= 1u << high;
        }
        if (suit == trump && count < K_POPCOUNT(t))
            break; /* his trumps are not all drawn: the plain tops are not sure */
    }
    return points + CLOSE_SLACK * count;
}

/* _lead: an unbeatable high card, or the card that costs least to give away. */
static inline int k_policy_lead(uint32_t cards, uint32_t mine, uint32_t theirs, int trump, int phase2,
                                int score) {
    uint32_t opp_trumps = theirs & K_SUIT_MASK[trump];
    int best_sure = -1, best_sure_pts = -1;
    int cheapest = -1;
    double cheapest_cost = 1e9;
    while (cards) {
        int card = K_CTZ(cards);
        cards &= cards - 1;
        int suit = K_SUIT_OF[card];
        int beaten = (theirs & k_above(card)) != 0
                     || (suit != trump && opp_trumps && (!phase2 || !(theirs & K_SUIT_MASK[suit])));
        int pts = K_POINTS[card];
        if (!beaten && pts > best_sure_pts) {
            best_sure = card;
            best_sure_pts = pts;
        }
        double cost = (double)pts + k_keep(trump, phase2, card);
        if (!phase2 && (mine & k_partner(card)))
            cost += PARTNER_KEEP;
        if (cost < cheapest_cost) {
            cheapest = card;
            cheapest_cost = cost;
        }
    }
    if (best_sure >= 0 && (phase2 || best_sure_pts >= 10 || score + best_sure_pts >= WINNING_TOTAL))
        return best_sure;
    return cheapest;
}

/* _follow: win the trick cheaply when it is worth it, else throw the cheapest loser.
 * lead is the card led as stored (-1 reads the tables' last entry, as in Python). */
static inline int k_policy_follow(uint32_t cards, int lead, uint32_t mine, int trump, int phase2,
                                  int score, int opp_score) {
    int li = k_table_index(lead);
    int lead_suit = K_SUIT_OF[li];
    int lead_pts = K_POINTS[li];
    int winner = -1, loser = -1;
    double winner_cost = 1e9, loser_cost = 1e9;
    while (cards) {
        int card = K_CTZ(cards);
        cards &= cards - 1;
        int suit = K_SUIT_OF[card];
        int wins = suit == lead_suit ? card > lead : suit == trump;
        double keep = k_keep(trump, phase2, card);
        if (!phase2 && (mine & k_partner(card)))
            keep += PARTNER_KEEP;
        if (wins) {
            double cost = keep + K_TENTHS[card % 6];
            if (cost < winner_cost) {
                winner = card;
                winner_cost = cost;
            }
        } else {
            double cost = (double)K_POINTS[card] + keep;
            if (cost < loser_cost) {
                loser = card;
                loser_cost = cost;
            }
        }
    }
    if (winner < 0)
        return loser;
    if (loser < 0)
        return winner;
    int gain = lead_pts + K_POINTS[winner];
    if (score + gain >= WINNING_TOTAL || opp_score + lead_pts + K_POINTS[loser] >= WINNING_TOTAL)
        return winner;
    return (double)gain >= winner_cost ? winner : loser;
}

/* _close_pays: whether the player on lead reaches 66 by closing now and running off
 * sure winners, with the best marriage he may show. */
static inline int k_close_pays(const KState *s, int p, uint32_t pairs) {
    int trump = s->trump;
    int marriage = 0;
    while (pairs) {
        int card = K_CTZ(pairs);
        pairs &= pairs - 1;
        int v = k_marriage_value(K_SUIT_OF[card], trump);
        if (v > marriage)
            marriage = v;
    }
    int base = s->points[p] + s->marriages[p] + marriage;
    if (s->tricks[p] && !s->cfg.next_trick && base >= WINNING_TOTAL)
        return 0; /* showing the marriage reaches 66 without closing (R5.5) */
    int gain = k_run_off(s->hands[p], s->hands[1 - p], s->trump);
    return base + gain >= WINNING_TOTAL && (s->tricks[p] > 0 || gain > 0);
}

/* fixed_code: the playout policy's action when it is not a card to play (the legal
 * actions m, the player's counted points score): declare 66 (or 66 with a marriage shown)
 * once the counted total reaches it, draw, exchange the trump card; -1 when a card (or a
 * close) is to be chosen. */
static inline int k_fixed_code(const KState *s, uint64_t m, int score) {
    int p = s->to_act;
    if (s->phase == PH_DRAWING) {
        if ((m >> DECLARE & 1u) && score >= WINNING_TOTAL)
            return DECLARE;
        if (m >> DRAW & 1u)
            return DRAW;
        return m ? K_CTZ(m) : -1;
    }
    if (s->phase != PH_LEAD)
        return -1;
    if ((m >> DECLARE & 1u) && score >= WINNING_TOTAL)
        return DECLARE;
    unsigned shows = (unsigned)(m >> DECLARE_MARRIAGE);
    for (int suit = 0; shows && suit < 4; suit++) {
        if ((shows >> suit & 1u)
            && s->points[p] + s->marriages[p] + k_marriage_value(suit, s->trump) >= WINNING_TOTAL)
            return DECLARE_MARRIAGE + suit;
    }
    if (m >> EXCHANGE & 1u)
        return EXCHANGE;
    return -1;
}

/* card_codes: the card plays among the legal actions m, as the policy's fixed part leaves
 * them: a follower never revokes (R10.2), and a King or Queen led with its partner in hand
 * is led as the marriage. */
static inline uint64_t k_card_codes(const KState *s, uint64_t m) {
    uint32_t cards = (uint32_t)m & CARD_BITS;
    if (s->phase == PH_FOLLOW && (s->closed_by >= 0 || s->drawn >= STOCK_CARDS))
        cards &= k_follow_mask(s->hands[s->to_act], k_table_index(s->lead), s->trump);
    uint32_t pairs = (uint32_t)(m >> MARRIAGE) & cards;
    return (uint64_t)(cards & ~pairs) | ((uint64_t)pairs << MARRIAGE);
}

/* policy_code: the playout policy's action for the player to act. With rng NULL no
 * card is chosen at random; otherwise a card decision is random with probability
 * epsilon. Returns -1 where the pure kernel's arithmetic gives -1 (no card to play:
 * never in legal play of an unfinished hand). */
static inline int k_policy_code(KState *s, int fair, int close, uint64_t *rng, double epsilon) {
    uint64_t m = k_legal_mask(s);
    int st = s->phase;
    int p = s->to_act;
    int score = k_counted(s, p);
    int fixed = k_fixed_code(s, m, score);
    if (fixed >= 0 || st == PH_DRAWING)
        return fixed;
    int trump = s->trump;
    uint32_t mine = s->hands[p];
    int phase2 = s->closed_by >= 0 || s->drawn >= STOCK_CARDS;
    if (st == PH_LEAD) {
        uint32_t marriages = (uint32_t)(m >> MARRIAGE) & CARD_BITS;
        if (close && (m >> CLOSE & 1u) && k_close_pays(s, p, marriages))
            return CLOSE;
        if (marriages) {
            uint32_t pick = marriages & K_SUIT_MASK[trump];
            if (!pick)
                pick = marriages;
            return MARRIAGE + K_CTZ(pick); /* the Queen (or King) of the pair */
        }
        uint32_t cards = (uint32_t)m & CARD_BITS;
        if (epsilon != 0.0 && rng && k_rng_random(rng) < epsilon)
            return k_random_card(cards, rng);
        uint32_t theirs = s->hands[1 - p];
        if (fair) {
            for (int i = s->drawn; i < STOCK_CARDS - 1; i++)
                theirs |= 1u << s->stock[i];
        }
        return k_policy_lead(cards, mine, theirs, trump, phase2, score);
    }
    /* Following (and, as in the pure kernel, a finished hand: no card, -1). */
    uint32_t cards = (uint32_t)m & CARD_BITS;
    int lead = s->lead;
    if (phase2)
        cards &= k_follow_mask(mine, k_table_index(lead), trump); /* never revoke (R10.2) */
    if (epsilon != 0.0 && rng && k_rng_random(rng) < epsilon)
        return k_random_card(cards, rng);
    return k_policy_follow(cards, lead, mine, trump, phase2, score, k_counted(s, 1 - p));
}

/* playout: play on with k_policy_code until the hand is over, or until the stock is
 * closed or exhausted and the player to act holds at most stop_cards cards (never
 * when stop_cards < 0). History is kept. Returns 0, -1 when the history is full, -2
 * when the policy finds no action (never in legal play of an unfinished hand). */
static inline int k_playout(KState *s, uint64_t *rng, double epsilon, int fair, int close, int stop_cards) {
    while (s->phase != PH_OVER) {
        if (stop_cards >= 0 && (s->closed_by >= 0 || s->drawn >= STOCK_CARDS)
            && K_POPCOUNT(s->hands[s->to_act]) <= stop_cards)
            return 0;
        int code = k_policy_code(s, fair, close, rng, epsilon);
        if (code < 0 || code >= NUM_CODES)
            return -2;
        if (s->depth >= UNDO_CAP)
            return -1;
        k_push(s, code);
    }
    return 0;
}

/* The exact solver (_pure_search.Solver) ------------------------------------------- */

/* Alpha-beta over k_push/k_pop with a transposition table of lower and upper bounds
 * keyed by the whole state, packed exactly (k_pack_key: 28 bytes), so a table hit is
 * never another position's. Values are game points for seat 0, -3..3 (a tie 0).
 *
 * What makes it fast, none of it changing a value:
 * - null-window searches ("is the value at least g?", MTD) from the root of a phase-1
 *   position: with seven possible values two or three of them settle it;
 * - move ordering: the table's best action, then in phase 1 the playout policy's
 *   choice (with closing), then a static order (k_order);
 * - a correct declaration ends the search of its position (k_search: declaring 66 at
 *   once is worth at least as much as anything later);
 * - the table is probed where it pays: in phase 1 everywhere, in phase 2 at the
 *   leader's turns with enough cards left (the follower's turns are searched inline in
 *   the leader's loop, k_search_follow2); its bucket is prefetched while the legal
 *   actions are worked out. */

/* One table entry: the exact key, the bounds, the best action found, and how many
 * cards were still in play (what a replacement keeps: bigger subtrees first). */
typedef struct {
    uint64_t k0, k1, k2;
    uint32_t k3;
    int8_t lo, hi;
    uint8_t move;   /* an action code, or NO_MOVE */
    uint8_t weight; /* 0: an empty slot */
} KEntry;

#define NO_MOVE 0xFF
#define TT_WAYS 4                      /* entries per bucket */
#define TT_MIN_ENTRIES (1u << 10)      /* 32 KiB */
#define TT_MAX_ENTRIES (1u << 19)      /* 512Ki entries, 16 MiB: then entries are replaced */
/* A table of at most this many entries stays in the caches: the table is then used at
 * phase-2 leads with more than TT_P2_CARDS_SMALL cards in both hands, else more than
 * TT_P2_CARDS (its probes miss the caches and cost more than small searches). */
#define TT_SMALL_ENTRIES (1u << 15)
#define TT_P2_CARDS_SMALL 2
#define TT_P2_CARDS 6

typedef struct {
    KEntry *slots;     /* capacity entries, in buckets of TT_WAYS */
    size_t capacity;   /* a power of two, >= TT_WAYS */
    size_t count;      /* entries in use */
    long long nodes;   /* positions searched */
    int overflow;      /* a line of play outgrew the history (never in legal play) */
    int prune;         /* the root is a sane position: k_gain bounds hold below it */
    KConfig cfg;       /* the rules the entries were searched under */
    int has_cfg;
} KSolver;

/* The exact key of a state: three words and a half (KKey). */
typedef struct {
    uint64_t k0, k1, k2;
    uint32_t k3;
} KKey;

/* Pack the whole state into a KKey: hands, phase, seat to act, lead, trump, drawn and
 * closer in k0; points, tricks, marriages, pending, closed_at, close_value and bonus
 * seat in k1; the stock places from drawn on, a byte each (the drawn ones zero), in
 * k2 and k3. Returns 0 when a field is outside the packed ranges (only states built
 * by from_key with impossible numbers: then no table is used). */
static inline int k_pack_key(const KState *s, KKey *k) {
    int c0 = s->points[0], c1 = s->points[1], t0 = s->tricks[0], t1 = s->tricks[1];
    int m0 = s->marriages[0], m1 = s->marriages[1], q0 = s->pending[0], q1 = s->pending[1];
    int ca = s->closed_at + 1, cv = s->close_value;
    if ((unsigned)c0 > 127u || (unsigned)c1 > 127u || (unsigned)t0 > 15u || (unsigned)t1 > 15u
        || (unsigned)m0 > 127u || (unsigned)m1 > 127u || (unsigned)q0 > 127u || (unsigned)q1 > 127u
        || (unsigned)ca > 15u || (unsigned)cv > 3u)
        return 0;
    int d = s->drawn; /* 0..12 */
    k->k0 = (uint64_t)s->hands[0] | (uint64_t)s->hands[1] << 24 | (uint64_t)(s->phase & 3) << 48
            | (uint64_t)(s->to_act & 1) << 50 | (uint64_t)((s->lead + 1) & 31) << 51
            | (uint64_t)(s->trump & 3) << 56 | (uint64_t)(d & 15) << 58
            | (uint64_t)((s->closed_by + 1) & 3) << 62;
    k->k1 = (uint64_t)c0 | (uint64_t)c1 << 7 | (uint64_t)t0 << 14 | (uint64_t)t1 << 18 | (uint64_t)m0 << 22
            | (uint64_t)m1 << 29 | (uint64_t)q0 << 36 | (uint64_t)q1 << 43 | (uint64_t)ca << 50
            | (uint64_t)cv << 54 | (uint64_t)((s->bonus_seat + 1) & 3) << 56;
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t lo;
    uint32_t hi;
    memcpy(&lo, s->stock, 8);
    memcpy(&hi, s->stock + 8, 4);
    k->k2 = d >= 8 ? 0 : lo & (~0ULL << (8 * d));
    k->k3 = d <= 8 ? hi : (d >= 12 ? 0 : hi & (~0u << (8 * (d - 8))));
#else
    uint64_t lo = 0;
    uint32_t hi = 0;
    for (int i = d; i < 8; i++)
        lo |= (uint64_t)(uint8_t)s->stock[i] << (8 * i);
    for (int i = d > 8 ? d : 8; i < STOCK_CARDS; i++)
        hi |= (uint32_t)(uint8_t)s->stock[i] << (8 * (i - 8));
    k->k2 = lo;
    k->k3 = hi;
#endif
    return 1;
}

static inline uint64_t k_hash(const KKey *k) {
    uint64_t h = k->k0 * 0x9E3779B97F4A7C15ULL ^ k->k1 * 0xC2B2AE3D27D4EB4FULL ^ k->k2 * 0x165667B19E3779F9ULL
                 ^ (uint64_t)k->k3 * 0x27D4EB2F165667C5ULL;
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 29;
    return h;
}

/* Table memory: zeroed; a big table is mapped and, on Linux, asked for huge pages
 * (the probes are random: fewer TLB misses). */
#define TT_MAP_BYTES ((size_t)2 << 20)

static KEntry *tt_mem_alloc(size_t capacity) {
    size_t bytes = capacity * sizeof(KEntry);
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (bytes >= TT_MAP_BYTES) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
#ifdef MADV_HUGEPAGE
        (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
        return (KEntry *)p;
    }
#endif
    return (KEntry *)PyMem_RawCalloc(capacity, sizeof(KEntry));
}

static void tt_mem_free(KEntry *slots, size_t capacity) {
    if (!slots)
        return;
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (capacity * sizeof(KEntry) >= TT_MAP_BYTES) {
        munmap(slots, capacity * sizeof(KEntry));
        return;
    }
#endif
    PyMem_RawFree(slots);
}

static void tt_free(KSolver *t) {
    tt_mem_free(t->slots, t->capacity);
    t->slots = NULL;
    t->capacity = 0;
    t->count = 0;
}

/* An empty table of capacity entries; -1 when out of memory (the old table stays). */
static int tt_alloc(KSolver *t, size_t capacity) {
    KEntry *slots = tt_mem_alloc(capacity);
    if (!slots)
        return -1;
    tt_mem_free(t->slots, t->capacity);
    t->slots = slots;
    t->capacity = capacity;
    t->count = 0;
    return 0;
}

#if defined(__GNUC__) || defined(__clang__)
#define K_PREFETCH(p) __builtin_prefetch(p)
#else
#define K_PREFETCH(p) ((void)(p))
#endif

static inline KEntry *tt_bucket(const KSolver *t, uint64_t h) {
    return t->slots + (size_t)(h & (uint64_t)(t->capacity / TT_WAYS - 1)) * TT_WAYS;
}

static inline KEntry *tt_find(const KSolver *t, const KKey *k, uint64_t h) {
    KEntry *b = tt_bucket(t, h);
    for (int i = 0; i < TT_WAYS; i++) {
        if (b[i].weight && b[i].k0 == k->k0 && b[i].k1 == k->k1 && b[i].k2 == k->k2 && b[i].k3 == k->k3)
            return &b[i];
    }
    return NULL;
}

/* Put an entry not in the table into its bucket: an empty slot, else over the entry
 * with the fewest cards in play. */
static inline void tt_place(KSolver *t, const KEntry *e, uint64_t h) {
    KEntry *b = tt_bucket(t, h);
    KEntry *victim = NULL;
    for (int i = 0; i < TT_WAYS; i++) {
        if (!b[i].weight) {
            b[i] = *e;
            t->count++;
            return;
        }
        if (!victim || b[i].weight < victim->weight)
            victim = &b[i];
    }
    *victim = *e;
}

/* Double the table (up to TT_MAX_ENTRIES); on failure keep it as it is. */
static void tt_grow(KSolver *t) {
    size_t old_cap = t->capacity;
    KEntry *old = t->slots;
    size_t cap = old_cap * 2;
    KEntry *slots = tt_mem_alloc(cap);
    if (!slots)
        return;
    t->slots = slots;
    t->capacity = cap;
    t->count = 0;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i].weight) {
            KKey k = {old[i].k0, old[i].k1, old[i].k2, old[i].k3};
            tt_place(t, &old[i], k_hash(&k));
        }
    }
    tt_mem_free(old, old_cap);
}

static inline void tt_store(KSolver *t, const KKey *k, uint64_t h, int lo, int hi, int move, int weight) {
    KEntry *e = tt_find(t, k, h);
    if (e) {
        e->lo = (int8_t)lo;
        e->hi = (int8_t)hi;
        if (move != NO_MOVE)
            e->move = (uint8_t)move;
        return;
    }
    if (t->count >= t->capacity / 2 && t->capacity < TT_MAX_ENTRIES)
        tt_grow(t);
    KEntry n;
    n.k0 = k->k0;
    n.k1 = k->k1;
    n.k2 = k->k2;
    n.k3 = k->k3;
    n.lo = (int8_t)lo;
    n.hi = (int8_t)hi;
    n.move = (uint8_t)move;
    n.weight = (uint8_t)(weight < 1 ? 1 : weight);
    tt_place(t, &n, h);
}

/* Use the table from the root of a search of a state under rules cfg: a table made
 * under other rules is emptied. Returns -1 when out of memory. */
static int k_solver_prepare(KSolver *t, const KConfig *cfg) {
    if (t->has_cfg && memcmp(&t->cfg, cfg, sizeof(KConfig)) != 0) {
        if (t->count) {
            memset(t->slots, 0, t->capacity * sizeof(KEntry));
            t->count = 0;
        }
    }
    t->cfg = *cfg;
    t->has_cfg = 1;
    if (!t->slots)
        return tt_alloc(t, TT_MIN_ENTRIES);
    return 0;
}

/* A hand in rank-major order (bit rank * 4 + suit), so that rank order, which is
 * points order, is bit order: K_BY_RANK[byte][bits] for each byte of a hand. Filled
 * by k_init_tables. */
static uint32_t K_BY_RANK[3][256];
/* The card at each rank-major bit. */
static uint8_t K_RANK_CARD[N_CARDS];

static void k_init_tables(void) {
    for (int card = 0; card < N_CARDS; card++)
        K_RANK_CARD[(card % 6) * 4 + card / 6] = (uint8_t)card;
    for (int byte = 0; byte < 3; byte++) {
        for (int bits = 0; bits < 256; bits++) {
            uint32_t out = 0;
            for (int j = 0; j < 8; j++) {
                if (bits >> j & 1) {
                    int card = byte * 8 + j;
                    out |= 1u << ((card % 6) * 4 + card / 6);
                }
            }
            K_BY_RANK[byte][bits] = out;
        }
    }
}

static inline uint32_t k_by_rank(uint32_t mask) {
    return K_BY_RANK[0][mask & 0xFFu] | K_BY_RANK[1][mask >> 8 & 0xFFu] | K_BY_RANK[2][mask >> 16 & 0xFFu];
}

/* Append the cards of mask to codes in rank order, high first if down (+ add to each). */
static inline int k_emit_ranks(uint32_t mask, int down, uint8_t *codes, int n) {
    uint32_t x = k_by_rank(mask);
    if (down) {
        while (x) {
            int r = k_bit_length(x) - 1;
            codes[n++] = K_RANK_CARD[r];
            x ^= 1u << r;
        }
    } else {
        while (x) {
            codes[n++] = K_RANK_CARD[K_CTZ(x)];
            x &= x - 1;
        }
    }
    return n;
}

/* The legal actions m in the order the solver tries them: first (the table's best
 * action) and then pol (the playout policy's) when legal; a declaration that holds;
 * the exchange; the draw; when following, the winning cards (high first) before the
 * losing ones (cheap first); on lead, marriages (trumps first), then cards: in phase 1
 * cheap ones first, trumps last, in phase 2 high ones first; closing; false
 * declarations and revokes last. */
static inline int k_order(const KState *s, uint64_t m, int first, int pol, uint8_t *codes) {
    int n = 0;
    if (first < NUM_CODES && (m >> first & 1u)) {
        codes[n++] = (uint8_t)first;
        m &= ~(1ULL << first);
    }
    if (pol >= 0 && pol < NUM_CODES && (m >> pol & 1u)) {
        codes[n++] = (uint8_t)pol;
        m &= ~(1ULL << pol);
    }
    int p = s->to_act;
    int trump = s->trump;
    int phase2 = s->closed_by >= 0 || s->drawn >= STOCK_CARDS;
    uint32_t cards = (uint32_t)m & CARD_BITS;
    if (s->phase == PH_FOLLOW) {
        int lead = s->lead;
        int li = k_table_index(lead);
        int lsuit = K_SUIT_OF[li];
        uint32_t ok = cards;
        if (phase2 && !s->cfg.enforce_follow)
            ok &= k_follow_mask(s->hands[p], li, trump);
        /* The cards that win: higher of the suit led, or trumps on another suit (as
         * k_follow judges it: card > lead within the suit). */
        uint32_t above = lead < 0 ? 0 : k_above(li);
        uint32_t wins = ok & (above | (lsuit != trump ? K_SUIT_MASK[trump] : 0));
        n = k_emit_ranks(wins, 1, codes, n);
        n = k_emit_ranks(ok & ~wins, 0, codes, n);
        n = k_emit_ranks(cards & ~ok, 0, codes, n);
        /* Any other code (none in legal play). */
        uint64_t rest = m & ~(uint64_t)CARD_BITS;
        while (rest) {
            codes[n++] = (uint8_t)K_CTZ(rest);
            rest &= rest - 1;
        }
        return n;
    }
    int sc = k_score(s, p);
    uint64_t bad = 0; /* false declarations */
    if (m >> DECLARE & 1u) {
        if (sc >= WINNING_TOTAL)
            codes[n++] = DECLARE;
        else
            bad |= 1ULL << DECLARE;
    }
    for (int suit = 0; suit < 4; suit++) {
        if (m >> (DECLARE_MARRIAGE + suit) & 1u) {
            if (sc + k_marriage_value(suit, trump) >= WINNING_TOTAL)
                codes[n++] = (uint8_t)(DECLARE_MARRIAGE + suit);
            else
                bad |= 1ULL << (DECLARE_MARRIAGE + suit);
        }
    }
    if (m >> EXCHANGE & 1u)
        codes[n++] = EXCHANGE;
    if (m >> DRAW & 1u)
        codes[n++] = DRAW;
    uint32_t marr = (uint32_t)(m >> MARRIAGE) & CARD_BITS;
    if (marr) {
        uint32_t tm = marr & K_SUIT_MASK[trump];
        n = k_emit_ranks(tm, 1, codes, n);
        n = k_emit_ranks(marr & ~tm, 1, codes, n);
        for (int i = n - K_POPCOUNT(marr); i < n; i++)
            codes[i] = (uint8_t)(codes[i] + MARRIAGE);
    }
    uint32_t tc = cards & K_SUIT_MASK[trump];
    if (phase2) {
        n = k_emit_ranks(cards, 1, codes, n);
    } else {
        n = k_emit_ranks(cards & ~tc, 0, codes, n);
        n = k_emit_ranks(tc, 0, codes, n);
    }
    if (m >> CLOSE & 1u)
        codes[n++] = CLOSE;
    while (bad) {
        codes[n++] = (uint8_t)K_CTZ(bad);
        bad &= bad - 1;
    }
    return n;
}

/* Cards still in play: the weight of a table entry. */
static inline int k_weight(const KState *s) {
    return K_POPCOUNT(s->hands[0]) + K_POPCOUNT(s->hands[1]) + (STOCK_CARDS - s->drawn);
}

static int k_search(KSolver *t, KState *s, int alpha, int beta);

/* The most game points seat p can still win, if the opponent never chooses to give
 * more (he never has to declare falsely, revoke or close: one of his actions is always
 * none of these). A win of p's is worth:
 * - when the opponent closed, what his failed close costs (R6.4), fixed at the close;
 * - when p closed and a close is scored at the close (S5.3), its value fixed then;
 * - otherwise what the opponent concedes (R9.1) when the hand ends, no more than he
 *   concedes now since his tricks and points only grow (a close of p's later, its
 *   value taken then, no more either).
 * These bounds (and the declaration cut-off in k_search) follow from the scoring
 * rules of k_declare, k_played_out and k_follow: an option that made a win worth
 * more later would have to change them (the differential tests against the pure
 * solver would show it). */
static inline int k_gain(const KState *s, int p) {
    int o = 1 - p;
    if (s->closed_by == o)
        return K_SCORING_POINTS[k_failed_close(s)];
    if (s->closed_by == p && s->cfg.close_scored_at_close)
        return s->close_value;
    return k_conceded(s->tricks[o], k_score(s, o));
}

/* Whether s looks like a position of legal play, so that every unfinished position
 * reachable from it has a legal action and game points stay 1-3 (the k_gain bounds
 * and the declaration cut-off assume it): both hands hold the same number of cards
 * (the follower one more), the stock's cards are distinct and in neither hand, whole
 * draws are left, the counts are not negative, a close is worth 1-3. States built by
 * from_key may be anything: they are searched without these cut-offs. */
static int k_sane(const KState *s) {
    if (s->phase == PH_OVER || s->phase > PH_DRAWING || (s->drawn & 1) || s->drawn > STOCK_CARDS)
        return 0;
    if (s->bonus_seat != -1 || (s->closed_by >= 0 ? s->close_value < 1 || s->close_value > 3 : s->close_value != 0))
        return 0;
    for (int i = 0; i < 2; i++) {
        if (s->points[i] < 0 || s->tricks[i] < 0 || s->marriages[i] < 0 || s->pending[i] < 0)
            return 0;
    }
    uint32_t h0 = s->hands[0], h1 = s->hands[1];
    if ((h0 | h1) & ~(uint32_t)CARD_BITS || (h0 & h1))
        return 0;
    uint32_t seen = h0 | h1;
    for (int i = s->drawn; i < STOCK_CARDS; i++) {
        int c = s->stock[i];
        if (c < 0 || c >= N_CARDS || (seen >> c & 1u))
            return 0;
        seen |= 1u << c;
    }
    int n0 = K_POPCOUNT(h0), n1 = K_POPCOUNT(h1);
    if (s->phase == PH_FOLLOW) {
        int f = s->to_act;
        return s->lead >= 0 && K_POPCOUNT(s->hands[f]) == K_POPCOUNT(s->hands[1 - f]) + 1;
    }
    return n0 == n1 && n0 > 0;
}

/* k_search at a follower's turn in phase 2, inlined into the leader's loop: no table
 * (a trick has no transpositions), few choices. */
static inline int k_search_follow2(KSolver *t, KState *s, int alpha, int beta) {
    t->nodes++;
    if (s->depth >= UNDO_CAP) {
        t->overflow = 1;
        return 0;
    }
    uint64_t m = k_legal_mask(s);
    uint8_t codes[NUM_CODES];
    int n;
    if (!(m & (m - 1))) {
        if (!m)
            return s->to_act == 0 ? -4 : 4;
        codes[0] = (uint8_t)K_CTZ(m);
        n = 1;
    } else {
        n = k_order(s, m, NO_MOVE, -1, codes);
    }
    int ub = 4, lb = -4;
    if (t->prune) {
        ub = k_gain(s, 0);
        lb = -k_gain(s, 1);
        if (ub <= alpha)
            return ub;
        if (lb >= beta)
            return lb;
    }
    int maxing = s->to_act == 0;
    int best = maxing ? -4 : 4;
    for (int i = 0; i < n; i++) {
        k_push(s, codes[i]);
        int v;
        if (s->phase == PH_OVER) {
            t->nodes++;
            v = k_value(s);
        } else {
            v = k_search(t, s, alpha, beta);
        }
        k_pop(s);
        if (maxing) {
            if (v > best) {
                best = v;
                if (best >= ub)
                    break;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta)
                        break;
                }
            }
        } else if (v < best) {
            best = v;
            if (best <= lb)
                break;
            if (v < beta) {
                beta = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    return best;
}

/* Fail-soft alpha-beta: the value for seat 0, exact when strictly inside (alpha,
 * beta), else a bound on the side it falls. */
static int k_search(KSolver *t, KState *s, int alpha, int beta) {
    t->nodes++;
    if (s->depth >= UNDO_CAP) {
        t->overflow = 1;
        return 0;
    }
    /* A correct declaration (66, or 66 with a marriage shown) is a best action: the
     * declarer wins by what the opponent concedes now (R9.1), by the close's value
     * fixed at the close (S5.3), or by a failed close's fixed value (R6.4); later the
     * opponent has as many tricks and points or more, which concede no more, and the
     * close values stay as they are; the opponent can always avoid giving more (he
     * never has to declare falsely or revoke). So its value is the position's. */
    if (t->prune) {
        uint64_t dm = k_legal_mask(s) & (BIT_DECLARE | 0xFULL << DECLARE_MARRIAGE);
        if (dm) {
            int sc = k_score(s, s->to_act);
            int code = -1;
            if ((dm & BIT_DECLARE) && sc >= WINNING_TOTAL)
                code = DECLARE;
            for (int suit = 0; code < 0 && suit < 4; suit++) {
                if ((dm >> (DECLARE_MARRIAGE + suit) & 1u) && sc + k_marriage_value(suit, s->trump) >= WINNING_TOTAL)
                    code = DECLARE_MARRIAGE + suit;
            }
            if (code >= 0) {
                k_push(s, code);
                int v = k_value(s);
                k_pop(s);
                t->nodes++;
                return v;
            }
        }
    }
    /* The value lies in [-gain of seat 1, gain of seat 0]. */
    int ub = 4, lb = -4;
    if (t->prune) {
        ub = k_gain(s, 0);
        lb = -k_gain(s, 1);
        if (ub <= alpha)
            return ub;
        if (lb >= beta)
            return lb;
    }
    KKey key = {0, 0, 0, 0};
    uint64_t h = 0;
    int p2 = s->closed_by >= 0 || s->drawn >= STOCK_CARDS;
    int keyed;
    if (p2) {
        keyed = s->phase != PH_FOLLOW
                && K_POPCOUNT(s->hands[0]) + K_POPCOUNT(s->hands[1])
                       > (t->capacity <= TT_SMALL_ENTRIES ? TT_P2_CARDS_SMALL : TT_P2_CARDS);
    } else {
        keyed = 1;
    }
    keyed = keyed && k_pack_key(s, &key);
    int first = NO_MOVE;
    int elo = -3, ehi = 3;
    const KEntry *bucket = NULL;
    if (keyed) {
        h = k_hash(&key);
        bucket = tt_bucket(t, h);
        K_PREFETCH(bucket);
        K_PREFETCH((const char *)bucket + 64);
    }
    /* Work that does not need the table while its line comes in. */
    uint64_t m = k_legal_mask(s);
    int pol = p2 ? -1 : k_policy_code(s, 0, 1, NULL, 0.0);
    if (keyed) {
        const KEntry *e = tt_find(t, &key, h);
        if (e) {
            int lo = e->lo, hi = e->hi;
            if (lo >= beta)
                return lo;
            if (hi <= alpha)
                return hi;
            if (lo > alpha)
                alpha = lo;
            if (hi < beta)
                beta = hi;
            if (lo == hi)
                return lo;
            elo = lo;
            ehi = hi;
            first = e->move;
        }
    }
    int a0 = alpha, b0 = beta;
    uint8_t codes[NUM_CODES];
    int n = k_order(s, m, first, pol, codes);
    int best, best_move = NO_MOVE, exact = 0;
    int maxing = s->to_act == 0;
    best = maxing ? -4 : 4;
    for (int i = 0; i < n; i++) {
        k_push(s, codes[i]);
        int v;
        if (s->phase == PH_OVER) {
            t->nodes++;
            v = k_value(s);
        } else if (s->phase == PH_FOLLOW && (s->closed_by >= 0 || s->drawn >= STOCK_CARDS)) {
            v = k_search_follow2(t, s, alpha, beta);
        } else {
            v = k_search(t, s, alpha, beta);
        }
        k_pop(s);
        if (maxing) {
            if (v > best) {
                best = v;
                best_move = codes[i];
                if (best >= ub) {
                    exact = 1; /* the most seat 0 can get */
                    break;
                }
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta)
                        break;
                }
            }
        } else if (v < best) {
            best = v;
            best_move = codes[i];
            if (best <= lb) {
                exact = 1; /* the most seat 1 can get */
                break;
            }
            if (v < beta) {
                beta = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (keyed) {
        int lo = elo, hi = ehi;
        if (exact) {
            lo = hi = best;
        } else if (best <= a0) {
            hi = best;
            if (maxing)
                best_move = NO_MOVE;
        } else if (best >= b0) {
            lo = best;
            if (!maxing)
                best_move = NO_MOVE;
        } else {
            lo = hi = best;
        }
        tt_store(t, &key, h, lo, hi, best_move, k_weight(s));
    }
    return best;
}

/* The value of s for seat 0 (see k_search), searched on a copy with an empty
 * history: s is not changed. Returns -9 when out of memory, -10 when a line of play
 * outgrew the history (never in legal play). */
static int k_solve(KSolver *t, const KState *s, int alpha, int beta, KState *work) {
    memcpy(work, s, KSTATE_HEAD_SIZE);
    work->depth = 0;
    if (k_solver_prepare(t, &work->cfg) < 0)
        return -9;
    t->overflow = 0;
    t->prune = k_sane(work);
    int v;
    if (work->phase == PH_OVER) {
        t->nodes++;
        v = k_value(work);
    } else if (work->closed_by >= 0 || work->drawn >= STOCK_CARDS) {
        /* Phase 2: small trees, one search with the window asked for. */
        v = k_search(t, work, alpha, beta);
    } else {
        /* Null-window tests "value >= g" (MTD), the bounds narrowing until the value is
         * known or known to lie outside (alpha, beta): first whether seat 0 wins, then
         * by halves. */
        int lo = -4, hi = 4; /* lo <= value <= hi */
        for (;;) {
            if (hi <= alpha) {
                v = hi;
                break;
            }
            if (lo >= beta) {
                v = lo;
                break;
            }
            if (lo == hi) {
                v = lo;
                break;
            }
            int a = lo > alpha ? lo : alpha, b = hi < beta ? hi : beta;
            int g = (a < 0 && 1 <= b) ? 1 : (a + b + 1 + 8) / 2 - 4; /* a < g <= b */
            if (g <= a)
                g = a + 1;
            int r = k_search(t, work, g - 1, g);
            if (t->overflow) {
                v = 0;
                break;
            }
            if (r >= g)
                lo = r;
            else
                hi = r;
        }
    }
    if (t->overflow) {
        /* The search stopped short: what it stored may be wrong. */
        memset(t->slots, 0, t->capacity * sizeof(KEntry));
        t->count = 0;
        return -10;
    }
    return v;
}

/* The engine's State: the rules' State (_crules.c) with the playout policy added
 * (_pure.State) ------------------------------------------------------------------------ */

/* A flag argument, read by truth as the pure kernel reads it; absent: false. */
static int get_flag(PyObject *o) {
    return o ? PyObject_IsTrue(o) : 0;
}

static PyObject *State_policy_code(StateObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames) {
    static const char *const names[] = {"fair", "close"};
    PyObject *a[2];
    if (parse_fast_opt(args, nargs, kwnames, "policy_code", names, 2, 0, a) < 0)
        return NULL;
    int fair = get_flag(a[0]);
    if (fair < 0)
        return NULL;
    int close = get_flag(a[1]);
    if (close < 0)
        return NULL;
    return PyLong_FromLong(k_policy_code(&self->k, fair, close, NULL, 0.0));
}

static PyObject *State_playout(StateObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"seed", "epsilon", "fair", "close", "stop_cards"};
    PyObject *a[5];
    if (parse_fast_opt(args, nargs, kwnames, "playout", names, 5, 1, a) < 0)
        return NULL;
    uint64_t rng = PyLong_AsUnsignedLongLongMask(a[0]);
    if (rng == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    double epsilon = 0.0;
    if (a[1]) {
        epsilon = PyFloat_AsDouble(a[1]);
        if (epsilon == -1.0 && PyErr_Occurred())
            return NULL;
    }
    int fair = get_flag(a[2]);
    if (fair < 0)
        return NULL;
    int close = get_flag(a[3]);
    if (close < 0)
        return NULL;
    long stop = -1;
    if (a[4] && get_int_clamped(a[4], -1, 1000, &stop) < 0)
        return NULL;
    int r = k_playout(&self->k, &rng, epsilon, fair, close, (int)stop);
    if (r == -1) {
        PyErr_SetString(PyExc_OverflowError, "the history is full (64 actions)");
        return NULL;
    }
    if (r == -2) {
        PyErr_SetString(PyExc_ValueError, "no legal action in an unfinished hand");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The engine's methods of State (after the rules' State_methods). */
static PyMethodDef engine_moves[] = {
    {"policy_code", (PyCFunction)(void (*)(void))State_policy_code, METH_FASTCALL | METH_KEYWORDS,
     "policy_code($self, fair=False, close=False)\n--\n\nThe playout policy's action here "
     "(sixtysix.kernel._pure_search.policy_code)."},
    {"playout", (PyCFunction)(void (*)(void))State_playout, METH_FASTCALL | METH_KEYWORDS,
     "playout($self, seed, epsilon=0.0, fair=False, close=False, stop_cards=-1)\n--\n\n"
     "Play on with the playout policy until the hand is over, or until the stock is closed or\n"
     "exhausted and the player to act holds at most stop_cards cards; a card decision is random\n"
     "with probability epsilon, drawn from Rng seed. History is kept."},
    {NULL, NULL, 0, NULL},
};

/* The rules' methods and the engine's, filled by engine_state_methods. */
#define MAX_STATE_METHODS 64
static PyMethodDef state_methods[MAX_STATE_METHODS];

static PyTypeObject EngineStateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sixtysix.kernel._ckernel.State",
    .tp_doc = "One hand's whole state on bitmasks, with make/unmake (the compiled kernel): the rules'\n"
              "State with the playout policy.",
    .tp_basicsize = sizeof(StateObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = State_new,
    .tp_dealloc = (destructor)State_dealloc,
    .tp_methods = state_methods,
    .tp_getset = State_getset,
};

/* The methods of the engine's State: the rules' then the engine's. -1 when they do not fit. */
static int engine_state_methods(void) {
    int n = 0;
    for (const PyMethodDef *m = State_methods; m->ml_name; m++)
        state_methods[n++] = *m;
    for (const PyMethodDef *m = engine_moves; m->ml_name; m++) {
        if (n + 1 >= MAX_STATE_METHODS) {
            PyErr_SetString(PyExc_RuntimeError, "too many State methods for MAX_STATE_METHODS");
            return -1;
        }
        state_methods[n++] = *m;
    }
    return 0;
}

/* The Python type Solver --------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    KSolver t;
    KState work; /* the copy searched */
    int busy;    /* C code searching with the GIL released uses t: value and clear refuse */
} SolverObject;

static int solver_check_idle(const SolverObject *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the solver is in use by a search in another thread");
        return -1;
    }
    return 0;
}

static PyObject *Solver_new(PyTypeObject *type, PyObject *Py_UNUSED(args), PyObject *Py_UNUSED(kwds)) {
    SolverObject *self = (SolverObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    memset(&self->t, 0, sizeof self->t);
    return (PyObject *)self;
}

static int Solver_init(SolverObject *Py_UNUSED(self), PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, ":Solver", kwlist))
        return -1;
    return 0;
}

static void Solver_dealloc(SolverObject *self) {
    tt_free(&self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Solver_entries(SolverObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromSize_t(self->t.count);
}

static PyObject *Solver_clear(SolverObject *self, PyObject *Py_UNUSED(ignored)) {
    if (solver_check_idle(self) < 0)
        return NULL;
    tt_free(&self->t);
    self->t.has_cfg = 0;
    Py_RETURN_NONE;
}

/* A window bound: any int, clamped to -4..4 (values are -3..3, so this changes nothing). */
static int get_bound(PyObject *o, int dflt, int *out) {
    if (!o) {
        *out = dflt;
        return 0;
    }
    long v;
    if (get_int_clamped(o, -4, 4, &v) < 0)
        return -1;
    *out = (int)v;
    return 0;
}

static PyObject *Solver_value(SolverObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"state", "alpha", "beta"};
    PyObject *a[3];
    if (parse_fast_opt(args, nargs, kwnames, "value", names, 3, 1, a) < 0 || solver_check_idle(self) < 0)
        return NULL;
    if (!PyObject_TypeCheck(a[0], &EngineStateType)) {
        PyErr_Format(PyExc_TypeError, "value() needs a %s, not %.200s", EngineStateType.tp_name,
                     Py_TYPE(a[0])->tp_name);
        return NULL;
    }
    int alpha, beta;
    if (get_bound(a[1], -3, &alpha) < 0 || get_bound(a[2], 3, &beta) < 0)
        return NULL;
    if (alpha > beta) {
        /* Every value is then on both sides: only the exact one is a bound on each. */
        alpha = -4;
        beta = 4;
    }
    int v = k_solve(&self->t, &((StateObject *)a[0])->k, alpha, beta, &self->work);
    if (v == -9)
        return PyErr_NoMemory();
    if (v == -10) {
        PyErr_SetString(PyExc_OverflowError, "a line of play outgrew the history (64 actions)");
        return NULL;
    }
    return PyLong_FromLong(v);
}

static PyMemberDef Solver_members[] = {
    {"nodes", T_LONGLONG, offsetof(SolverObject, t) + offsetof(KSolver, nodes), 0, "Positions searched so far."},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef Solver_methods[] = {
    {"entries", (PyCFunction)Solver_entries, METH_NOARGS,
     "entries($self, /)\n--\n\nPositions in the transposition table."},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "clear($self, /)\n--\n\nEmpty the transposition table."},
    {"value", (PyCFunction)(void (*)(void))Solver_value, METH_FASTCALL | METH_KEYWORDS,
     "value($self, state, alpha=-3, beta=3)\n--\n\n"
     "The value of state for seat 0 with perfect play, exact when it lies strictly between\n"
     "alpha and beta (else a bound on the side it falls). state is left as it was."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sixtysix.kernel._ckernel.Solver",
    .tp_doc = "Solver()\n--\n\nAlpha-beta with a transposition table over a full state (both hands and the\n"
              "stock order known). Values are game points for seat 0, -3..3 (a tie 0).",
    .tp_basicsize = sizeof(SolverObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = Solver_new,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_members = Solver_members,
};

#include "_cloops.h"

/* The module ---------------------------------------------------------------------------- */

static struct PyModuleDef ckernel_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sixtysix.kernel._ckernel",
    .m_doc = "The compiled kernel: the same State, Rng, Solver, Search and Tables as\n"
             "sixtysix.kernel._pure and _pure_tables, in C.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__ckernel(void) {
    k_init_tables();
    if (engine_state_methods() < 0 || crules_ready() < 0 || PyType_Ready(&EngineStateType) < 0 || PyType_Ready(&SolverType) < 0
        || PyType_Ready(&TablesType) < 0 || PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&ckernel_module);
    if (!m)
        return NULL;
    PyObject *all = Py_BuildValue("[ssssss]", "NAME", "Rng", "Search", "Solver", "State", "Tables");
    if (!all || PyModule_AddObject(m, "__all__", all) < 0) {
        Py_XDECREF(all);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddStringConstant(m, "NAME", "c") < 0
        || PyModule_AddIntConstant(m, "UNDO_CAPACITY", UNDO_CAP) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&EngineStateType);
    if (PyModule_AddObject(m, "State", (PyObject *)&EngineStateType) < 0) {
        Py_DECREF(&EngineStateType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&RngType);
    if (PyModule_AddObject(m, "Rng", (PyObject *)&RngType) < 0) {
        Py_DECREF(&RngType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0) {
        Py_DECREF(&TablesType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
