/* The compiled kernel: the same classes State, Rng and Solver as _pure.py and
 * _pure_search.py, in C.
 *
 * CPython C API only, C99. The rules are static inline functions on a plain C
 * struct (KState: k_legal_mask, k_push, k_pop, ...) so that searches and
 * playouts written in C can run on them without a Python call per node; the
 * Python type State wraps one KState and a reference to the Config object.
 *
 * The searches are C functions on a KState too, for other C code to call:
 * k_policy_code and k_playout (the playout policy, the same choices as the pure
 * one for the same state and seed), k_solve (the exact solver, on a KSolver: its
 * transposition table).
 *
 * _cloops.h, included before the module definition, adds the types Search (ISMCTS,
 * _pure_search.Search) and Tables (_pure_tables.Tables), whose loops run in C, and
 * through _cnet.h the type Net (_pure_net.Net: a learned value at the search's leaves).
 *
 * Cards are 0-23 (suit * 6 + rank), a hand is a 24-bit mask, action codes are
 * 0-55 (tables.py). Everything here mirrors _pure.py line by line; where the
 * pure kernel would index out of range or shift by a negative count on input
 * that no legal play produces, this one raises ValueError or stays memory-safe.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Tables (tables.py) ------------------------------------------------------------ */

#define N_CARDS 24
#define STOCK_CARDS 12
/* A settling search looks after SETTLE_FROM iterations, then every SETTLE_EVERY; by the
 * means (tolerance) from TOLERANCE_FROM on (tables.py). */
#define SETTLE_FROM 1024
#define SETTLE_EVERY 256
#define TOLERANCE_FROM 16384
#define MARRIAGE 24
#define EXCHANGE 48
#define CLOSE 49
#define DRAW 50
#define DECLARE 51
#define DECLARE_MARRIAGE 52
#define NUM_CODES 56
#define WINNING_TOTAL 66
#define SCHNEIDER 33

#define BIT_EXCHANGE (1ULL << EXCHANGE)
#define BIT_CLOSE (1ULL << CLOSE)
#define BIT_DRAW (1ULL << DRAW)
#define BIT_DECLARE (1ULL << DECLARE)
#define CARD_BITS 0xFFFFFFu
#define KINGS ((1u << 3) | (1u << 9) | (1u << 15) | (1u << 21))

/* Most actions a history holds; a hand has fewer than 40. */
#define UNDO_CAP 64

enum { PH_LEAD = 0, PH_FOLLOW = 1, PH_DRAWING = 2, PH_OVER = 3 };
/* Which rule gave a finished hand its game points (tables.Scoring); R9.1's lines are
 * numbered by their game points (k_conceded), SC_AT_CLOSE more when measured at the close. */
enum {
    SC_NONE = 0, SC_THIRTY_THREE, SC_UNDER_33, SC_NO_TRICK, SC_CLOSED_THIRTY_THREE, SC_CLOSED_UNDER_33,
    SC_CLOSED_NO_TRICK, SC_TRICK_AT_CLOSE, SC_NO_TRICK_AT_CLOSE, SC_FAILED_CLOSE, SC_FALSE_DECLARATION,
    SC_NO_TRICK_FALSE, SC_LAST_TRICK, SC_REVOKE, SC_REVOKE_NO_POINTS, SC_FORFEIT
};
#define SC_AT_CLOSE (SC_CLOSED_THIRTY_THREE - SC_THIRTY_THREE)
/* The game points of each scoring (tables.SCORING_POINTS). */
static const int8_t K_SCORING_POINTS[SC_FORFEIT + 1] = {0, 1, 2, 3, 1, 2, 3, 2, 3, 3, 2, 3, 1, 2, 3, 3};

/* Why an action is not legal now (tables.Refused); RF_LEGAL when it is. */
enum {
    RF_LEGAL = 0, RF_OVER, RF_NOT_HELD, RF_PLAY_A_CARD, RF_MARRIAGE_ON_LEAD, RF_MUST_FOLLOW,
    RF_DRAW_FIRST, RF_DRAW_OR_DECLARE, RF_AUTO_DECLARE, RF_DECLARE_AFTER_TRICK, RF_DECLARE_ON_LEAD,
    RF_DECLARE_NEEDS_PAIR, RF_DECLARE_NEXT_TRICK, RF_MARRIAGE_NEEDS_PAIR, RF_MARRIAGE_KING,
    RF_MARRIAGE_FIRST_LEAD, RF_MARRIAGE_STOCK, RF_EXCHANGE_STOCK_GONE, RF_EXCHANGE_FEW, RF_EXCHANGE_CARD,
    RF_EXCHANGE_TRICK, RF_CLOSING_OFF, RF_CLOSE_GONE, RF_CLOSE_FEW, RF_CLOSE_FIRST_LEAD, RF_NOTHING_TO_DRAW
};
enum {
    R_DECLARED = 0, R_FALSE_DECLARATION, R_CLOSED_FAILED, R_CLOSED_SUCCEEDED,
    R_PLAYED_OUT, R_TIE, R_REVOKE, R_FORFEIT
};

