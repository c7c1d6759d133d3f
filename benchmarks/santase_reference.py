"""The reference: ``santase-ismcts`` as it was, with its own search tree in Python
(kept here to measure the kernel's search configured as it against it, then removed).

Run:  python benchmarks/santase_reference.py [--positions 300] [--iterations 2000]
      (CPU seconds per decision of both, on the same positions)
      sixtysix arena santase-ismcts:iterations=2000 \
          benchmarks/santase_reference.py:SantaseISMCTSBot:iterations=2000 --matches 200

A plain ISMCTS in the manner of the Santase C# game engine (``santase-ismcts``).

This is the baseline the ``ismcts`` bot is measured against. It follows the
design of the information-set search player of the open-source Santase
(Bulgarian Sixty-six) engine, re-expressed for this library:

* **The tree holds card plays only.** Every other decision is a fixed rule,
  applied at the real decision and, except for closing, inside the
  simulations for either player (as in the engine, nobody closes in a
  simulation):

  - **66** is declared as soon as the counted total reaches it (with
    ``66+S`` when showing a marriage brings it there), never falsely; under
    ``auto_declare`` the engine does it.
  - **The trump exchange** (R4) is made whenever it is allowed.
  - **Marriages** are always announced: a King or Queen led while its
    partner is in hand and a marriage may be announced is led as the
    marriage.
  - **Drawing:** when the rules offer a close before the draw, it always
    draws; the close is considered only at the lead that follows.
  - **Closing**, at a lead where it is allowed, when any of these holds:
    five or more trumps in hand; four or more trumps including the trump
    King and Queen, with the trump Ace or the trump Ten accounted for (in
    hand, played, or the face-up card), so the opponent cannot hold both;
    the trump marriage in hand with at least 26 points counted; a plain
    marriage in hand with at least 46 points counted.

* **The search** is single-observer ISMCTS: each iteration samples one world
  (opponent's hand and stock order) consistent with what the player has seen,
  descends the tree by UCB1 with availability counts over the cards legal in
  that world, with rewards normalised to [0, 1] (``0.5 + game points / 6``)
  and an exploration constant of **C = 0.2**; it expands one child per
  iteration (the untried legal card with the lowest index), plays the world
  out with a playout policy, and backs the reward up the path. The card
  played is the root child with the most visits (ties: the higher mean).
* **Playouts** play to the end of the hand, with cards chosen by
  ``playout``: ``"simple"`` (default: the rule-of-thumb policy of
  :mod:`sixtysix.bots.rollout` without randomness, close to the engine's own
  simple playout: take valuable tricks cheaply, duck cheaply, cash sure
  winners, announce marriages, declare at 66, exchange, never close) or
  ``"random"`` (the fixed rules above, cards uniformly among the legal ones,
  never a revoke).
* **The endgame:** once the stock is exhausted the opponent's hand is known,
  and the card is chosen by exact search (:class:`~sixtysix.solver.Solver`).

The time-per-move interface is the same as ``ismcts``: ``iterations`` and
``time`` (seconds), whichever ends first.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=8)
>>> bot = SantaseISMCTSBot(seed=1, iterations=100)
>>> hand.is_legal(bot.choose(hand.view(hand.to_act), hand.legal_actions()))
True
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Sequence

from sixtysix.actions import (
    ACTIONS,
    CLOSE,
    DECLARE,
    DECLARE_MARRIAGE,
    DRAW,
    EXCHANGE,
    MARRIAGE,
    Action,
    action_of,
)
from sixtysix.bots.base import BaseBot
from sixtysix.bots.ismcts import Node
from sixtysix.bots.rollout import random_card
from sixtysix.bots.search_config import DEFAULT_ITERATIONS
from sixtysix.bots.worlds import Worlds
from sixtysix.hand import Hand
from sixtysix.kernel import (
    CARD_BITS,
    STOCK_CARDS,
    SUIT_MASK,
    WINNING_TOTAL,
    Phase,
    State,
    declared_total,
    follow_mask,
)
from sixtysix.solver import Solver
from sixtysix.views import View

__all__ = ["SantaseISMCTSBot", "fixed_action", "should_close"]

_TEN = 4
_ACE = 5
_QUEEN = 2
_KING = 3
OVER = Phase.OVER


def _state(hand: Hand | State) -> State:
    return hand.kernel if isinstance(hand, Hand) else hand


def _counted(s: State, seat: int) -> int:
    """Card points and the marriages that count (R5.3)."""
    return s.card_points(seat) + (s.marriage_points(seat) if s.tricks_won(seat) else 0)


def should_close(hand: Hand | State) -> bool:
    """The engine's closing rule for the player to act (see the module documentation).

    It uses only what that player knows: his cards, the cards played, the
    face-up trump and his counted points.
    """
    s = _state(hand)
    p = s.to_act
    mine = s.hand(p)
    trump = s.trump
    tmask = SUIT_MASK[trump]
    trumps = (mine & tmask).bit_count()
    if trumps >= 5:
        return True
    king, queen = trump * 6 + _KING, trump * 6 + _QUEEN
    trump_marriage = mine >> king & 1 and mine >> queen & 1
    score = _counted(s, p)
    if trump_marriage:
        if trumps >= 4:
            left = s.stock_cards()
            stock = 0
            for i in left:
                stock |= 1 << i
            played = CARD_BITS & ~s.hand(0) & ~s.hand(1) & ~stock
            known = mine | played | 1 << left[-1]  # the face-up trump is seen
            if known >> (trump * 6 + _ACE) & 1 or known >> (trump * 6 + _TEN) & 1:
                return True
        if score >= 26:
            return True
    if score >= 46:
        for suit in range(4):
            if suit != trump and mine >> (suit * 6 + _KING) & 1 and mine >> (suit * 6 + _QUEEN) & 1:
                return True
    return False


def fixed_action(hand: Hand | State, close: bool = True) -> int:
    """The action code the fixed rules take for the player to act, or -1 for a card decision.

    Without ``close`` the closing rule is left out (nobody closes inside the simulations).
    """
    s = _state(hand)
    m = s.legal_mask()
    st = s.phase
    if st == Phase.FOLLOW:
        return -1
    p = s.to_act
    if m >> DECLARE & 1 and _counted(s, p) >= WINNING_TOTAL:
        return DECLARE
    shows = m >> DECLARE_MARRIAGE & 0xF
    if shows:
        announced = s.card_points(p) + s.marriage_points(p)
        for suit in range(4):
            if shows >> suit & 1 and \
                    declared_total(announced, DECLARE_MARRIAGE + suit, s.trump) >= WINNING_TOTAL:
                return DECLARE_MARRIAGE + suit
    if st == Phase.DRAW:
        return DRAW
    if m >> EXCHANGE & 1:
        return EXCHANGE
    if close and m >> CLOSE & 1 and should_close(s):
        return CLOSE
    return -1


def _card_moves(s: State) -> int:
    """The cards the player to act may play (a follower under table rules never revokes)."""
    cards = s.legal_mask() & CARD_BITS
    if s.phase == Phase.FOLLOW and not s.stock_open:
        cards &= follow_mask(s.hand(s.to_act), s.lead, s.trump)
    return cards


def _card_code(s: State, card: int) -> int:
    """The code that plays ``card``: a lead of a King or Queen is a marriage when it can be."""
    if s.phase == Phase.LEAD and s.legal_mask() >> (MARRIAGE + card) & 1:
        return MARRIAGE + card
    return card


def _offered(s: State, card: int, allowed: set[Action]) -> Action | None:
    """The offered action that plays ``card``: the marriage lead the fixed rules prefer,
    else the plain play; ``None`` if neither is offered."""
    for code in (_card_code(s, card), card):
        action = ACTIONS[code]
        if action is not None and action in allowed:
            return action
    return None


def _offered_play(s: State, card: int, allowed: set[Action]) -> Action:
    """:func:`_offered` for a card known to be offered (chosen among those that are)."""
    action = _offered(s, card, allowed)
    assert action is not None, "the card was chosen among the offered ones"
    return action


class SantaseISMCTSBot(BaseBot):  # the reference: the separate tree as it was
    """Plain ISMCTS with the Santase engine's fixed rules (see the module documentation).

    ``c`` is the UCT constant on rewards in [0, 1]; ``playout`` is
    ``"simple"`` or ``"random"``.
    """

    name = "santase-reference"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time: float | None = None,
        c: float = 0.2,
        playout: str = "simple",
        rng: random.Random | None = None,
    ) -> None:
        if playout not in ("simple", "random"):
            raise ValueError(f"playout must be simple or random, not {playout!r}")
        if iterations is None and time is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if time is not None and time <= 0:
            raise ValueError(f"time must be positive, not {time}")
        self.iterations = iterations
        self.time = time
        self.c = c
        self.playout = playout
        self.rng = rng if rng is not None else random.Random(seed)
        #: Iterations run by the last search (for measurements).
        self.last_iterations = 0

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The fixed rules' action, else the searched card, among the actions ``legal``
        offers (a caller may offer fewer than the rules allow: then only those)."""
        if len(legal) == 1:
            return legal[0]
        allowed = set(legal)
        worlds = Worlds(view, self.rng)
        hand = worlds.world()
        world = hand.kernel
        fixed = fixed_action(world)
        if fixed >= 0 and ACTIONS[fixed] in allowed:
            return action_of(fixed)
        cards = 0
        moves = _card_moves(world)
        while moves:
            low = moves & -moves
            moves ^= low
            if _offered(world, low.bit_length() - 1, allowed) is not None:
                cards |= low
        if cards == 0:
            return legal[0]  # only actions the fixed rules take, and not the one they would
        if cards & (cards - 1) == 0:
            return _offered_play(world, cards.bit_length() - 1, allowed)
        if world.closed_by < 0 and world.drawn >= STOCK_CARDS and worlds.count == 1:
            best = self._endgame(hand, cards)
        else:
            root = self._search(worlds, view.seat)
            best, best_key = -1, (-1, -math.inf)
            for card, child in root.children.items():
                key = (child.visits, child.mean)
                if cards >> card & 1 and key > best_key:
                    best, best_key = card, key
            if best < 0:  # the search never tried an offered card: the first offered
                best = (cards & -cards).bit_length() - 1
        return _offered_play(world, best, allowed)

    def _endgame(self, hand: Hand, cards: int) -> int:
        """The best of ``cards`` by exact play once the stock is exhausted (nothing is
        hidden any more)."""
        values = Solver().solve(hand).values
        world = hand.kernel
        best, best_value = -1, -math.inf
        c = cards
        while c:
            low = c & -c
            c ^= low
            card = low.bit_length() - 1
            value = values[action_of(_card_code(world, card))]
            if value > best_value:
                best, best_value = card, value
        return best

    def _advance(self, world: State) -> None:
        """Take the fixed-rule actions until a card must be chosen or the hand is over."""
        while world.phase != OVER:
            code = fixed_action(world, close=False)
            if code < 0:
                return
            world.push(code)

    def _playout(self, world: State) -> None:
        rng = self.rng
        if self.playout == "simple":
            world.playout(rng.getrandbits(64))
            return
        while world.phase != OVER:
            code = fixed_action(world, close=False)
            if code < 0:
                code = _card_code(world, random_card(_card_moves(world), rng))
            world.push(code)

    def _search(self, worlds: Worlds, seat: int) -> Node:
        root = Node()
        iterations = self.iterations
        deadline = None if self.time is None else _time.perf_counter() + self.time
        clock = _time.perf_counter
        c = self.c
        log = math.log
        sqrt = math.sqrt
        done = 0
        while True:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and done and clock() >= deadline:
                break
            done += 1
            world = worlds.world().kernel
            node = root
            path = [root]
            while True:
                self._advance(world)
                if world.phase == OVER:
                    break
                cards = _card_moves(world)
                children = node.children
                mine = world.to_act == seat
                best_card = -1
                best_score = -math.inf
                best_child = node
                untried = -1
                m = cards
                while m:
                    low = m & -m
                    m ^= low
                    card = low.bit_length() - 1
                    child = children.get(card)
                    if child is None:
                        if untried < 0:
                            untried = card
                        continue
                    child.avail += 1
                    visits = child.visits
                    mean = child.total / visits
                    score = (mean if mine else 1.0 - mean) + c * sqrt(log(child.avail) / visits)
                    if score > best_score:
                        best_card, best_score, best_child = card, score, child
                if untried >= 0:
                    world.push(_card_code(world, untried))
                    child = Node()
                    children[untried] = child
                    path.append(child)
                    self._playout(world)
                    break
                world.push(_card_code(world, best_card))
                node = best_child
                path.append(node)
            gp = world.value()
            reward = 0.5 + (gp if seat == 0 else -gp) / 6.0
            for n in path:
                n.visits += 1
                n.total += reward
        self.last_iterations = done
        return root


