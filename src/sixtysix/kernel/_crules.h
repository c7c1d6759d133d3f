/* The compiled rules: the state of one hand and its rules on a plain C struct.
 *
 * C99 and the C library only: no Python, and nothing of the engine (the playout policy,
 * the solver, the search, the network, the vector tables), which includes this header and
 * builds on it. The rules are static inline functions on KState (k_legal_mask, k_push,
 * k_pop, the refusals, the scoring) so that code written in C runs them without a call
 * per node; _crules.c wraps them in the Python types State and Rng.
 *
 * Cards are 0-23 (suit * 6 + rank), a hand is a 24-bit mask, action codes are 0-55
 * (tables.py). Everything here mirrors _pure_rules.py line by line.
 */

#ifndef SIXTYSIX_CRULES_H
#define SIXTYSIX_CRULES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Tables (tables.py) ------------------------------------------------------------ */

#define N_CARDS 24
#define STOCK_CARDS 12
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
 * the reason by it, so the two cannot disagree (_pure_rules.py has the same gates). */

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
 * it names, or -1 (State.refusal in _pure_rules.py). */
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

/* Random numbers: SplitMix64 (Rng in _pure_rng.py) ------------------------------- */

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

#endif /* SIXTYSIX_CRULES_H */
