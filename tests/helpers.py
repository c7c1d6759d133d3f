"""Helpers for the rules tests: hand-made decks, playing token strings, and a
small record loader that replays game records with the engine directly.

The deck helper follows R2.4: positions 1-3 go to the non-dealer, 4-6 to the
dealer, 7-9 to the non-dealer, 10-12 to the dealer, 13 is the turned-up trump
and 14-24 are the stock, 14 drawn first.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import strategies as st

from sixtysix import CARDS, Action, Card, Hand, IllegalActionError, Rules
from sixtysix.game.cards import Rank, Suit
from sixtysix.game.match import Match

RECORDS = Path(__file__).parent / "records"


def toks(text: str) -> list[str]:
    """Space-separated tokens as a list."""
    return text.split()


def cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from space-separated tokens (or an iterable of tokens)."""
    tokens = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(t) for t in tokens]


def make_deck(non_dealer: str, dealer: str, trump: str, stock: str = "") -> str:
    """A 24-card deck string giving each player the six cards named.

    ``stock`` lists the first cards to be drawn (position 14 on); the cards
    not named anywhere fill the rest of the stock in pack order.
    """
    nd = cards(non_dealer)
    de = cards(dealer)
    tc = Card.parse(trump)
    st = cards(stock)
    if len(nd) != 6 or len(de) != 6:
        raise ValueError("each player is dealt six cards")
    named = [*nd, *de, tc, *st]
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    rest = [c for c in CARDS if c not in named]
    order = [*nd[:3], *de[:3], *nd[3:], *de[3:], tc, *st, *rest]
    assert len(order) == 24
    return " ".join(str(c) for c in order)


def deal(
    non_dealer: str,
    dealer: str,
    trump: str,
    stock: str = "",
    *,
    dealer_seat: int = 0,
    rules: Rules | None = None,
    **options: Any,
) -> Hand:
    """Deal a hand from the cards named (see :func:`make_deck`).

    ``options`` are R12 options applied on top of ``rules`` (default classic).
    """
    base = rules if rules is not None else Rules.preset("classic")
    if options:
        base = base.replace(**options)
    return Hand.deal(make_deck(non_dealer, dealer, trump, stock), dealer_seat, base)


def play(hand: Hand, tokens: str) -> Hand:
    """Push space-separated action tokens strictly; returns the hand."""
    for token in tokens.split():
        hand.push(Action.parse(token))
    return hand


def legal(hand: Hand) -> list[str]:
    """The legal actions as tokens, in the engine's order."""
    return [str(a) for a in hand.legal_actions()]


def refused(hand: Hand, token: str) -> None:
    """Assert that ``token`` is illegal now and that refusing it changes nothing."""
    key = hand.key()
    actions = hand.actions
    try:
        hand.push(Action.parse(token))
    except IllegalActionError as exc:
        assert [str(a) for a in exc.legal] == legal(hand)
    else:
        raise AssertionError(f"{token} was accepted; legal: {legal(hand)}")
    assert hand.key() == key
    assert hand.actions == actions


def hand_cards(hand: Hand, seat: int) -> set[str]:
    return {str(c) for c in hand.cards(seat)}


def result(hand: Hand) -> dict[str, Any]:
    """The result object (docs/design.md §5) of a hand, finished or not."""
    res = hand.result()
    if res is not None:
        return res.to_json()
    marriages: list[list[list[Any]]] = [[], []]
    for seat, action in zip(hand.actors(), hand.actions, strict=True):
        if action.suit is not None and action.kind.value in ("marriage", "declare_marriage"):
            marriages[seat].append([action.suit.letter, 40 if action.suit == hand.trump else 20])
    return {
        "winner": None,
        "reason": "unfinished",
        "to_act": hand.to_act,
        "game_points": 0,
        "bonus": 0,
        "points": [hand.score(0), hand.score(1)],
        "tricks": [hand.tricks_won(0), hand.tricks_won(1)],
        "marriages": marriages,
        "closed_by": hand.closed_by,
    }


