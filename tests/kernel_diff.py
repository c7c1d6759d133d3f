"""Differential walks through two rules kernels (the compiled and the pure one).

A kernel here is a module with ``State``, ``Rng`` and ``Solver``
(``sixtysix.kernel._pure``, ``sixtysix.kernel._ckernel``, or a mutant of either).
:func:`walk` deals the same packs to both, takes the same random actions, and
compares everything they say at every position; the first difference raises
:class:`Mismatch` with the rules, the deck and the actions that led there.
"""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType
from typing import Any

from sixtysix.game.actions import ACTIONS
from sixtysix.kernel.tables import (
    BIT_DECLARE,
    CLOSE,
    DECLARE,
    DECLARE_MARRIAGE,
    DRAW,
    EXCHANGE,
    MARRIAGE,
    Config,
    config,
)
from sixtysix.rules import BOOL_OPTIONS, PRESETS, WORD_OPTIONS, Rules

OVER = 3


class Mismatch(AssertionError):
    """The two kernels disagree."""


def random_rules(rng: random.Random) -> Rules:
    """A preset, or a random set of every option (both packs)."""
    if rng.random() < 0.4:
        return rng.choice(list(PRESETS.values()))
    options: dict[str, Any] = {name: rng.choice(words) for name, words in WORD_OPTIONS.items()}
    options.update({name: rng.random() < 0.5 for name in BOOL_OPTIONS})
    options.update(
        exchange_min_stock=rng.choice((0, 2, 4, 6, 12)),
        close_min_stock=rng.choice((0, 2, 4, 6, 13)),
        last_trick_bonus=rng.choice((0, 10)),
        deck=rng.choice((24, 20)),
    )
    return Rules().replace(**options)


def random_deck(rules: Rules, rng: random.Random) -> list[int]:
    cards = [c for c in range(24) if rules.deck == 24 or c % 6 != 0]
    rng.shuffle(cards)
    return cards


def observe(s: Any) -> tuple[Any, ...]:
    """Everything a kernel state says (the key holds the whole position)."""
    over = s.phase == OVER
    return (
        s.key(), s.legal_mask(), s.phase, s.to_act, s.lead, s.trump, s.exchange_card, s.drawn,
        s.stock_size, s.stock_open, s.closed_by, s.closed_at, s.close_value, s.bonus_seat,
        s.winner, s.game_points, s.reason, s.value() if over else None, s.failed_close_points(), s.scoring(),
        tuple(s.stock_cards()), tuple(s.history()), s.depth(),
        *(f(seat) for seat in (0, 1) for f in (s.hand, s.card_points, s.tricks_won,
                                                 s.marriage_points, s.pending_points, s.score)),
    )


def record(s: Any) -> tuple[Any, ...]:
    """The kernel's public record of the actions pushed: tricks, marriages, the exchange."""
    return (tuple(s.trick_history()), tuple(s.marriages_shown()), s.exchanged())


