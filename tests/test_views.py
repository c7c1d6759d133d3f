"""R11: what each player may know. Scenario tests of the view, and properties
over random hands: no hidden card ever reaches a view, and a view does not
change when only information hidden from its seat differs."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from helpers import RUN_5, choose, deal, hand_cards, play, rule_sets, run_hand, seats, seeds, styles
from sixtysix import CARDS, Action, Card, Hand, IllegalActionError, Rank, Rules, Suit
from sixtysix.game.views import View

CARD_TOKEN = re.compile(r"(?<![0-9A-Z])([AKQJT9][CDHS])(?![A-Z0-9])")
#: Positions of the deck (from 0) dealt to the non-dealer and the dealer (R2.4).
NON_DEALER_POSITIONS = (0, 1, 2, 6, 7, 8)
DEALER_POSITIONS = (3, 4, 5, 9, 10, 11)


def tokens_in(view: View) -> set[str]:
    return set(CARD_TOKEN.findall(json.dumps(view.to_json(), ensure_ascii=False)))


def shown(hand: Hand, seat: int) -> set[Card]:
    """Every card ``seat`` is entitled to know about, from the rule book (R11.1):
    his own hand, every card played, both cards of every marriage shown, the
    dealt trump card and, after an exchange, the nine of trumps."""
    out = set(hand.cards(seat)) | {hand.deck[12]}
    for action in hand.actions:
        if action.card is not None:
            out.add(action.card)
        if action.kind.value in ("marriage", "declare_marriage"):
            assert action.suit is not None
            out |= {Card(action.suit, Rank.KING), Card(action.suit, Rank.QUEEN)}
        if str(action) == "X":
            out.add(Card(hand.trump, Rank.NINE))
    return out


def cards_in_view(view: View) -> set[Card]:
    """Every card the view object mentions, field by field."""
    out = set(view.hand) | {view.dealt_trump_card}
    if view.trump_card is not None:
        out.add(view.trump_card)
    if view.lead is not None:
        out.add(view.lead[1])
    for trick in view.tricks:
        out |= {trick.lead, trick.follow}
    for marriage in view.marriages:
        out |= set(marriage.cards)
    if view.exchange is not None:
        out.add(view.exchange[1])
    for _, action in view.history:
        if action.card is not None:
            out.add(action.card)
    for action in view.legal:
        if action.card is not None:
            out.add(action.card)
    return out


def check_view(hand: Hand, seat: int) -> None:
    view = hand.view(seat)
    allowed = shown(hand, seat)
    assert view.seat == seat
    assert view.hand == hand.cards(seat)
    assert cards_in_view(view) <= allowed
    assert {Card.parse(t) for t in tokens_in(view)} <= allowed
    assert view.known_opponent_cards() <= allowed
    assert not view.known_opponent_cards() & view.hand
    assert not view.unseen() & (view.hand | view.played)
    hidden = (set(hand.cards(1 - seat)) | set(hand.stock)) - allowed
    assert hidden <= view.unseen()
    # Nothing names the stock beyond its size.
    assert not {k for k in view.to_json() if "stock" in k} - {"stock_size"}
    assert view.stock_size == hand.stock_size
    if hand.to_act != seat:
        assert view.legal == ()
    else:
        assert list(view.legal) == hand.legal_actions()


# Scenarios ---------------------------------------------------------------------

def test_R11_1_own_hand_trump_card_and_stock_size() -> None:
    hand = run_hand()
    for seat in (0, 1):
        view = hand.view(seat)
        assert view.hand == hand.cards(seat)
        assert str(view.trump_card) == "KH" and str(view.dealt_trump_card) == "KH"
        assert view.trump is Suit.HEARTS
        assert view.stock_size == 12 and view.closed_by is None
        assert view.to_act == 1 and view.dealer == 0
    assert {str(a) for a in hand.view(1).legal} == {"TC", "AC", "AD", "9H", "TS", "AS", "C"}
    assert hand.view(0).legal == ()


def test_R11_1_current_and_last_trick_are_seen() -> None:
    hand = run_hand()
    play(hand, "AS")
    for seat in (0, 1):
        assert hand.view(seat).lead == (1, Card.parse("AS"))
    play(hand, "9S")
    for seat in (0, 1):
        view = hand.view(seat)
        assert view.lead is None
        assert view.last_trick is not None and str(view.last_trick.follow) == "9S"


def test_R11_1_marriage_cards_and_exchange_are_seen() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " X KS+")
    view = hand.view(0)
    assert view.exchange == (1, Card.parse("KH"))
    assert str(view.trump_card) == "9H"
    (marriage,) = view.marriages
    assert (marriage.seat, str(marriage.suit), marriage.value) == (1, "S", 20)
    # The dealer knows seat 1 holds QS (the partner) and KH (taken in the exchange).
    assert view.known_opponent_cards() == {Card.parse("QS"), Card.parse("KH")}


def test_R11_1_who_closed_is_seen_and_the_trump_card_is_turned_down() -> None:
    hand = run_hand()
    play(hand, "AS 9S D C")
    for seat in (0, 1):
        view = hand.view(seat)
        assert view.closed_by == 1 and view.closed_at == 1
        assert view.trump_card is None
        assert view.to_json()["trump_card"] is None


def test_R11_1_loser_of_the_last_draw_is_known_to_hold_the_trump_card() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH TH D")
    assert "KH" in hand_cards(hand, 0)
    assert Card.parse("KH") in hand.view(1).known_opponent_cards()


def test_R11_2_opponent_hand_and_stock_order_are_not_in_the_view() -> None:
    hand = run_hand()
    for seat in (0, 1):
        view = hand.view(seat)
        secret = {str(c) for c in hand.cards(1 - seat)} | {str(c) for c in hand.stock[:-1]}
        assert not tokens_in(view) & secret
        assert tokens_in(view) == {str(c) for c in hand.cards(seat)} | {"KH"}


def test_R11_3_the_view_remembers_every_trick() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH TH D KC QC")
    view = hand.view(0)
    assert [(str(t.lead), str(t.follow), t.winner) for t in view.tricks] == [
        ("AS", "9S", 1), ("AC", "9C", 1), ("AD", "9D", 1), ("TS", "JS", 1), ("TC", "JC", 1),
        ("AH", "TH", 1), ("KC", "QC", 1)]
    assert view.tricks_won == (0, 7) and view.card_points == (0, 85)
    assert view.scores == (0, 85)


def test_R11_scores_follow_R5_3() -> None:
    hand = deal("KC QC 9S 9H TS JD", "AC 9C AS JS JC TD", "KH")
    play(hand, "KC+ AC")
    assert hand.view(0).scores == (15, 0) and hand.view(1).scores == (15, 0)


def test_R11_view_of_an_unknown_seat_is_an_error() -> None:
    with pytest.raises(ValueError):
        run_hand().view(2)


def test_R11_view_reports_the_result() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH TH 66")
    for seat in (0, 1):
        view = hand.view(seat)
        assert view.result == hand.result() and view.to_act is None and view.legal == ()
        assert view.to_json()["result"]["reason"] == "declared"


def test_R11_revoked_trick_has_no_winner_in_the_view() -> None:
    hand = deal("AS TS KS AC TC JD", "9S JS QS 9C QC AD", "9H", enforce_follow=False)
    play(hand, "C AS 9C")
    assert hand.view(1).tricks[-1].winner is None


def test_R11_auto_declared_marriage_card_is_shown_but_not_led() -> None:
    hand = run_hand(rules=Rules.preset("classic").replace(auto_declare=True))
    play(hand, RUN_5 + " KS+")
    view = hand.view(0)
    assert view.lead is None and view.tricks[-1].lead == Card.parse("TC")
    assert [(m.seat, str(m.suit)) for m in view.marriages] == [(1, "S")]


# Properties --------------------------------------------------------------------

@settings(max_examples=400)
@given(seed=seeds, dealer=seats, rules=rule_sets(), style=styles)
def test_R11_2_no_hidden_card_in_any_view(seed: int, dealer: int, rules: Rules,
                                    style: tuple[float, float]) -> None:
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, dealer=dealer, rules=rules)
    while True:
        check_view(hand, 0)
        check_view(hand, 1)
        if hand.is_over():
            break
        hand.push(choose(hand, rng, style))


def shuffle_hidden(deck: tuple[Card, ...], fixed: set[Card], rng: random.Random) -> list[Card]:
    """The deck with every card not in ``fixed`` moved among those cards' places."""
    places = [i for i, c in enumerate(deck) if c not in fixed]
    movable = [deck[i] for i in places]
    rng.shuffle(movable)
    out = list(deck)
    for i, card in zip(places, movable, strict=True):
        out[i] = card
    return out