#: A deck for hands that only need a quick end: the non-dealer holds AS and 9H,
#: the dealer 9S and AH, and clubs are trump.
QUICK_DECK = make_deck("AS 9H QD JD TD 9D", "9S AH QC KS QS JS", "JC")


def finish_quickly(hand: Hand, winner: int) -> Hand:
    """End a hand dealt from :data:`QUICK_DECK` so that ``winner`` scores 3.

    The loser wins the first trick and declares 66 falsely (R8.3; the winner
    has no trick, so 3 game points under ``false_declaration = two_or_three``).
    """
    play(hand, "AS 9S 66" if winner == hand.dealer else "9H AH 66")
    res = hand.result()
    assert res is not None and res.winner == winner and res.reason == "false_declaration"
    return hand


#: A deck where the non-dealer wins the first five tricks with plain aces and
#: tens (hearts are trump, the KH turned up): ``RUN_5`` plays them, leaving two
#: cards in the stock. The draws give the non-dealer QS KS KC AH QH and the
#: dealer QC QD KD TH JH; the last draw is TD, then the turned-up KH.
RUN_DECK = make_deck("AS AC AD TS TC 9H", "9S 9C 9D JS JC JD", "KH", "QS QC KS QD KC KD AH TH QH JH TD")
RUN_5 = "AS 9S D AC 9C D AD 9D D TS JS D TC JC D"


def run_hand(rules: Rules | None = None, **options: Any) -> Hand:
    """A hand dealt from :data:`RUN_DECK` by seat 0 (seat 1 leads)."""
    base = rules if rules is not None else Rules.preset("classic")
    return Hand.deal(RUN_DECK, 0, base.replace(**options) if options else base)


def load(name: str) -> dict[str, Any]:
    """A JSON file under ``tests/records``."""
    with open(RECORDS / name, encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def replay_hand(record: dict[str, Any]) -> Hand:
    """Replay a one-hand record with :class:`Hand` (strict: any illegal token raises)."""
    assert record["format"] == "sixtysix/1"
    hand = Hand.deal(record["deck"], record["dealer"], Rules.from_json(record["rules"]))
    for token in record["actions"]:
        hand.push(Action.parse(token))
    return hand


def replay_match(record: dict[str, Any]) -> Match:
    """Replay a match record with :class:`Match`; a given hand dealer is checked."""
    assert record["format"] == "sixtysix/1"
    match = Match(Rules.from_json(record["rules"]), first_dealer=record["first_dealer"])
    for entry in record["hands"]:
        hand = match.deal(entry["deck"])
        if "dealer" in entry:
            assert hand.dealer == entry["dealer"], "dealer in the record disagrees with the rules"
        for token in entry["actions"]:
            hand.push(Action.parse(token))
    return match


def replay_result(record: dict[str, Any]) -> dict[str, Any]:
    """What ``sixtysix replay --json`` prints for a record (docs/design.md §5)."""
    if "hands" not in record:
        return result(replay_hand(record))
    match = replay_match(record)
    return {
        "winner": match.winner,
        "score": list(match.score),
        "hands": [r.to_json() for r in match.results()],
    }


# An independent reading of the rules (for oracles) ---------------------------------

def beats(card: Card, led: Card, trump: int) -> bool:
    """R3.3: does ``card``, played second, win the trick led with ``led``? (R1.2's order.)"""
    if card.suit == led.suit:
        return "9JQKTA".index(str(card)[0]) > "9JQKTA".index(str(led)[0])
    return int(card.suit) == trump


def phase2_follow(hand: set[Card], led: Card, trump: int) -> set[Card]:
    """R7.2: follow suit and win if possible; else follow; else trump; else anything."""
    same = {c for c in hand if c.suit == led.suit}
    if same:
        return {c for c in same if beats(c, led, trump)} or same
    trumps = {c for c in hand if int(c.suit) == trump}
    return trumps or set(hand)


#: R1.3 card points by rank letter.
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}