def pick(mask: int, rng: random.Random) -> int:
    """A legal code: declarations rarely (so that hands go on to closes, exchanges and
    marriages), otherwise uniformly."""
    if mask & ~(BIT_DECLARE | 0xF << DECLARE_MARRIAGE) and (
            mask & (BIT_DECLARE | 0xF << DECLARE_MARRIAGE)) and rng.random() < 0.9:
        mask &= ~(BIT_DECLARE | 0xF << DECLARE_MARRIAGE)
    k = rng.randrange(mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


class Walk:
    """Counts of what a walk met (to show that the lines hold what they must)."""

    def __init__(self) -> None:
        self.positions = 0
        self.kinds: Counter[str] = Counter()
        self.reasons: Counter[int] = Counter()


def _kind(code: int) -> str:
    if code < MARRIAGE:
        return "card"
    if code < EXCHANGE:
        return "marriage"
    return {EXCHANGE: "exchange", CLOSE: "close", DRAW: "draw", DECLARE: "declare"}.get(
        code, "declare_marriage")


class _Line:
    """The hand being walked, to name it in a mismatch."""

    def __init__(self, rules: Rules, deck: list[int], dealer: int) -> None:
        self.rules, self.deck, self.dealer = rules, deck, dealer
        self.codes: list[int] = []

    def same(self, what: str, x: Any, y: Any) -> None:
        if x != y:
            raise Mismatch(f"{what} differs after {self.codes} (rules {self.rules}, dealer {self.dealer}, "
                           f"deck {self.deck}):\n  {x}\n  {y}")


def walk(a: ModuleType, b: ModuleType, positions: int, seed: int) -> Walk:
    """Walk ``positions`` positions through kernels ``a`` and ``b``; raises :class:`Mismatch`."""
    rng = random.Random(seed)
    out = Walk()
    while out.positions < positions:
        rules = random_rules(rng)
        line = _Line(rules, random_deck(rules, rng), rng.randrange(2))
        _walk_hand(a, b, line, rng, out)
    return out


def _walk_hand(a: ModuleType, b: ModuleType, line: _Line, rng: random.Random, out: Walk) -> None:
    cfg = config(line.rules)
    same = line.same
    sa = a.State.deal(line.deck, line.dealer, cfg)
    sb = b.State.deal(line.deck, line.dealer, cfg)
    same("the deal", observe(sa), observe(sb))
    while sa.phase != OVER:
        code = pick(sa.legal_mask(), rng)
        line.codes.append(code)
        out.kinds[_kind(code)] += 1
        sa.push(code)
        sb.push(code)
        out.positions += 1
        same("the position", observe(sa), observe(sb))
        r = rng.random()
        if r < 0.1:
            same("the public record", record(sa), record(sb))
            same("pop", sa.pop(), sb.pop())
            same("the position after pop", observe(sa), observe(sb))
            sa.push(code)
            sb.push(code)
        elif r < 0.13 and sa.phase != OVER:
            _check_rebuilt(a, b, cfg, sa, sb, same)
        elif r < 0.15 and sa.phase != OVER:
            seed64 = rng.getrandbits(64)
            ca, cb = sa.copy(), sb.copy()
            same("random_playout", ca.random_playout(seed64), cb.random_playout(seed64))
            same("the position after random_playout", observe(ca), observe(cb))
        elif r < 0.18 and sa.phase != OVER:
            fair, close, epsilon = rng.random() < 0.5, rng.random() < 0.5, rng.choice((0.0, 0.2))
            same("policy_code", sa.policy_code(fair, close), sb.policy_code(fair, close))
            ca, cb = sa.copy(), sb.copy()
            seed64, stop = rng.getrandbits(64), rng.choice((-1, 2, 4))
            ca.playout(seed64, epsilon, fair, close, stop)
            cb.playout(seed64, epsilon, fair, close, stop)
            same("the position after playout", observe(ca), observe(cb))
        elif r < 0.19 and sa.phase != OVER:
            seat = rng.randrange(2)
            sa.forfeit(seat)
            sb.forfeit(seat)
            same("forfeit", observe(sa), observe(sb))
            same("the public record after forfeit", record(sa), record(sb))
            same("pop after forfeit", sa.pop(), sb.pop())
            same("the position after forfeit and pop", observe(sa), observe(sb))
            sa.push(code)
            sb.push(code)
    out.reasons[sa.reason] += 1
    same("the public record of the hand", record(sa), record(sb))
    while sa.depth():
        same("unwinding", sa.pop(), sb.pop())
    same("the deal after unwinding", observe(sa), observe(sb))


def _check_rebuilt(a: ModuleType, b: ModuleType, cfg: Config, sa: Any, sb: Any, same: Any) -> None:
    """Copies and states rebuilt from the key agree, and agree with the original."""
    key = sa.key()
    ra, rb = a.State.from_key(cfg, key), b.State.from_key(cfg, key)
    same("from_key", observe(ra)[:19], observe(rb)[:19])
    same("from_key against the original", ra.key(), key)
    same("copy", observe(sa.copy()), observe(sb.copy()))


def solver_positions(rng: random.Random, count: int) -> list[tuple[Rules, list[int], int, list[int]]]:
    """Positions to solve: random lines (with closes, exchanges, marriages and some
    declarations) stopped late in phase 1 or in phase 2, small enough for the pure solver."""
    from sixtysix.kernel._pure import State

    out: list[tuple[Rules, list[int], int, list[int]]] = []
    while len(out) < count:
        rules = random_rules(rng)
        deck = random_deck(rules, rng)
        dealer = rng.randrange(2)
        s = State.deal(deck, dealer, config(rules))
        line: list[int] = []
        while s.phase != OVER:
            cards = s.hand(s.to_act).bit_count()
            small = (not s.stock_open and cards <= 4) or (s.stock_open and s.stock_size <= 2 and cards <= 5)
            if small and rng.random() < 0.5:
                out.append((rules, deck, dealer, line[:]))
                break
            code = pick(s.legal_mask(), rng)
            s.push(code)
            line.append(code)
    return out


def compare_solvers(a: ModuleType, b: ModuleType, count: int, seed: int) -> int:
    """Solve ``count`` positions in both kernels (each legal action's value, with full
    windows and with random null windows); returns the positions solved."""
    rng = random.Random(seed)
    solved = 0
    for rules, deck, dealer, line in solver_positions(rng, count):
        cfg = config(rules)
        sa, sb = a.State.deal(deck, dealer, cfg), b.State.deal(deck, dealer, cfg)
        for code in line:
            sa.push(code)
            sb.push(code)
        va, vb = a.Solver().value(sa), b.Solver().value(sb)
        if va != vb:
            raise Mismatch(f"solver values {va} and {vb} after {line} (rules {rules}, dealer {dealer}, "
                           f"deck {deck})")
        lo = rng.randrange(-3, 3)
        ba = a.Solver().value(sa, lo, lo + 1)
        if (va <= lo and ba > lo) or (va > lo and ba <= lo):
            raise Mismatch(f"null window ({lo}, {lo + 1}) gives {ba} for value {va} after {line} "
                           f"(rules {rules}, dealer {dealer}, deck {deck})")
        solved += 1
    return solved


#: Every action code (a marriage is a King's or a Queen's).
ACTION_CODES = tuple(a.code for a in ACTIONS if a is not None)


def compare_refusals(a: ModuleType, b: ModuleType, positions: int, seed: int) -> Counter[int]:
    """Ask both kernels why each action is refused at ``positions`` positions of random
    lines; raises :class:`Mismatch` where they differ. Returns how often each reason was given."""
    rng = random.Random(seed)
    given: Counter[int] = Counter()
    seen = 0
    while seen < positions:
        rules = random_rules(rng)
        line = _Line(rules, random_deck(rules, rng), rng.randrange(2))
        cfg = config(rules)
        sa = a.State.deal(line.deck, line.dealer, cfg)
        sb = b.State.deal(line.deck, line.dealer, cfg)
        while True:
            seen += 1
            answers = [sa.refusal(code) for code in ACTION_CODES]
            line.same("refusal", answers, [sb.refusal(code) for code in ACTION_CODES])
            given.update(why for why, _ in answers)
            if sa.phase == OVER:
                break
            code = pick(sa.legal_mask(), rng)
            line.codes.append(code)
            sa.push(code)
            sb.push(code)
    return given
