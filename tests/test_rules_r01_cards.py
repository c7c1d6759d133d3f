"""R1: the pack, rank order, card points and card notation."""

from __future__ import annotations

import pickle

import pytest

from sixtysix import CARDS, Action, Card, ParseError, Rank, Suit
from sixtysix.game.cards import format_cards, parse_cards


def test_R1_1_pack_has_24_distinct_cards_six_ranks_four_suits() -> None:
    assert len(CARDS) == 24
    assert len(set(CARDS)) == 24
    assert {str(c) for c in CARDS} == {r + s for r in "AKQJT9" for s in "CDHS"}
    for suit in Suit:
        assert sorted(c.rank for c in CARDS if c.suit == suit) == sorted(Rank)


def test_R1_2_rank_order_ace_ten_king_queen_jack_nine() -> None:
    order = [Rank.parse(t) for t in ["A", "T", "K", "Q", "J", "9"]]
    assert order == sorted(Rank, reverse=True)
    # Within a suit (no trump involved) the higher rank wins: the Ten beats the King.
    ten, king, ace, nine = (Card.parse(t) for t in ("TS", "KS", "AS", "9S"))
    assert ten.beats(king, Suit.HEARTS)
    assert not king.beats(ten, Suit.HEARTS)
    assert ace.beats(ten, Suit.HEARTS)
    assert not nine.beats(Card.parse("JS"), Suit.HEARTS)


@pytest.mark.parametrize(("rank", "points"), [("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0)])
def test_R1_3_card_points(rank: str, points: int) -> None:
    for suit in "CDHS":
        assert Card.parse(rank + suit).points == points
    assert Rank.parse(rank).points == points


def test_R1_3_pack_holds_120_points() -> None:
    assert sum(c.points for c in CARDS) == 120


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("TS", "TS"), ("10S", "TS"), ("10s", "TS"), ("ts", "TS"), ("T♠", "TS"), ("10♠", "TS"),
        ("9H", "9H"), ("9♥", "9H"), ("9h", "9H"), ("KD", "KD"), ("k♦", "KD"), ("QC", "QC"),
        ("q♣", "QC"), ("AH", "AH"), ("a♥", "AH"), ("JS", "JS"), (" JS ", "JS"),
    ],
)
def test_R1_4_parse_forms_and_canonical_output(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert card is Card.parse(canonical)
    assert eval(repr(card), {"Card": Card}) is card  # repr round-trips
    assert pickle.loads(pickle.dumps(card)) is card


@pytest.mark.parametrize("text", ["", "S", "1S", "11S", "KX", "ZH", "KHH", "10", "AS+", "100S"])
def test_R1_4_bad_card_tokens_are_errors(text: str) -> None:
    with pytest.raises(ParseError):
        Card.parse(text)
    assert issubclass(ParseError, ValueError)


def test_R1_4_card_lists_parse_and_format_canonically() -> None:
    parsed = parse_cards("QS 10d 9♥ as")
    assert format_cards(parsed) == "QS TD 9H AS"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("KH", "KH"), ("10h", "TH"), ("k♥+", "KH+"), ("QS+", "QS+"), ("x", "X"), ("c", "C"),
     ("d", "D"), ("66", "66"), ("66+h", "66+H"), ("66+♠", "66+S")],
)
def test_R1_4_action_tokens_accept_every_card_form(text: str, canonical: str) -> None:
    action = Action.parse(text)
    assert str(action) == canonical
    assert Action.parse(canonical) is action


@pytest.mark.parametrize("text", ["JH+", "9S+", "AH+", "67", "66+", "66+X", "E", "draw", "close"])
def test_R1_4_bad_action_tokens_are_errors_in_strict_parsing(text: str) -> None:
    with pytest.raises(ParseError):
        Action.parse(text)


def test_R1_4_lenient_words() -> None:
    assert str(Action.parse("close", lenient=True)) == "C"
    assert str(Action.parse("draw", lenient=True)) == "D"
    assert str(Action.parse("exchange", lenient=True)) == "X"
    assert str(Action.parse("kh+", lenient=True)) == "KH+"