def turned_up(deck: Sequence[Card], rules: Rules) -> Card:
    """The trump card turned up at the deal: the 13th of 24 cards (R2.4), the 7th of
    20 (docs/schnapsen.md S2.1: three each, the trump, then two each)."""
    return deck[12] if rules.deck == 24 else deck[6]


def revealed(deck: Sequence[Card], rules: Rules, actions: Iterable[Action]) -> set[Card]:
    """The cards shown face up to both players by ``actions`` (R11.1), played cards
    aside: the turned-up trump, both cards of every marriage and, after an exchange,
    the card given for the trump (R4). Each one's place stays known to both players:
    in the stock's last place, or taken into a hand in view of both (R3.4, R4, R5)."""
    trump = turned_up(deck, rules)
    out = {trump}
    for action in actions:
        if action.kind.value in ("marriage", "declare_marriage"):
            assert action.suit is not None
            out |= {Card(action.suit, Rank.KING), Card(action.suit, Rank.QUEEN)}
        elif action.kind.value == "exchange":
            out.add(Card(trump.suit, rules.exchange_rank))
    return out


def holdings(deck: Sequence[Card], dealer: int, rules: Rules, actions: Iterable[Action]
             ) -> tuple[set[Card], set[Card]]:
    """Each seat's cards after ``actions``, worked out without the engine: the deal
    (R2.4, or S2.1 for 20 cards), the draws after each trick while the stock is open,
    winner first (R3.4; on the draw turn ``D`` when ``close_before_draw`` gives one,
    R3.6), exchanges (R4) and the cards played. Trick winners follow R3.3. A marriage
    that ends the hand under ``auto_declare`` is shown and not led (R5.5)."""
    deck = list(deck)
    nd = 1 - dealer
    if rules.deck == 24:
        held = {nd: set(deck[0:3] + deck[6:9]), dealer: set(deck[3:6] + deck[9:12])}
        stock = deck[13:] + deck[12:13]
    else:
        held = {nd: set(deck[0:3] + deck[7:9]), dealer: set(deck[3:6] + deck[9:11])}
        stock = deck[11:] + deck[6:7]
    trump = int(turned_up(deck, rules).suit)
    closed = False
    lead: tuple[int, Card] | None = None
    leader = nd
    draw_turn = False
    won = [0, 0]  # card points (R1.3)
    tricks = [0, 0]
    married = [0, 0]

    def draw(winner: int) -> None:
        for seat in (winner, 1 - winner):
            held[seat].add(stock.pop(0))

    for action in actions:
        kind = action.kind.value
        if kind == "draw":
            assert draw_turn
            draw(leader)
            draw_turn = False
        elif kind == "close":
            closed, draw_turn = True, False
        elif kind == "exchange":
            swap = Card(Suit(trump), rules.exchange_rank)
            held[leader].remove(swap)
            held[leader].add(stock.pop())
            stock.append(swap)
        elif kind in ("play", "marriage"):
            card = action.card
            assert card is not None
            if kind == "marriage":
                married[leader] += 40 if int(card.suit) == trump else 20
                if (rules.auto_declare and rules.marriage_counts != "next_trick" and tricks[leader]
                        and won[leader] + married[leader] >= 66):
                    break  # R5.5: the hand is over, the marriage unled
            if lead is None:
                held[leader].remove(card)
                lead = (leader, card)
            else:
                follower = 1 - lead[0]
                held[follower].remove(card)
                leader = follower if beats(card, lead[1], trump) else lead[0]
                won[leader] += sum(POINTS[str(c)[0]] for c in (card, lead[1]))
                tricks[leader] += 1
                lead = None
                if stock and not closed:
                    if rules.close_before_draw:
                        draw_turn = True
                    else:
                        draw(leader)
    return held[0], held[1]


# Random play for the property tests ---------------------------------------------