static const uint8_t K_POINTS[N_CARDS] = {
    0, 2, 3, 4, 10, 11, 0, 2, 3, 4, 10, 11, 0, 2, 3, 4, 10, 11, 0, 2, 3, 4, 10, 11,
};
static const uint8_t K_SUIT_OF[N_CARDS] = {
    0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
};
static const uint32_t K_SUIT_MASK[4] = {0x3Fu, 0x3Fu << 6, 0x3Fu << 12, 0x3Fu << 18};

#if defined(__GNUC__) || defined(__clang__)
#define K_CTZ(x) __builtin_ctzll(x)
#else
static inline int K_CTZ(uint64_t x) { int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
#endif
#if (defined(__GNUC__) || defined(__clang__)) && defined(__POPCNT__)
#define K_POPCOUNT(x) __builtin_popcountll(x)
#else
/* Without the popcnt instruction GCC calls a library function: this is faster. */
static inline int K_POPCOUNT(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif

/* The cards of the same suit that rank above card i (tables.ABOVE). */
static inline uint32_t k_above(int i) {
    return K_SUIT_MASK[i / 6] & ~((2u << i) - 1u);
}

/* tables.follow_mask; lead is a table index 0-23. */
static inline uint32_t k_follow_mask(uint32_t hand, int lead, int trump) {
    int suit = K_SUIT_OF[lead];
    uint32_t same = hand & K_SUIT_MASK[suit];
    if (same) {
        uint32_t up = same & k_above(lead);
        return up ? up : same;
    }
    if (suit != trump) {
        uint32_t trumps = hand & K_SUIT_MASK[trump];
        if (trumps)
            return trumps;
    }
    return hand;
}

/* tables.conceded */
static inline int k_conceded(int tricks, int score) {
    if (!tricks)
        return 3;
    return score < SCHNEIDER ? 2 : 1;
}

/* tables.marriage_value: a marriage is worth 40 in trumps, 20 in another suit (R5.1). */
static inline int k_marriage_value(int suit, int trump) {
    return suit == trump ? 40 : 20;
}

/* The pure kernel indexes its tables with the lead as Python does, so a lead of
 * -1 (no card led) reads the last entry. Only states built by from_key with a
 * follower to act and no lead get there; this keeps both kernels alike. */
static inline int k_table_index(int card) {
    return card < 0 ? card + N_CARDS : card;
}

/* The state ------------------------------------------------------------------------ */

/* The rule options (tables.Config), as C ints; flags are 0 or 1. */
typedef struct {
    int deck;
    int exchange_rank;
    int enforce_follow;
    int auto_declare;
    int close_before_draw;
    int close_min_stock;
    int close_first_lead;
    int exchange_min_stock;
    int exchange_first_lead;
    int marriage_first_lead;
    int marriages_in_phase2;
    int last_trick_bonus;
    int next_trick;
    int king_lead;
    int last_trick_wins;
    int close_scored_at_close;
    int failed_close_three;
    int false_declaration_three;
    int closing;
} KConfig;

/* One action taken back by k_pop: what it may have changed, as it was before. */
typedef struct {
    uint32_t hands[2];
    int16_t points[2], tricks[2], marriages[2], pending[2];
    int16_t closed_at, close_value;
    int8_t code, phase, to_act, lead, drawn, closed_by, stock_last;
} KUndo;

typedef struct {
    KConfig cfg;
    int8_t phase, to_act, lead, trump, exchange_card, drawn;
    int8_t closed_by, bonus_seat, winner, reason, scored;
    int16_t closed_at, close_value, game_points;
    /* The closer's opponent's total and tricks at the close (S5.3; -1 when not known). */
    int16_t close_score, close_tricks;
    uint32_t hands[2];
    int16_t points[2], tricks[2], marriages[2], pending[2];
    int8_t stock[STOCK_CARDS];
    int lmask_valid;
    uint64_t lmask;
    int depth;
    KUndo undo[UNDO_CAP];
} KState;

/* Everything of a KState before its undo records. */
#define KSTATE_HEAD_SIZE offsetof(KState, undo)

static inline void k_start(KState *s, int trump, uint32_t h0, uint32_t h1, int drawn, int to_act) {
    s->phase = PH_LEAD;
    s->to_act = (int8_t)to_act;
    s->lead = -1;
    s->trump = (int8_t)trump;
    s->exchange_card = (int8_t)(trump * 6 + s->cfg.exchange_rank);
    s->hands[0] = h0;
    s->hands[1] = h1;
    s->points[0] = s->points[1] = 0;
    s->tricks[0] = s->tricks[1] = 0;
    s->marriages[0] = s->marriages[1] = 0;
    s->pending[0] = s->pending[1] = 0;
    s->drawn = (int8_t)drawn;
    s->closed_by = -1;
    s->closed_at = -1;
    s->close_value = 0;
    s->close_score = -1;
    s->close_tricks = -1;
    s->bonus_seat = -1;
    s->winner = -1;
    s->game_points = 0;
    s->reason = -1;
    s->scored = SC_NONE;
    s->depth = 0;
    s->lmask_valid = 0;
    s->lmask = 0;
}

/* The deal, the only layout of it in the C (tables.DEAL_LAYOUTS): R2.3/R2.4, three cards to
 * each, three to each again, the trump turned (the 13th card), the stock; S2.1 for 20 cards,
 * three to each, the trump turned (the 7th card), two to each. deck holds cfg->deck card
 * indices, top first; the non-dealer leads. State.deal and the search's worlds use it. */
static inline void k_deal(KState *s, const KConfig *cfg, const int8_t *deck, int dealer) {
    static const int first24[6] = {0, 1, 2, 6, 7, 8}, second24[6] = {3, 4, 5, 9, 10, 11};
    static const int first20[5] = {0, 1, 2, 7, 8}, second20[5] = {3, 4, 5, 9, 10};
    const int *first, *second;
    int nfirst, turned, rest_from;
    if (cfg->deck == 24) {
        first = first24, second = second24, nfirst = 6, turned = 12, rest_from = 13;
    } else {
        first = first20, second = second20, nfirst = 5, turned = 6, rest_from = 11;
    }
    int non_dealer = 1 - dealer;
    uint32_t hands[2] = {0, 0};
    for (int i = 0; i < nfirst; i++) {
        hands[non_dealer] |= 1u << deck[first[i]];
        hands[dealer] |= 1u << deck[second[i]];
    }
    s->cfg = *cfg;
    int drawn = STOCK_CARDS - (cfg->deck - 2 * nfirst);
    int j = 0;
    for (; j < drawn; j++)
        s->stock[j] = 0;
    for (int i = rest_from; i < cfg->deck; i++)
        s->stock[j++] = deck[i];
    s->stock[STOCK_CARDS - 1] = deck[turned];
    k_start(s, K_SUIT_OF[deck[turned]], hands[0], hands[1], drawn, non_dealer);
}

/* The total toward 66: card points, counted marriages, last-trick bonus. */
static inline int k_score(const KState *s, int seat) {
    int total = s->points[seat];
    if (s->tricks[seat])
        total += s->marriages[seat];
    if (s->bonus_seat == seat)
        total += s->cfg.last_trick_bonus;
    return total;
}

/* Game points of a finished hand for seat 0. */
static inline int k_value(const KState *s) {
    if (s->winner < 0)
        return 0;
    return s->winner == 0 ? s->game_points : -s->game_points;
}

static inline int k_stock_open(const KState *s) {
    return s->closed_by < 0 && s->drawn < STOCK_CARDS;
}

/* Legal actions ------------------------------------------------------------------- */

/* Each kind of action has one gate, which returns why it may not be taken now (an RF_
 * code, RF_LEGAL when it may): k_legal_mask opens the action's bit by it, k_refusal names
 * the reason by it, so the two cannot disagree (_pure.py has the same gates). */

/* 66 (R8.1): by a player who has won a trick, unless the program declares. */
static inline int k_declare_gate(const KState *s, int won) {
    if (s->cfg.auto_declare)
        return RF_AUTO_DECLARE;
    return won ? RF_LEGAL : RF_DECLARE_AFTER_TRICK;
}

/* 66+S (R5.5) as far as it is not the marriage's: as 66, and not while a marriage counts
 * only with a later trick (marriage_counts = next_trick). */
static inline int k_declare_marriage_gate(const KState *s, int won) {
    int why = k_declare_gate(s, won);
    if (why == RF_LEGAL && s->cfg.next_trick)
        return RF_DECLARE_NEXT_TRICK;
    return why;
}

/* When p may show a marriage, whatever he holds: R5.2 (marriage_first_lead), R5.4 while
 * the stock is open, in the turn of closing, or in phase 2 by option. */
static inline int k_marriage_gate(const KState *s, int p, int ntricks, int stock_open) {
    if (!(ntricks || s->cfg.marriage_first_lead))
        return RF_MARRIAGE_FIRST_LEAD;
    if (stock_open || s->cfg.marriages_in_phase2 || (s->closed_by == p && s->closed_at == ntricks))
        return RF_LEGAL;
    return RF_MARRIAGE_STOCK;
}

/* R4.1: won a trick, the stock open and large enough, holds the trump nine (S4.1: the
 * jack, perhaps at the first lead). */
static inline int k_exchange_gate(const KState *s, uint32_t h, int won, int ntricks, int stock_open) {
    if (!stock_open)
        return RF_EXCHANGE_STOCK_GONE;
    if (!(won || (s->cfg.exchange_first_lead && !ntricks)))
        return RF_EXCHANGE_TRICK;
    if (STOCK_CARDS - s->drawn < s->cfg.exchange_min_stock)
        return RF_EXCHANGE_FEW;
    return (h >> s->exchange_card & 1u) ? RF_LEGAL : RF_EXCHANGE_CARD;
}

/* R6.1: close while the stock is open and large enough, also before the first lead
 * unless close_first_lead is off; not at all without closing. */
static inline int k_close_gate(const KState *s, int ntricks, int stock_open, int stock) {
    if (!s->cfg.closing)
        return RF_CLOSING_OFF;
    if (!stock_open)
        return RF_CLOSE_GONE;
    if (stock < s->cfg.close_min_stock)
        return RF_CLOSE_FEW;
    return (ntricks || s->cfg.close_first_lead) ? RF_LEGAL : RF_CLOSE_FIRST_LEAD;
}

static inline uint64_t k_legal_mask(KState *s) {
    if (s->lmask_valid)
        return s->lmask;
    const KConfig *c = &s->cfg;
    int p = s->to_act;
    uint32_t h = s->hands[p];
    uint64_t m;
    switch (s->phase) {
    case PH_FOLLOW:
        /* R3.2 any card while the stock is open; R7.2 in phase 2; R10.2 table rules. */
        if (c->enforce_follow && (s->closed_by >= 0 || s->drawn >= STOCK_CARDS))
            m = k_follow_mask(h, k_table_index(s->lead), s->trump);
        else
            m = h;
        break;
    case PH_LEAD: {
        m = h;
        int won = s->tricks[p] > 0;
        int ntricks = s->tricks[0] + s->tricks[1];
        int stock_open = k_stock_open(s);
        uint32_t pairs = h & KINGS & (h << 1);
        if (pairs && k_marriage_gate(s, p, ntricks, stock_open) == RF_LEGAL) {
            /* R5.5 (not when the marriage only counts with a later trick). */
            int declares = k_declare_marriage_gate(s, won) == RF_LEGAL;
            while (pairs) {
                uint32_t king = pairs & (0u - pairs);
                pairs ^= king;
                /* R5.1: lead either card; marriage_lead = king: the King. */
                m |= (uint64_t)(c->king_lead ? king : (king | king >> 1)) << MARRIAGE;
                if (declares)
                    m |= 1ULL << (DECLARE_MARRIAGE + K_SUIT_OF[K_CTZ(king)]);
            }
        }
        if (stock_open) {
            if (k_exchange_gate(s, h, won, ntricks, stock_open) == RF_LEGAL)
                m |= BIT_EXCHANGE;
            if (k_close_gate(s, ntricks, stock_open, STOCK_CARDS - s->drawn) == RF_LEGAL)
                m |= BIT_CLOSE;
        }
        if (k_declare_gate(s, won) == RF_LEGAL)
            m |= BIT_DECLARE;
        break;
    }
    case PH_DRAWING:
        /* R3.6: the draw step follows a trick won while the stock is open. */
        m = BIT_DRAW;
        if (k_close_gate(s, 1, 1, STOCK_CARDS - s->drawn) == RF_LEGAL)
            m |= BIT_CLOSE;
        if (k_declare_gate(s, 1) == RF_LEGAL)
            m |= BIT_DECLARE;
        break;
    default:
        m = 0;
    }
    s->lmask = m;
    s->lmask_valid = 1;
    return m;
}

/* Why the action code (0-55, an action: a marriage code is a King's or a Queen's) may not
 * be taken now, by the gates of k_legal_mask: an RF_ code, and in *arg the card or number
 * it names, or -1 (State.refusal in _pure.py). */
static inline int k_follow_refusal(KState *s, int code) {
    if (code >= MARRIAGE)
        return code < EXCHANGE ? RF_MARRIAGE_ON_LEAD : RF_PLAY_A_CARD;
    return (k_legal_mask(s) >> code & 1u) ? RF_LEGAL : RF_MUST_FOLLOW;
}

static inline int k_draw_refusal(const KState *s, int code, int *arg) {
    /* R3.6: the trick's winner draws (or closes, R6.1, or declares) first. */
    if (code == DECLARE || code >= DECLARE_MARRIAGE) {
        int why = k_declare_gate(s, 1);
        return (why != RF_LEGAL || code == DECLARE) ? why : RF_DECLARE_ON_LEAD;
    }
    if (code == DRAW)
        return RF_LEGAL;
    int why = k_close_gate(s, 1, 1, STOCK_CARDS - s->drawn);
    if (code == CLOSE) {
        if (why == RF_CLOSE_FEW)
            *arg = s->cfg.close_min_stock;
        return why;
    }
    return why == RF_LEGAL ? RF_DRAW_FIRST : RF_DRAW_OR_DECLARE;
}

static inline int k_lead_refusal(const KState *s, int code, uint32_t h, int *arg) {
    int p = s->to_act;
    int won = s->tricks[p] > 0;
    int ntricks = s->tricks[0] + s->tricks[1];
    int stock_open = k_stock_open(s);
    if (code < MARRIAGE)
        return RF_LEGAL;
    if (code < EXCHANGE) {
        int card = code - MARRIAGE;
        int partner = card ^ 1; /* the King and the Queen of a suit differ in the lowest bit */
        if (!(h >> partner & 1u)) {
            *arg = partner;
            return RF_MARRIAGE_NEEDS_PAIR;
        }
        if (s->cfg.king_lead && card < partner) { /* R5.1; marriage_lead = king */
            *arg = partner;
            return RF_MARRIAGE_KING;
        }
        return k_marriage_gate(s, p, ntricks, stock_open);
    }
    if (code >= DECLARE_MARRIAGE) {
        int why = k_declare_marriage_gate(s, won);
        if (why != RF_LEGAL && why != RF_DECLARE_NEXT_TRICK)
            return why;
        int king = (code - DECLARE_MARRIAGE) * 6 + 3;
        if (!((h >> king & 1u) && (h >> (king - 1) & 1u))) {
            *arg = king;
            return RF_DECLARE_NEEDS_PAIR;
        }
        return why != RF_LEGAL ? why : k_marriage_gate(s, p, ntricks, stock_open);
    }
    if (code == EXCHANGE) {
        int why = k_exchange_gate(s, h, won, ntricks, stock_open);
        if (why == RF_EXCHANGE_FEW)
            *arg = s->cfg.exchange_min_stock;
        else if (why == RF_EXCHANGE_CARD)
            *arg = s->exchange_card;
        return why;
    }
    if (code == CLOSE) {
        int why = k_close_gate(s, ntricks, stock_open, STOCK_CARDS - s->drawn);
        if (why == RF_CLOSE_FEW)
            *arg = s->cfg.close_min_stock;
        return why;
    }
    if (code == DRAW)
        return RF_NOTHING_TO_DRAW;
    return k_declare_gate(s, won);
}

static inline int k_refusal(KState *s, int code, int *arg) {
    *arg = -1;
    if (s->phase == PH_OVER)
        return RF_OVER;
    uint32_t h = s->hands[s->to_act];
    if (code < EXCHANGE) {
        int card = code < MARRIAGE ? code : code - MARRIAGE;
        if (!(h >> card & 1u)) {
            *arg = card;
            return RF_NOT_HELD;
        }
    }
    if (s->phase == PH_FOLLOW)
        return k_follow_refusal(s, code);
    if (s->phase == PH_DRAWING)
        return k_draw_refusal(s, code, arg);
    return k_lead_refusal(s, code, h, arg);
}

/* The rules ----------------------------------------------------------------------- */

static inline void k_finish(KState *s, int winner, int scoring, int reason) {
    s->phase = PH_OVER;
    s->winner = (int8_t)winner;
    s->game_points = K_SCORING_POINTS[scoring];
    s->reason = (int8_t)reason;
    s->scored = (int8_t)scoring;
}

/* The scoring helpers return an SC_ code: the rule that gives the game points. */

/* R9.1's line by loser's tricks and total now (its code is its game points). */
static inline int k_concede(const KState *s, int loser) {
    return k_conceded(s->tricks[loser], k_score(s, loser));
}

static inline int k_close_success(const KState *s) {
    /* R6.3: by the opponent's points and tricks at the end; S5.3: at the close. */
    if (s->cfg.close_scored_at_close)
        return s->close_value + SC_AT_CLOSE;
    return k_concede(s, 1 - s->closed_by);
}

static inline int k_failed_close(const KState *s) {
    /* R6.4: 3 if the opponent had no trick at the close (option failed_close). */
    if (s->cfg.failed_close_three)
        return SC_FAILED_CLOSE;
    return s->close_value == SC_NO_TRICK ? SC_NO_TRICK_AT_CLOSE : SC_TRICK_AT_CLOSE;
}

static inline int k_false_declaration(const KState *s, int opponent) {
    /* R8.3 with option false_declaration. */
    return (s->cfg.false_declaration_three && !s->tricks[opponent]) ? SC_NO_TRICK_FALSE : SC_FALSE_DECLARATION;
}

static inline void k_declare(KState *s, int p) {
    int o = 1 - p;
    int correct = k_score(s, p) >= WINNING_TOTAL;
    int closer = s->closed_by;
    if (closer < 0) {
        if (correct)
            k_finish(s, p, k_concede(s, o), R_DECLARED); /* R8.2 */
        else
            k_finish(s, o, k_false_declaration(s, o), R_FALSE_DECLARATION); /* R8.3 */
    } else if (p == closer) {
        if (correct)
            k_finish(s, p, k_close_success(s), R_CLOSED_SUCCEEDED); /* R6.3, S5.3 */
        else
            k_finish(s, o, k_failed_close(s), R_CLOSED_FAILED); /* R6.4 */
    } else if (correct) {
        k_finish(s, p, k_failed_close(s), R_CLOSED_FAILED); /* R6.4 */
    } else {
        k_finish(s, closer, k_false_declaration(s, closer), R_FALSE_DECLARATION);
    }
}

static inline void k_played_out(KState *s) {
    /* R8.5: a closed hand by R6.3/R6.4, otherwise the higher total; equal is a tie.
     * S6.3 (last_trick_wins): the winner of the last trick wins; with 66 he scores as
     * declared, else one game point. A closer who loses the last trick has failed. */
    int closer = s->closed_by;
    int last = s->to_act;
    if (closer >= 0) {
        if (k_score(s, closer) >= WINNING_TOTAL && (!s->cfg.last_trick_wins || last == closer))
            k_finish(s, closer, k_close_success(s), R_CLOSED_SUCCEEDED);
        else
            k_finish(s, 1 - closer, k_failed_close(s), R_CLOSED_FAILED);
        return;
    }
    if (s->cfg.last_trick_wins) {
        int scoring = k_score(s, last) >= WINNING_TOTAL ? k_concede(s, 1 - last) : SC_LAST_TRICK;
        k_finish(s, last, scoring, R_PLAYED_OUT);
        return;
    }
    int s0 = k_score(s, 0), s1 = k_score(s, 1);
    if (s0 == s1) {
        k_finish(s, -1, SC_NONE, R_TIE); /* R9.2 */
    } else {
        int winner = s0 > s1 ? 0 : 1;
        k_finish(s, winner, k_concede(s, 1 - winner), R_PLAYED_OUT);
    }
}

/* R3.4: the winner draws first, then the loser. Past the end of the stock (never
 * in legal play) nothing is drawn and drawn stops at 12. */
static inline void k_draw(KState *s, int winner) {
    int d = s->drawn;
    if (d < 0)
        d = 0;
    if (d < STOCK_CARDS)
        s->hands[winner] |= 1u << s->stock[d];
    if (d + 1 < STOCK_CARDS)
        s->hands[1 - winner] |= 1u << s->stock[d + 1];
    d += 2;
    s->drawn = (int8_t)(d > STOCK_CARDS ? STOCK_CARDS : d);
}

static inline void k_follow(KState *s, int p, int card) {
    int lead = s->lead;
    int li = k_table_index(lead);
    int leader = 1 - p;
    int phase2 = s->closed_by >= 0 || s->drawn >= STOCK_CARDS;
    if (phase2 && !s->cfg.enforce_follow && !(k_follow_mask(s->hands[p], li, s->trump) >> card & 1u)) {
        /* R10.2: the revoke stands, is established with the trick, and ends the hand. */
        s->hands[p] ^= 1u << card;
        s->lead = -1;
        k_finish(s, leader, s->points[p] == 0 ? SC_REVOKE_NO_POINTS : SC_REVOKE, R_REVOKE);
        return;
    }
    s->hands[p] ^= 1u << card;
    /* R3.3: the higher card of the suit led, unless trumped. */
    int winner;
    if (K_SUIT_OF[card] == K_SUIT_OF[li])
        winner = card > lead ? p : leader;
    else if (K_SUIT_OF[card] == s->trump)
        winner = p;
    else
        winner = leader;
    s->points[winner] += K_POINTS[li] + K_POINTS[card];
    s->tricks[winner] += 1;
    int pend = s->pending[winner];
    if (pend) {
        /* marriage_counts = next_trick: the winner's pending marriages count now. */
        s->marriages[winner] += pend;
        s->pending[winner] = 0;
    }
    s->lead = -1;
    s->to_act = (int8_t)winner;
    if (!s->hands[winner]) {
        /* All cards played. R7.3: the last trick earns the bonus unless the hand was closed. */
        if (s->closed_by < 0)
            s->bonus_seat = (int8_t)winner;
        k_played_out(s);
        return;
    }
    if (s->closed_by < 0 && s->drawn < STOCK_CARDS) {
        if (s->cfg.close_before_draw) {
            s->phase = PH_DRAWING;
        } else {
            k_draw(s, winner);
            s->phase = PH_LEAD;
        }
    } else {
        s->phase = PH_LEAD;
    }
    if (s->cfg.auto_declare && k_score(s, winner) >= WINNING_TOTAL)
        k_declare(s, winner);
}

/* Make / unmake ------------------------------------------------------------------- */

/* Apply action code (0-55), which must be legal (not checked). The caller makes sure
 * s->depth < UNDO_CAP. */
static inline void k_push(KState *s, int code) {
    int p = s->to_act;
    KUndo *u = &s->undo[s->depth++];
    u->hands[0] = s->hands[0];
    u->hands[1] = s->hands[1];
    u->points[0] = s->points[0];
    u->points[1] = s->points[1];
    u->tricks[0] = s->tricks[0];
    u->tricks[1] = s->tricks[1];
    u->marriages[0] = s->marriages[0];
    u->marriages[1] = s->marriages[1];
    u->pending[0] = s->pending[0];
    u->pending[1] = s->pending[1];
    u->closed_at = s->closed_at;
    u->close_value = s->close_value;
    u->code = (int8_t)code;
    u->phase = s->phase;
    u->to_act = s->to_act;
    u->lead = s->lead;
    u->drawn = s->drawn;
    u->closed_by = s->closed_by;
    u->stock_last = s->stock[STOCK_CARDS - 1];
    s->lmask_valid = 0;
    if (code < MARRIAGE) {
        if (s->phase == PH_FOLLOW) {
            k_follow(s, p, code);
        } else {
            s->hands[p] ^= 1u << code;
            s->lead = (int8_t)code;
            s->phase = PH_FOLLOW;
            s->to_act = (int8_t)(1 - p);
        }
    } else if (code < EXCHANGE) {
        int card = code - MARRIAGE;
        int value = k_marriage_value(K_SUIT_OF[card], s->trump);
        if (s->cfg.next_trick)
            s->pending[p] += value; /* counts when p next wins a trick */
        else
            s->marriages[p] += value;
        if (s->cfg.auto_declare && s->tricks[p] && k_score(s, p) >= WINNING_TOTAL) {
            k_declare(s, p); /* R5.5 under auto_declare: the card is not led */
            return;
        }
        s->hands[p] ^= 1u << card;
        s->lead = (int8_t)card;
        s->phase = PH_FOLLOW;
        s->to_act = (int8_t)(1 - p);
    } else if (code == DRAW) {
        k_draw(s, p);
        s->phase = PH_LEAD;
    } else if (code == CLOSE) {
        /* R6.4 / S5.3: judged at the moment of closing. */
        s->closed_by = (int8_t)p;
        s->closed_at = (int16_t)(s->tricks[0] + s->tricks[1]);
        s->close_value = (int16_t)k_conceded(s->tricks[1 - p], k_score(s, 1 - p));
        s->close_score = (int16_t)k_score(s, 1 - p);
        s->close_tricks = s->tricks[1 - p];
        s->phase = PH_LEAD;
    } else if (code == EXCHANGE) {
        s->hands[p] ^= (1u << s->exchange_card) | (1u << s->stock[STOCK_CARDS - 1]);
        s->stock[STOCK_CARDS - 1] = s->exchange_card;
    } else if (code == DECLARE) {
        k_declare(s, p);
    } else { /* 66+S: show the marriage and declare without leading (R5.5) */
        s->marriages[p] += k_marriage_value(code - DECLARE_MARRIAGE, s->trump);
        k_declare(s, p);
    }
}

/* Take back the last action and return its code; the caller makes sure s->depth > 0. */
static inline int k_pop(KState *s) {
    const KUndo *u = &s->undo[--s->depth];
    s->hands[0] = u->hands[0];
    s->hands[1] = u->hands[1];
    s->points[0] = u->points[0];
    s->points[1] = u->points[1];
    s->tricks[0] = u->tricks[0];
    s->tricks[1] = u->tricks[1];
    s->marriages[0] = u->marriages[0];
    s->marriages[1] = u->marriages[1];
    s->pending[0] = u->pending[0];
    s->pending[1] = u->pending[1];
    s->closed_at = u->closed_at;
    s->close_value = u->close_value;
    s->phase = u->phase;
    s->to_act = u->to_act;
    s->lead = u->lead;
    s->drawn = u->drawn;
    s->closed_by = u->closed_by;
    s->stock[STOCK_CARDS - 1] = u->stock_last;
    /* Only the action that ended the hand sets these, and nothing follows it. */
    s->bonus_seat = -1;
    s->winner = -1;
    s->game_points = 0;
    s->reason = -1;
    s->lmask_valid = 0;
    return u->code;
}

/* End the hand: seat's program failed, the opponent scores 3 (no legal action after). */
static inline void k_forfeit(KState *s, int seat) {
    k_finish(s, 1 - seat, SC_FORFEIT, R_FORFEIT);
    s->lmask_valid = 0;
}

/* Random numbers: SplitMix64 (Rng in _pure.py) ----------------------------------- */

static inline uint64_t k_rng_next(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A number in range(n), n at most 2**32. */
static inline uint64_t k_rng_below(uint64_t *x, uint64_t n) {
    return ((k_rng_next(x) >> 32) * n) >> 32;
}

/* Play on to the end with every legal action equally likely. Returns 0, or -1 when
 * the history is full (-2 when an unfinished hand has no legal action: never in
 * legal play). */
static inline int k_random_playout(KState *s, uint64_t seed) {
    uint64_t x = seed;
    while (s->phase != PH_OVER) {
        uint64_t m = k_legal_mask(s);
        uint64_t k = k_rng_below(&x, (uint64_t)K_POPCOUNT(m));
        while (k--)
            m &= m - 1;
        if (!m)
            return -2;
        if (s->depth >= UNDO_CAP)
            return -1;
        k_push(s, K_CTZ(m));
    }
    return 0;
}

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

/* The Python type State ------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    PyObject *config;
    KState k;
} StateObject;

static PyTypeObject StateType;
static PyTypeObject RngType;

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
static int get_int_in(PyObject *o, long lo, long hi, const char *what, long *out) {
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
static int get_int_clamped(PyObject *o, long lo, long hi, long *out) {
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow)
        v = overflow > 0 ? hi : lo;
    *out = v < lo ? lo : (v > hi ? hi : v);
    return 0;
}

static int read_config(PyObject *config, KConfig *out) {
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

static StateObject *state_alloc(PyTypeObject *type, PyObject *config) {
    StateObject *self = (StateObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    Py_INCREF(config);
    self->config = config;
    return self;
}

static void State_dealloc(StateObject *self) {
    Py_XDECREF(self->config);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *State_new(PyTypeObject *type, PyObject *Py_UNUSED(args), PyObject *Py_UNUSED(kwds)) {
    PyErr_Format(PyExc_TypeError, "cannot create '%s' instances directly: use State.deal() or State.from_key()",
                 type->tp_name);
    return NULL;
}

/* Arguments of a METH_FASTCALL | METH_KEYWORDS function with n positional-or-keyword
 * parameters, the first required of them required; a missing optional one is NULL. */
static int parse_fast_opt(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
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
static int parse_fast(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *fname,
                      const char *const *names, int n, PyObject **out) {
    return parse_fast_opt(args, nargs, kwnames, fname, names, n, n, out);
}

static int parse_seat(PyObject *o) {
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
    StateObject *other = state_alloc(&StateType, self->config);
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

/* The public record (_pure.py: trick_history, marriages_shown, exchanged): what the kernel
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

static PyGetSetDef State_getset[] = {
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

/* State.likelihood is in _cinfer.h (it may run the network, _cnet.h). */
static PyObject *State_likelihood(StateObject *self, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames);

static PyMethodDef State_methods[] = {
    {"likelihood", (PyCFunction)(void (*)(void))State_likelihood, METH_FASTCALL | METH_KEYWORDS,
     "likelihood($self, codes, seat, epsilon, net=None, past=None, mix=0.0)\n--\n\n"
     "The sum of the logarithms of the chances a model of seat gives its actions among codes,\n"
     "played on from here (sixtysix.kernel._pure.State.likelihood)."},
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

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sixtysix.kernel._ckernel.State",
    .tp_doc = "One hand's whole state on bitmasks, with make/unmake (the compiled kernel).",
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

static PyTypeObject RngType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sixtysix.kernel._ckernel.Rng",
    .tp_doc = "Rng(seed)\n--\n\nThe kernels' random numbers: SplitMix64, the same sequence in both kernels.",
    .tp_basicsize = sizeof(RngObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rng_init,
    .tp_methods = Rng_methods,
};

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
    if (!PyObject_TypeCheck(a[0], &StateType)) {
        PyErr_Format(PyExc_TypeError, "value() needs a %s, not %.200s", StateType.tp_name, Py_TYPE(a[0])->tp_name);
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
#include "_cinfer.h"

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
    if (PyType_Ready(&StateType) < 0 || PyType_Ready(&RngType) < 0 || PyType_Ready(&SolverType) < 0
        || PyType_Ready(&TablesType) < 0 || PyType_Ready(&SearchType) < 0 || PyType_Ready(&NetType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&ckernel_module);
    if (!m)
        return NULL;
    PyObject *all = Py_BuildValue("[sssssss]", "NAME", "Net", "Rng", "Search", "Solver", "State", "Tables");
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
    Py_INCREF(&StateType);
    if (PyModule_AddObject(m, "State", (PyObject *)&StateType) < 0) {
        Py_DECREF(&StateType);
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
    Py_INCREF(&NetType);
    if (PyModule_AddObject(m, "Net", (PyObject *)&NetType) < 0) {
        Py_DECREF(&NetType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
