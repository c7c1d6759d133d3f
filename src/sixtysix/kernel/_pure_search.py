"""The pure kernel's searches: the exact solver and the playout policy.

Both run on :class:`~sixtysix.kernel._pure.State`'s push and pop, so they know
no rule of their own: the rules are the state's. The compiled kernel runs the
same algorithms in C.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sixtysix.kernel._pure_rng import Rng
from sixtysix.kernel.tables import (
    ABOVE,
    CARD_BITS,
    CLOSE,
    DECLARE,
    DECLARE_MARRIAGE,
    DRAW,
    EXCHANGE,
    MARRIAGE,
    NUM_CODES,
    POINTS,
    SETTLE_EVERY,
    SETTLE_FROM,
    STOCK_CARDS,
    SUIT_MASK,
    SUIT_OF,
    TOLERANCE_FROM,
    WINNING_TOTAL,
    follow_mask,
    marriage_value,
)
from sixtysix.kernel.tree import TreeConfig

if TYPE_CHECKING:
    from sixtysix.kernel._pure import State

__all__ = ["CLOSE_SLACK", "Search", "Solver", "advance", "card_codes", "fixed_code", "playout", "policy_code",
           "run_off", "settled"]

_LEAD, _FOLLOW, _DRAWING, _OVER = 0, 1, 2, 3


# The exact solver ----------------------------------------------------------------------
class Solver:
    """Alpha-beta with a transposition table over a full state (both hands and the
    stock order known). Values are game points for seat 0, -3..3 (a tie 0).

    Reuse one solver for related positions: the table carries over.
    """

    __slots__ = ("nodes", "_config", "_table")

    def __init__(self) -> None:
        #: Positions searched so far.
        self.nodes = 0
        self._table: dict[tuple[int, ...], tuple[int, int]] = {}
        #: The rules the table's values hold for (a state under other rules empties it).
        self._config: object = None

    def entries(self) -> int:
        """Positions in the transposition table."""
        return len(self._table)

    def clear(self) -> None:
        """Empty the transposition table."""
        self._table.clear()

    def value(self, state: State, alpha: int = -3, beta: int = 3) -> int:
        """The value of ``state`` for seat 0 with perfect play, exact when it lies strictly
        between ``alpha`` and ``beta`` (else a bound on the side it falls). The state is
        searched with push and pop and left as it was."""
        if state.config != self._config:
            self._table.clear()
            self._config = state.config
        return self._search(state, alpha, beta)

    def _search(self, s: State, alpha: int, beta: int) -> int:
        self.nodes += 1
        if s.phase == _OVER:
            return s.value()
        key = s.key()
        table = self._table
        entry = table.get(key)
        if entry is not None:
            lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            if lo == hi:
                return lo
        a0, b0 = alpha, beta
        push = s.push
        pop = s.pop
        search = self._search
        if s.to_act == 0:
            best = -4
            for code in order(s):
                push(code)
                v = search(s, alpha, beta)
                pop()
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = 4
            for code in order(s):
                push(code)
                v = search(s, alpha, beta)
                pop()
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if best <= a0:
            table[key] = (entry[0] if entry else -3, best)
        elif best >= b0:
            table[key] = (best, entry[1] if entry else 3)
        else:
            table[key] = (best, best)
        return best


def order(s: State) -> list[int]:
    """The legal actions in the order the solver tries them: a declaration that holds,
    the other non-card actions, then when following the winning cards (cheapest first)
    before the losing ones, and on lead marriages and cards by points, high first."""
    mask = s.legal_mask()
    p = s.to_act
    rest = []
    m = mask >> EXCHANGE
    code = EXCHANGE
    declare_first = False
    while m:
        if m & 1:
            if code == DECLARE and s.score(p) >= WINNING_TOTAL:
                declare_first = True
            else:
                rest.append(code)
        m >>= 1
        code += 1
    if declare_first:
        rest.insert(0, DECLARE)
    cards = []
    c = mask & ((1 << EXCHANGE) - 1)
    while c:
        low = c & -c
        c ^= low
        cards.append(low.bit_length() - 1)
    if s.phase == _FOLLOW:
        lead = s.lead
        trump = s.trump
        suit = SUIT_OF[lead]

        def rank(card: int) -> tuple[int, int]:
            wins = card > lead if SUIT_OF[card] == suit else SUIT_OF[card] == trump
            return (0, POINTS[card]) if wins else (1, POINTS[card])

        cards.sort(key=rank)
    else:
        cards.sort(key=lambda card: POINTS[card % 24], reverse=True)
    return rest + cards


# The playout policy ----------------------------------------------------------------------
#: Premium for keeping a trump in phase 1 (before its rank) and in phase 2.
_TRUMP_KEEP_1 = 8.0
_TRUMP_KEEP_2 = 3.0
#: Premium per rank step of a trump in phase 1.
_TRUMP_RANK_1 = 1.5
#: Premium for keeping a King or Queen whose partner is in hand while marriages can come.
_PARTNER_KEEP = 14.0
#: Points counted for the opponent's card in each trick a closer runs off.
CLOSE_SLACK = 3


def _keep_table(trump: int, phase2: bool) -> tuple[float, ...]:
    """What each card is worth keeping beyond its points, before marriage partners."""
    table = []
    for card in range(24):
        value = 0.0
        if SUIT_OF[card] == trump:
            value = _TRUMP_KEEP_2 if phase2 else _TRUMP_KEEP_1 + _TRUMP_RANK_1 * (card % 6)
        table.append(value)
    return tuple(table)


#: ``_KEEP[phase2][trump][card]``.
_KEEP = tuple(tuple(_keep_table(trump, phase2) for trump in range(4)) for phase2 in (False, True))
#: The marriage partner of each King and Queen, as a mask (0 for other cards).
_PARTNER = tuple(
    (1 << (card + 1) if card % 6 == 2 else 1 << (card - 1)) if card % 6 in (2, 3) else 0
    for card in range(24))


def run_off(mine: int, theirs: int, trump: int) -> int:
    """Points of the cards ``mine`` can lead one after another after a close and win
    whatever ``theirs`` plays (R7.2: the opponent must follow suit, else trump): the
    trumps above all of his, then, once his trumps are drawn, the tops of the plain
    suits; plus :data:`CLOSE_SLACK` per trick for the card he gives."""
    points = 0
    count = 0
    for suit in (trump, *(s for s in range(4) if s != trump)):
        sm = SUIT_MASK[suit]
        top = (theirs & sm).bit_length()  # within a suit, a higher rank has a higher index
        run = (mine & sm) >> top << top
        while run:
            high = 1 << (run.bit_length() - 1)
            points += POINTS[high.bit_length() - 1]
            count += 1
            run ^= high
        if suit == trump and count < (theirs & sm).bit_count():
            break  # his trumps are not all drawn: the plain tops are not sure
    return points + CLOSE_SLACK * count


def _lead(cards: int, mine: int, theirs: int, trump: int, phase2: bool, score: int) -> int:
    tmask = SUIT_MASK[trump]
    opp_trumps = theirs & tmask
    best_sure, best_sure_pts = -1, -1
    cheapest, cheapest_cost = -1, 1e9
    keep = _KEEP[phase2][trump]
    c = cards
    while c:
        low = c & -c
        c ^= low
        card = low.bit_length() - 1
        suit = SUIT_OF[card]
        beaten = theirs & ABOVE[card] or (
            suit != trump and opp_trumps and (not phase2 or not theirs & SUIT_MASK[suit]))
        pts = POINTS[card]
        if not beaten and pts > best_sure_pts:
            best_sure, best_sure_pts = card, pts
        cost = pts + keep[card]
        if not phase2 and mine & _PARTNER[card]:
            cost += _PARTNER_KEEP
        if cost < cheapest_cost:
            cheapest, cheapest_cost = card, cost
    if best_sure >= 0 and (phase2 or best_sure_pts >= 10 or score + best_sure_pts >= WINNING_TOTAL):
        return best_sure
    return cheapest


def _follow(cards: int, lead: int, mine: int, trump: int, phase2: bool,
            score: int, opp_score: int) -> int:
    lead_suit = SUIT_OF[lead]
    lead_pts = POINTS[lead]
    winner, winner_cost = -1, 1e9
    loser, loser_cost = -1, 1e9
    keeps = _KEEP[phase2][trump]
    c = cards
    while c:
        low = c & -c
        c ^= low
        card = low.bit_length() - 1
        suit = SUIT_OF[card]
        wins = card > lead if suit == lead_suit else suit == trump
        keep = keeps[card]
        if not phase2 and mine & _PARTNER[card]:
            keep += _PARTNER_KEEP
        if wins:
            cost = keep + 0.1 * (card % 6)
            if cost < winner_cost:
                winner, winner_cost = card, cost
        else:
            cost = POINTS[card] + keep
            if cost < loser_cost:
                loser, loser_cost = card, cost
    if winner < 0:
        return loser
    if loser < 0:
        return winner
    gain = lead_pts + POINTS[winner]
    if score + gain >= WINNING_TOTAL or opp_score + lead_pts + POINTS[loser] >= WINNING_TOTAL:
        return winner
    return winner if gain >= winner_cost else loser


def _counted(s: State, seat: int) -> int:
    """Card points and counted marriages (the last-trick bonus aside)."""
    return s.points[seat] + (s.marriages[seat] if s.tricks[seat] else 0)


def _close_pays(s: State, p: int, pairs: int) -> bool:
    """Whether the player on lead reaches 66 by closing now and running off sure
    winners (judged on the opponent's actual cards), with the best marriage he may show."""
    trump = s.trump
    marriage = 0
    c = pairs
    while c:
        q = c & -c
        c ^= q
        marriage = max(marriage, marriage_value(SUIT_OF[q.bit_length() - 1], trump))
    base = s.points[p] + s.marriages[p] + marriage
    if s.tricks[p] and not s.config.next_trick and base >= WINNING_TOTAL:
        return False  # showing the marriage reaches 66 without closing (R5.5)
    gain = run_off(s.hands[p], s.hands[1 - p], trump)
    return base + gain >= WINNING_TOTAL and (s.tricks[p] > 0 or gain > 0)


def fixed_code(s: State, m: int, score: int) -> int:
    """The playout policy's action when it is not a card to play (``m`` the legal actions,
    ``score`` the counted points of the player to act): declare 66 (or ``66+S``) once the
    counted total reaches it, draw, exchange the trump card; -1 when a card (or a close)
    is to be chosen."""
    st = s.phase
    if st == _DRAWING:
        if m >> DECLARE & 1 and score >= WINNING_TOTAL:
            return DECLARE
        return DRAW if m >> DRAW & 1 else (m & -m).bit_length() - 1
    if st != _LEAD:
        return -1
    if m >> DECLARE & 1 and score >= WINNING_TOTAL:
        return DECLARE
    shows = m >> DECLARE_MARRIAGE
    if shows:
        p = s.to_act
        for suit in range(4):
            if shows >> suit & 1 and \
                    s.points[p] + s.marriages[p] + marriage_value(suit, s.trump) >= WINNING_TOTAL:
                return DECLARE_MARRIAGE + suit
    if m >> EXCHANGE & 1:
        return EXCHANGE
    return -1


def card_codes(s: State, m: int) -> int:
    """The card plays among the legal actions ``m`` as the policy's fixed part leaves them:
    a follower never revokes (R10.2), and a King or Queen led with its partner in hand is
    led as the marriage."""
    cards = m & CARD_BITS
    if s.phase == _FOLLOW and (s.closed_by >= 0 or s.drawn >= STOCK_CARDS):
        cards &= follow_mask(s.hands[s.to_act], s.lead, s.trump)
    pairs = (m >> MARRIAGE) & cards
    return (cards & ~pairs) | pairs << MARRIAGE


def advance(s: State) -> None:
    """Take the policy's fixed actions (:func:`fixed_code`) until a card is to be played
    or the hand is over."""
    while s.phase != _OVER:
        code = fixed_code(s, s.legal_mask(), _counted(s, s.to_act))
        if code < 0:
            return
        s.push(code)


def policy_code(s: State, fair: bool = False, close: bool = False,
                rng: Rng | None = None, epsilon: float = 0.0) -> int:
    """The playout policy's action for the player to act (the hand must not be over).

    * declare 66 (or ``66+S``) as soon as the counted total reaches 66, never falsely;
    * draw rather than close; exchange when allowed; close only with ``close`` and
      when running off sure winners reaches 66;
    * on lead, announce a marriage when one can be, trumps first; else lead an
      unbeatable high card, or the card that costs least to give away;
    * when following, win the trick cheaply when it is worth it, else throw the
      cheapest loser; never revoke;
    * with probability ``epsilon`` (drawn from ``rng``) a card is chosen at random.

    ``fair``: a lead counts as unbeatable only if no card the player cannot see (the
    opponent's hand and the face-down stock) beats it.
    """
    m = s.legal_mask()
    st = s.phase
    p = s.to_act
    score = _counted(s, p)
    fixed = fixed_code(s, m, score)
    if fixed >= 0 or st == _DRAWING:
        return fixed
    trump = s.trump
    mine = s.hands[p]
    phase2 = s.closed_by >= 0 or s.drawn >= STOCK_CARDS
    if st == _LEAD:
        marriages = (m >> MARRIAGE) & CARD_BITS
        if close and m >> CLOSE & 1 and _close_pays(s, p, marriages):
            return CLOSE
        if marriages:
            pick = marriages & SUIT_MASK[trump] or marriages
            return MARRIAGE + (pick & -pick).bit_length() - 1  # the Queen (or King) of the pair
        cards = m & CARD_BITS
        if epsilon and rng is not None and rng.random() < epsilon:
            return _random_card(cards, rng)
        theirs = s.hands[1 - p]
        if fair:
            stock = s.stock
            for i in range(s.drawn, STOCK_CARDS - 1):
                theirs |= 1 << stock[i]
        return _lead(cards, mine, theirs, trump, phase2, score)
    # Following.
    cards = m & CARD_BITS
    lead = s.lead
    if phase2:
        cards &= follow_mask(mine, lead, trump)  # never revoke (R10.2)
    if epsilon and rng is not None and rng.random() < epsilon:
        return _random_card(cards, rng)
    return _follow(cards, lead, mine, trump, phase2, score, _counted(s, 1 - p))


def _random_card(cards: int, rng: Rng) -> int:
    k = rng.below(cards.bit_count())
    while k:
        cards &= cards - 1
        k -= 1
    return (cards & -cards).bit_length() - 1


def playout(s: State, rng: Rng, epsilon: float = 0.0, fair: bool = False, close: bool = False,
            stop_cards: int = -1) -> None:
    """Play ``s`` on with :func:`policy_code` until it is over, or until the stock is
    closed or exhausted and the player to act holds at most ``stop_cards`` cards."""
    push = s.push
    while s.phase != _OVER:
        if stop_cards >= 0 and (s.closed_by >= 0 or s.drawn >= STOCK_CARDS) \
                and s.hands[s.to_act].bit_count() <= stop_cards:
            return
        push(policy_code(s, fair, close, rng, epsilon))


# Information-set MCTS ------------------------------------------------------------------------
class _Node:
    __slots__ = ("avail", "children", "prior", "squares", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0
        self.avail = 1
        self.prior = -2


class Search:
    """Information-set MCTS over sampled worlds, in the kernel (the search of
    :class:`sixtysix.bots.ismcts.ISMCTSBot`; with ``cards_only``, of ``santase-ismcts``).

    The worlds are the template state with the opponent's hand and the stock dealt
    anew: from ``layouts`` (``(hand mask, stock)`` pairs dealt out in turn) when it is
    not empty, else sampled uniformly: the opponent holds ``must`` and ``free`` cards of
    ``allowed``; the other ``unseen`` cards are the stock, shuffled when ``ordered``,
    with ``last`` (when not -1) as its last card. Rewards are ``utility[game points + 3]``
    for ``seat``. ``config`` (a :class:`~sixtysix.kernel.tree.TreeConfig`, checked when
    it was made; a bot's :class:`~sixtysix.bots.search_config.SearchConfig` is one) holds
    the tree's options, read once here: ``c`` (UCB1's exploration), ``epsilon`` (random
    card choices in playouts), ``bias`` (favouring the playout policy's action) and those
    below. What changes with each decision is given with it: ``utility``,
    ``solve_cards`` and ``root_prior``. A position with the stock closed or exhausted is
    a leaf, played on by the policy until ``solve_cards`` are left (-1: to the end), then
    solved exactly.

    With ``settle`` S above 0 the search stops early once its choice is settled: when
    the root action with the most visits leads the next one by more than S times the
    iterations left (the budget's, or those the time left would buy at the rate so
    far). With S = 1 no action could overtake it any more; smaller values stop sooner
    and leave close decisions the whole budget. With ``tolerance`` T above 0 it also
    stops when the choice hardly matters: every other root action's mean reward is
    below that action's, or above it by less than T, with two standard errors of the
    difference to spare (from :data:`TOLERANCE_FROM` iterations on). It looks after
    :data:`SETTLE_FROM` iterations and then every :data:`SETTLE_EVERY`.

    ``root_prior`` (a probability for each action code, from a learned policy) guides
    the root with weight ``net_prior`` P > 0, as PUCT does (Silver et al. 2017): a root action
    of probability p with n visits of the root's N gets P · p · √N / (1 + n) more in its
    score, and the likeliest untried action is tried first there.

    With ``cards_only`` the tree holds card plays only: below the root the playout
    policy's fixed part (:func:`fixed_code`: declaring, drawing, the exchange) takes every
    other decision, nobody closes, a follower never revokes and a King or Queen led with
    its partner is led as the marriage (:func:`card_codes`); the root's actions are its
    card plays so taken, and the tree goes on after the stock is closed or exhausted
    (no leaf there: each new node is played out to the end of the hand). This is the
    Santase engine's search (``santase-ismcts``).

    >>> search = Search(1, TreeConfig(c=0.4, bias=2.0), [g / 3 for g in range(-3, 4)], solve_cards=6)
    >>> search.config.bias, search.solve_cards, search.utility[6]
    (2.0, 6, 1.0)
    >>> Search(1, {"c": 0.4}, [0.0] * 7)
    Traceback (most recent call last):
    ...
    TypeError: config must be a TreeConfig, not dict
    """

    def __init__(self, seat: int, config: TreeConfig, utility: Sequence[float], *, solve_cards: int = -1,
                 root_prior: Sequence[float] = ()) -> None:
        if not isinstance(config, TreeConfig):
            raise TypeError(f"config must be a TreeConfig, not {type(config).__name__}")
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat}")
        self.seat = seat
        #: The tree's options, read once here (checked when the config was made).
        self.config = config
        self._c, self._bias, self._epsilon = float(config.c), float(config.bias), float(config.epsilon)
        self._settle, self._tolerance = float(config.settle), float(config.tolerance)
        self._weight, self._cards_only = float(config.net_prior), bool(config.cards_only)
        self.solve_cards = solve_cards
        self.utility = tuple(utility)
        if len(self.utility) != 7:
            raise ValueError("utility must give the worth of each result from -3 to 3 game points")
        self.root_prior = tuple(float(p) for p in root_prior)
        if self.root_prior and len(self.root_prior) != NUM_CODES:
            raise ValueError(f"root_prior gives {len(self.root_prior)} probabilities, not one per action "
                             f"code ({NUM_CODES})")
        #: The tree of the last run (the pure kernel keeps it, for tests and study).
        self.last_tree: _Node | None = None

    def run(self, template: State, opponent: int, layouts: Sequence[tuple[int, Sequence[int]]],
            must: int, allowed: Sequence[int], free: int, unseen: Sequence[int], ordered: bool,
            last: int, iterations: int, seconds: float, seed: int,
            solver: Solver) -> tuple[int, int, dict[int, tuple[int, float, float]]]:
        """Search for ``iterations`` iterations, or ``seconds`` when positive (whichever
        ends first, at least one iteration); returns the iterations run, the root's prior
        (-2 when none was asked for) and each root action's visits, summed rewards and
        summed squared rewards."""

        if not 0 <= free <= len(allowed):
            raise ValueError(f"free must be between 0 and {len(allowed)}, not {free}")
        rng = Rng(seed)
        start = time.perf_counter()
        deadline = start + seconds if seconds > 0 else None
        settle = self._settle or self._tolerance
        root = _Node()
        cache: dict[tuple[int, ...], int] = {}
        me = self.seat
        c = self._c
        bias = self._bias
        utility = self.utility
        weight = self._weight
        guide = self.root_prior if weight > 0 else ()
        cards_only = self._cards_only
        next_layout = 0
        done = 0
        while done < iterations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            if settle and done >= SETTLE_FROM and done % SETTLE_EVERY == 0 and \
                    self._settled(root, iterations - done, done, start, deadline):
                break
            done += 1
            world = template.copy()
            if layouts:
                hand, stock = layouts[next_layout]
                next_layout = next_layout + 1 if next_layout + 1 < len(layouts) else 0
                world.deal_hidden(opponent, hand, stock)
            else:
                world.deal_hidden(opponent, *_sample(rng, must, allowed, free, unseen, ordered, last))
            node = root
            path = [root]
            value = 0
            while True:
                if cards_only and node is not root:
                    advance(world)
                if world.phase == _OVER:
                    value = world.value()
                    break
                if node is not root and not cards_only and \
                        (world.drawn >= STOCK_CARDS or world.closed_by >= 0):
                    value = self._phase2(world, rng, solver, cache)
                    break
                legal = world.legal_mask()
                if cards_only:
                    legal = card_codes(world, legal)
                children = node.children
                mine = world.to_act == me
                prior = -1
                if bias:
                    prior = node.prior
                    if prior == -2:
                        prior = node.prior = policy_code(world, True, False)
                best_code = -1
                best_score = -math.inf
                best_child = node
                untried: list[int] = []
                guided = guide if node is root else ()
                scale = weight * math.sqrt(root.visits) if guided else 0.0
                m = legal
                while m:
                    low = m & -m
                    m ^= low
                    code = low.bit_length() - 1
                    child = children.get(code)
                    if child is None:
                        untried.append(code)
                        continue
                    child.avail += 1
                    visits = child.visits
                    mean = child.total / visits
                    score = (mean if mine else -mean) + c * math.sqrt(math.log(child.avail) / visits)
                    if code == prior:
                        score += bias / (visits + 1)
                    if guided:
                        score += scale * guided[code] / (1 + visits)
                    if score > best_score:
                        best_code, best_score, best_child = code, score, child
                if untried:
                    if guided:
                        # The likeliest untried action (the first in code order among equals).
                        code = max(untried, key=lambda u: (guided[u], -u))
                    elif prior in untried:
                        code = prior
                    else:
                        code = untried[0] if len(untried) == 1 else untried[rng.below(len(untried))]
                    world.push(code)
                    child = _Node()
                    children[code] = child
                    path.append(child)
                    value = self._evaluate(world, rng, solver, cache)
                    break
                if best_code < 0:
                    raise ValueError("no legal action in an unfinished hand")
                world.push(best_code)
                node = best_child
                path.append(node)
            reward = utility[(value if me == 0 else -value) + 3]
            for n in path:
                n.visits += 1
                n.total += reward
            if len(path) > 1:
                path[1].squares += reward * reward
        self.last_tree = root
        stats = {code: (child.visits, child.total, child.squares) for code, child in root.children.items()}
        return done, root.prior, stats

    def _settled(self, root: _Node, left: int, done: int, start: float, deadline: float | None) -> bool:
        return settled(root.children, self._settle, self._tolerance, left, done, start, deadline)

    def _evaluate(self, world: State, rng: Rng, solver: Solver, cache: dict[tuple[int, ...], int]) -> int:
        if world.phase == _OVER:
            return world.value()
        if world.stock_open:
            playout(world, _seeded(rng), self._epsilon, False, False, self.solve_cards)
            if world.phase == _OVER:
                return world.value()
        return self._phase2(world, rng, solver, cache)

    def _phase2(self, world: State, rng: Rng, solver: Solver, cache: dict[tuple[int, ...], int]) -> int:
        if world.phase != _OVER and world.hands[world.to_act].bit_count() > self.solve_cards:
            playout(world, _seeded(rng), self._epsilon, False, False, self.solve_cards)
        if world.phase == _OVER:
            return world.value()
        key = world.key()
        value = cache.get(key)
        if value is None:
            value = cache[key] = solver.value(world)
        return value


def _seeded(rng: Rng) -> Rng:
    """A generator for one playout, seeded from the search's (as the compiled kernel does)."""

    return Rng(rng.next64())


def _sample(rng: Rng, must: int, allowed: Sequence[int], free: int, unseen: Sequence[int],
            ordered: bool, last: int) -> tuple[int, list[int]]:
    """A uniform layout: ``free`` cards of ``allowed`` (by a partial Fisher-Yates) with
    ``must`` for the opponent; the rest of ``unseen`` for the stock, shuffled when
    ``ordered``, then ``last``."""
    hand = must
    pool = list(allowed)
    n = len(pool)
    for i in range(free):
        k = i + rng.below(n - i)
        pool[i], pool[k] = pool[k], pool[i]
        hand |= 1 << pool[i]
    stock = [card for card in unseen if not hand >> card & 1]
    if ordered:
        for i in range(len(stock) - 1, 0, -1):
            j = rng.below(i + 1)
            stock[i], stock[j] = stock[j], stock[i]
    if last >= 0:
        stock.append(last)
    return hand, stock


def settled(children: Mapping[int, Any], settle: float, tolerance: float, left: int, done: int,
            start: float, deadline: float | None) -> bool:
    """Whether a search's choice is settled, from its root's ``children`` (by action code:
    ``visits``, ``total`` and ``squares`` of the rewards): the most visited action (the
    lowest code among equals) leads the next by more than ``settle`` times the iterations
    left (``left`` of the budget, fewer if time runs out first), or no other action is
    better by ``tolerance`` or more (see :class:`Search`). Also what
    :class:`sixtysix.bots.ismcts.ISMCTSBot`'s own loop asks."""
    first = second = 0
    leader_code = -1
    for code, child in children.items():
        visits = child.visits
        if visits > first or (visits == first and code < leader_code):
            first, second, leader_code = visits, first, code
        elif visits > second:
            second = visits
    if settle:
        remaining: float = left
        if deadline is not None:
            now = time.perf_counter()
            remaining = min(remaining, done * (deadline - now) / max(now - start, 1e-9))
        if first - second > settle * remaining:
            return True
    if not tolerance or done < TOLERANCE_FROM or first < 2:
        return False
    leader = children[leader_code]
    mean = leader.total / first
    spread = max(leader.squares / first - mean * mean, 0.0) / first
    for code, child in children.items():
        visits = child.visits
        if code == leader_code:
            continue
        if visits < 2:
            return False
        other = child.total / visits
        error = spread + max(child.squares / visits - other * other, 0.0) / visits
        if other - mean + 2.0 * math.sqrt(error) >= tolerance:
            return False
    return True