def _positions(count: int, seed: int) -> list[Hand]:
    """Decisions of several cards, from hands played on by the playout policy."""
    rng = random.Random(seed)
    out: list[Hand] = []
    while len(out) < count:
        hand = Hand.random(seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(0, 22)):
            if hand.is_over():
                break
            hand.push_code(hand.kernel.policy_code(False, False))
        if not hand.is_over() and fixed_action(hand) < 0 and \
                len({a.card for a in hand.legal_actions() if a.card is not None}) > 1:
            out.append(hand)
    return out


def _main() -> None:
    import argparse

    from sixtysix.bots.santase_ismcts import SantaseISMCTSBot as KernelBot

    parser = argparse.ArgumentParser(description="CPU time per decision, the reference and the kernel's")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    positions = _positions(args.positions, args.seed)
    for name, cls in (("reference", SantaseISMCTSBot), ("kernel", KernelBot)):
        bot = cls(seed=1, iterations=args.iterations)
        spent = 0.0
        for hand in positions:
            seat = hand.to_act
            assert seat is not None
            start = _time.process_time()
            bot.choose(hand.view(seat), hand.legal_actions())
            spent += _time.process_time() - start
        print(f"{name}: {1000 * spent / len(positions):.1f} ms CPU per decision "
              f"({len(positions)} decisions, {args.iterations} iterations)")


if __name__ == "__main__":
    _main()