@settings(max_examples=300)
@given(seed=seeds, dealer=seats, seat=seats, rules=rule_sets(), other=seeds)
def test_R11_2_view_at_the_deal_ignores_hidden_cards(seed: int, dealer: int, seat: int, rules: Rules,
                                               other: int) -> None:
    hand = Hand.random(seed=seed, dealer=dealer, rules=rules)
    mine = NON_DEALER_POSITIONS if seat != dealer else DEALER_POSITIONS
    fixed = {hand.deck[i] for i in (*mine, 12)}
    twin = Hand.deal(shuffle_hidden(hand.deck, fixed, random.Random(other)), dealer, rules)
    assert twin.cards(seat) == hand.cards(seat)
    assert twin.view(seat) == hand.view(seat)
    assert twin.view(seat).to_json() == hand.view(seat).to_json()


@settings(max_examples=300)
@given(seed=seeds, dealer=seats, seat=seats, rules=rule_sets(), other=seeds, cut=st.floats(0, 1),
       style=styles)
def test_R11_2_view_mid_hand_ignores_hidden_cards(seed: int, dealer: int, seat: int, rules: Rules, other: int,
                                            cut: float, style: tuple[float, float]) -> None:
    # Under table rules a revoke depends on the offender's hidden cards, so the
    # course of the hand may differ: only strict enforcement is compared.
    rules = rules.replace(enforce_follow=True)
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, dealer=dealer, rules=rules)
    moves: list[Action] = []
    while not hand.is_over():
        moves.append(choose(hand, rng, style))
        hand.push(moves[-1])
    for _ in moves[int(cut * len(moves)):]:
        hand.pop()
    # Everything ``seat`` has seen keeps its place; the rest is dealt anew.
    fixed = shown(hand, seat)
    twin = Hand.deal(shuffle_hidden(hand.deck, fixed, random.Random(other)), dealer, rules)
    try:
        for action in hand.actions:
            twin.push(action)
        possible = True
    except IllegalActionError:
        possible = False
    # The opponent's past play may be impossible with these cards (R7.2): such an
    # example is rejected (a few per cent), not counted as a pass.
    assume(possible)
    assert twin.cards(seat) == hand.cards(seat)
    assert twin.view(seat) == hand.view(seat)
    assert twin.view(seat).to_json() == hand.view(seat).to_json()


def test_every_card_token_is_found_by_the_scanner() -> None:
    text = json.dumps([str(c) for c in CARDS] + ["KH+", "66+H", "X", "C", "D", "66"])
    found = set(CARD_TOKEN.findall(text))
    assert found == {str(c) for c in CARDS}