OPTION_VALUES: dict[str, list[object]] = {
    "marriage_first_lead": [True, False],
    "marriages_in_phase2": [False, True],
    "exchange_min_stock": [2, 4, 0, 12],
    "close_first_lead": [True, False],
    "close_min_stock": [2, 4, 0, 12],
    "close_before_draw": [True, False],
    "failed_close": ["two_or_three", "three"],
    "false_declaration": ["two_or_three", "two"],
    "auto_declare": [False, True],
    "enforce_follow": [True, False],
    "last_trick_bonus": [10, 0, 5],
}


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(["classic", "pagat", "santase"]))
    options = draw(st.fixed_dictionaries(
        {}, optional={name: st.sampled_from(values) for name, values in OPTION_VALUES.items()}))
    return Rules.preset(preset).replace(**options)


seeds = st.integers(min_value=0, max_value=2**32 - 1)
seats = st.integers(min_value=0, max_value=1)
#: How eager the random players are to declare (wrongly) and to close.
styles = st.sampled_from([(0.0, 0.0), (0.02, 0.05), (0.2, 0.2), (0.0, 0.3)])


def choose(hand: Hand, rng: random.Random, style: tuple[float, float]) -> Action:
    """A random legal action; declarations and closing only now and then."""
    declare_rate, close_rate = style
    legal = hand.legal_actions()
    p = hand.to_act
    assert p is not None
    plain = [a for a in legal if not a.is_declaration and str(a) != "C"]
    declarations = [a for a in legal if a.is_declaration]
    if declarations and ((hand.score(p) >= 66 and rng.random() < 0.5) or rng.random() < declare_rate):
        return rng.choice(declarations)
    if any(str(a) == "C" for a in legal) and (rng.random() < close_rate or not plain):
        return Action.parse("C")
    return rng.choice(plain or legal)


def need(condition: bool, why: str) -> None:
    """Skip a test whose optional component is missing, except in CI (``CI=true``),
    where a missing component is a failure."""
    if condition:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must provide this: {why}", pytrace=False)
    pytest.skip(why, allow_module_level=True)


def need_module(module: str, why: str = "pip install -e '.[test]'") -> ModuleType:
    """Import an optional module, or :func:`need` it (skip outside CI, fail in CI)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        need(False, f"{module} is not installed ({why})")
        raise


def kernel_modules() -> list[ModuleType]:
    """The rules kernels to compare: the compiled one (when it is built) and the pure one."""
    kernels: list[ModuleType] = [importlib.import_module("sixtysix.kernel._pure")]
    try:
        compiled = importlib.import_module("sixtysix.kernel._ckernel")
    except ImportError:
        return kernels
    return [compiled, *kernels]


# Engine programs a test started (each appends its process id to a file) ----------------

def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, dead but not yet reaped, does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return "\nState:\tZ" not in status


def started(pids: Path) -> list[int]:
    """The process ids written to ``pids``, one a line."""
    return [int(line) for line in pids.read_text().split()] if pids.exists() else []


def start_time(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks after boot, from ``/proc``), or ``None``
    if it is gone (or there is no ``/proc``): with its id, what tells a process from a
    later one that was given the same id."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return int(fields[19])


def wait_until_gone(pids: list[int], born: Mapping[int, int | None] | None = None, *,
                    attempts: int = 600) -> None:
    """Wait for programs that are being stopped (``attempts`` looks, 0.05 s apart: a broken
    test fails). With ``born`` (each one's :func:`start_time`, taken while it ran), a
    process that has one of those ids but started at another time is another program:
    the id was given again (ids come round quickly on a busy machine), and the program
    waited for is gone."""
    def running(pid: int) -> bool:
        if not alive(pid):
            return False
        return born is None or born.get(pid) is None or start_time(pid) == born[pid]

    for _ in range(attempts):
        if not any(running(p) for p in pids):
            return
        time.sleep(0.05)
    raise AssertionError(f"engine processes still running: {[p for p in pids if running(p)]}")

