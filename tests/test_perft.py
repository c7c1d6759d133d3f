"""Golden perft counts: the number of legal action sequences of each length
from fixed positions. A sequence that ends the hand early is not extended, so
it counts only at its own length (as in chess perft, a finished hand has no
moves). The counts are computed with push/pop and checked again by a naive
walk that copies the hand at every node."""

from __future__ import annotations

import pytest

from helpers import RUN_5, RUN_DECK, play
from sixtysix import Hand, Rules

DOC_DECK = "QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH"
R13_2_DECK = "KH QH 9S AH 9D 9H AS QD JH KS TS 9C JS TC JD KC AC TH TD AD JC QS QC KD"

#: name: (deck, dealer, preset, actions played first, counts for depth 1, 2, ...)
POSITIONS: dict[str, tuple[str, int, str, str, list[int]]] = {
    "run-classic": (RUN_DECK, 0, "classic", "",
                    [7, 42, 124, 630, 2360, 8588, 33606, 140054, 454846]),
    "doc-classic": (DOC_DECK, 1, "classic", "",
                    [7, 42, 117, 560, 1876, 5881, 22658, 78115, 231356]),
    # pagat changes the dealer rotation and the scoring, not what is legal.
    "doc-pagat": (DOC_DECK, 1, "pagat", "",
                  [7, 42, 117, 560, 1876, 5881, 22658, 78115, 231356]),
    # santase: no close and no marriage on the first lead, automatic declarations.
    "r13_2-santase": (R13_2_DECK, 0, "santase", "",
                      [6, 36, 72, 519, 2206, 5672, 25718, 104034, 269903]),
    # Two cards left in the stock; seat 1 may exchange, marry, close or declare.
    "run5-classic": (RUN_DECK, 0, "classic", RUN_5,
                     [12, 72, 231, 999, 2546, 9803, 19156, 56414, 115803]),
    "run5-santase": (RUN_DECK, 0, "santase", RUN_5,
                     [8, 36, 30, 224, 548, 2116, 2173, 1822, 4130]),
}
NAIVE_DEPTH = 7


def position(name: str) -> tuple[Hand, list[int]]:
    deck, dealer, preset, actions, counts = POSITIONS[name]
    hand = Hand.deal(deck, dealer, Rules.preset(preset))
    if actions:
        play(hand, actions)
    return hand, counts


def perft(hand: Hand, depth: int) -> int:
    """Sequences of ``depth`` legal actions, with make/unmake."""
    if depth == 0:
        return 1
    total = 0
    for action in hand.legal_actions():
        hand.push(action)
        total += perft(hand, depth - 1)
        hand.pop()
    return total


def naive_perft(hand: Hand, depth: int) -> int:
    """The same count without pop: a fresh copy for every child."""
    if depth == 0:
        return 1
    total = 0
    for action in hand.legal_actions():
        child = hand.copy()
        child.push(action)
        total += naive_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_perft_golden_counts(name: str) -> None:
    hand, counts = position(name)
    key = hand.key()
    assert [perft(hand, depth) for depth in range(1, len(counts) + 1)] == counts
    assert hand.key() == key  # the walk left the hand as it found it


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_perft_naive_copy_count_agrees(name: str) -> None:
    hand, counts = position(name)
    key = hand.key()
    assert [naive_perft(hand, depth) for depth in range(1, NAIVE_DEPTH + 1)] == counts[:NAIVE_DEPTH]
    assert hand.key() == key


def test_perft_depth_1_is_the_legal_list() -> None:
    hand, counts = position("run5-classic")
    assert counts[0] == len(hand.legal_actions()) == 12
    assert [str(a) for a in hand.legal_actions()] == [
        "KC", "9H", "QH", "AH", "QS", "KS", "QS+", "KS+", "X", "C", "66", "66+S"]
