"""The engine's reasons for refusing an action (sixtysix.game.refusal): the most specific the
rule book gives. Positions are found by random play and the expected reason is read off
the rule book (R4.1/S4.1 the trump nine or jack, R5.1 a marriage's partner, R6.1 the
stock's size, the options' names), not off the code under test."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from sixtysix import Action, Card, Hand, Rules
from sixtysix.errors import IllegalActionError
from sixtysix.game.cards import Rank
from sixtysix.game.refusal import Refusal


def _refused(hand: Hand, text: str) -> Refusal:
    with pytest.raises(IllegalActionError) as caught:
        hand.push(Action.parse(text))
    refusal = caught.value.refusal
    assert refusal is not None and str(refusal) in str(caught.value)
    return refusal


def _find(rules: Rules, wanted: Callable[[Hand], bool], seed: str) -> Hand:
    """A position of random play where ``wanted`` holds (within a few hundred hands)."""
    rng = random.Random(seed)
    for _ in range(400):
        hand = Hand.random(rng=rng, rules=rules)
        while not hand.is_over():
            if wanted(hand):
                return hand
            legal = hand.legal_actions()
            plain = [a for a in legal if str(a) != "C" and not a.is_declaration]  # long hands
            hand.push(rng.choice(plain or legal))
    raise AssertionError("no such position found")


def _leader(hand: Hand) -> int:
    seat = hand.to_act
    assert seat is not None
    return seat


def _leads(hand: Hand) -> bool:
    return hand.view(_leader(hand)).state == "lead"


@pytest.mark.parametrize(("preset", "rank"), [("classic", Rank.NINE), ("schnapsen", Rank.JACK)])
def test_the_exchange_names_the_trump_card_it_needs(preset: str, rank: Rank) -> None:
    """R4.1 (the nine) and S4.1 (the jack from 20 cards)."""
    def wanted(hand: Hand) -> bool:
        view = hand.view(_leader(hand))
        needed = Card(view.trump, rank)
        return _leads(hand) and view.tricks_won[view.seat] > 0 and view.stock_size >= 4 \
            and view.trump_card is not None and needed not in view.hand and needed != view.trump_card

    hand = _find(Rules.preset(preset), wanted, preset)
    refusal = _refused(hand, "X")
    assert refusal.blanks == {"needed": Card(hand.trump, rank)}
    assert f"needs {Card(hand.trump, rank)} in hand (R4.1)" in str(refusal)


def test_a_marriage_lead_names_the_partner_it_lacks() -> None:
    def wanted(hand: Hand) -> bool:
        view = hand.view(_leader(hand))
        return _leads(hand) and view.stock_size > 0 and view.closed_by is None and any(
            c.rank == Rank.KING and Card(c.suit, Rank.QUEEN) not in view.hand for c in view.hand)

    hand = _find(Rules(), wanted, "marriage")
    view = hand.view(_leader(hand))
    king = next(c for c in sorted(view.hand)
                if c.rank == Rank.KING and Card(c.suit, Rank.QUEEN) not in view.hand)
    refusal = _refused(hand, f"{king}+")
    assert refusal.blanks == {"card": king, "partner": Card(king.suit, Rank.QUEEN)}
    assert str(refusal) == f"{king}+ announces a marriage: it needs {Card(king.suit, Rank.QUEEN)} too (R5.1)"


def test_the_king_is_led_under_marriage_lead_king() -> None:
    rules = Rules.parse("classic,marriage_lead=king")

    def wanted(hand: Hand) -> bool:
        view = hand.view(_leader(hand))
        return any(a.code >= 24 and a.code < 48 for a in view.legal)

    hand = _find(rules, wanted, "king")
    marriage = next(a for a in hand.legal_actions() if 24 <= a.code < 48)
    assert marriage.card is not None and marriage.card.rank == Rank.KING  # the rule itself
    queen = Card(marriage.card.suit, Rank.QUEEN)
    refusal = _refused(hand, f"{queen}+")
    assert refusal.blanks == {"partner": marriage.card} and "(marriage_lead)" in str(refusal)


def test_closing_names_the_stock_it_needs() -> None:
    rules = Rules.parse("classic,close_min_stock=6")

    def wanted(hand: Hand) -> bool:
        view = hand.view(_leader(hand))
        return _leads(hand) and view.closed_by is None and 0 < view.stock_size < 6

    hand = _find(rules, wanted, "close")
    assert str(_refused(hand, "C")) == "closing needs at least 6 cards in the stock (R6.1)"


def test_the_trick_winner_draws_first() -> None:
    def wanted(hand: Hand) -> bool:
        return hand.view(_leader(hand)).state == "draw"

    hand = _find(Rules(), wanted, "draw")
    view = hand.view(_leader(hand))
    card = sorted(view.hand)[0]
    assert str(_refused(hand, str(card))) == "the trick winner must first draw (D), close (C) or declare (66)"
    assert str(_refused(hand, "X")) == "the trick winner must first draw (D), close (C) or declare (66)"


def test_a_stock_that_is_gone_can_be_neither_closed_nor_exchanged_from() -> None:
    def wanted(hand: Hand) -> bool:
        view = hand.view(_leader(hand))
        return _leads(hand) and view.stock_size == 0

    hand = _find(Rules(), wanted, "gone")
    assert str(_refused(hand, "C")) == "the stock is already closed or used up (R6.1)"
    assert str(_refused(hand, "X")) == "the exchange needs an open stock (R4.1)"
    assert str(_refused(hand, "D")).startswith("there is nothing to draw now")


@pytest.mark.parametrize("rules", ["classic", "pagat", "santase", "schnapsen", "course",
                                   "classic,marriage_lead=king", "classic,marriage_counts=next_trick",
                                   "classic,close_first_lead=false,marriage_first_lead=false",
                                   "classic,exchange_min_stock=4,close_min_stock=6"])
def test_every_refusal_names_a_rule(rules: str) -> None:
    """The catch-all sentence is never the reason given, at any decision of random hands."""
    from sixtysix.game.actions import ACTIONS
    from sixtysix.game.refusal import NOT_NOW

    rng = random.Random(rules)
    for _ in range(25):
        hand = Hand.random(rng=rng, rules=Rules.parse(rules))
        while not hand.is_over():
            legal = set(hand.legal_actions())
            for action in ACTIONS:
                if action is not None and action not in legal and action.code >= 24:
                    assert _refused(hand, str(action)).sentence != NOT_NOW, (rules, str(action))
            hand.push(rng.choice(sorted(legal, key=str)))


def test_closing_is_named_where_the_rules_have_none() -> None:
    hand = _find(Rules.preset("course"), _leads, "course")
    assert str(_refused(hand, "C")) == "these rules have no closing of the stock (closing)"
