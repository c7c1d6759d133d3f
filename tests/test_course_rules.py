"""The rules of the schnapsen course platform (docs/schnapsen.md S13): the engine
under the preset ``course`` and the options it is made of (marriage_counts,
marriage_lead). tests/test_compat_schnapsen.py checks the same rules against the
platform's own engine."""

from __future__ import annotations

import random

from hypothesis import event, given, settings
from hypothesis import strategies as st

from helpers import legal, play, refused
from sixtysix import Hand, Rules
from sixtysix.game.views import View

COURSE = Rules.preset("course")
# Seat 1 deals, seat 0 leads. Seat 0: AC KS QS AH JC; seat 1: TC AS JD KC QC;
# TD turned up (diamonds are trumps); the stock then draws TS JS KH QH JH TH AD KD QD.
DECK = "AC KS QS TC AS JD TD AH JC KC QC TS JS KH QH JH TH AD KD QD"


def deal() -> Hand:
    return Hand.deal(DECK, 1, COURSE)


#: R1.3 card points, written out here rather than taken from ``Card.points``.
CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}


def card_points(view: View, seat: int) -> int:
    """The card points of the tricks ``seat`` won (R1.3)."""
    return sum(CARD_POINTS[str(c)[0]] for t in view.tricks if t.winner == seat for c in (t.lead, t.follow))


def counted_marriages(view: View, seat: int) -> int:
    """S13.4: a marriage counts once its announcer has won a trick at or after the one
    it led; 40 in trumps, otherwise 20 (R5.1)."""
    won = [i for i, t in enumerate(view.tricks) if t.winner == seat]
    return sum(40 if m.suit == view.trump else 20 for m in view.marriages
               if m.seat == seat and won and m.at_trick <= won[-1])


def game_points_by_66(loser_tricks: int, loser_points: int) -> int:
    """S13.3 (R9.1's scale): 3 if the loser has no trick, 2 if he has fewer than 33
    counted points, otherwise 1."""
    if loser_tricks == 0:
        return 3
    return 2 if loser_points < 33 else 1


def test_the_game_point_scale_by_hand() -> None:
    """The oracle above on the edges of S13.3 / R9.1."""
    cases = [(0, 0), (0, 40), (1, 0), (1, 32), (3, 33), (2, 65)]
    assert [game_points_by_66(tricks, points) for tricks, points in cases] == [3, 3, 2, 2, 1, 1]


def random_hands(seed: int, count: int) -> list[Hand]:
    """Hands played at random to the end, with every intermediate state checked by the caller."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        hand = Hand.random(seed=rng.randrange(2**32), dealer=rng.randrange(2), rules=COURSE)
        while not hand.is_over():
            hand.push(rng.choice(hand.legal_actions()))
        hands.append(hand)
    return hands


def test_S13_1_the_preset_is_the_20_card_game_with_the_platforms_options() -> None:
    assert COURSE.deck == 20 and COURSE.hand_size == 5
    assert (COURSE.closing, COURSE.auto_declare, COURSE.marriage_counts, COURSE.marriage_lead) == (
        False, True, "next_trick", "king")
    hand = deal()
    assert hand.to_act == 0 and hand.stock_size == 10


def test_S13_4_marriage_points_wait_for_the_next_trick_won_even_with_tricks() -> None:
    hand = play(deal(), "AC TC")  # seat 0 wins the first trick: 21 points
    assert hand.score(0) == 21
    play(hand, "KS+ AS")  # announces 20 in spades and loses the trick
    assert hand.score(0) == 21, "the marriage does not count yet, although seat 0 has a trick"
    assert hand.pending_points(0) == 20 and hand.marriage_points(0) == 20
    assert hand.view(1).pending_marriages == (20, 0)
    play(hand, "JS QS")  # seat 0 wins the next trick: the 20 count now
    assert hand.score(0) == 21 + 5 + 20 and hand.pending_points(0) == 0


def test_S13_4_option_trick_won_counts_the_marriage_at_once() -> None:
    """The same play under R5.3 (marriage_counts = trick_won): seat 0 has a trick."""
    hand = play(Hand.deal(DECK, 1, COURSE.replace(marriage_counts="trick_won")), "AC TC KS+ AS")
    assert hand.score(0) == 41 and hand.pending_points(0) == 0


def test_S13_5_a_marriage_leads_the_king_and_the_queen_is_shown() -> None:
    hand = play(deal(), "AC TC")
    assert "KS+" in legal(hand)
    refused(hand, "QS+")
    play(hand, "KS+")
    view = hand.view(1)
    assert {str(c) for c in view.known_opponent_cards()} >= {"QS"}
    assert "QS" in {str(c) for c in hand.cards(0)}


def test_S13_5_option_either_lets_the_queen_lead() -> None:
    hand = play(Hand.deal(DECK, 1, COURSE.replace(marriage_lead="either")), "AC TC")
    assert {"KS+", "QS+"} <= set(legal(hand))


@settings(max_examples=40)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_S13_2_3_nobody_closes_or_declares_and_66_ends_the_hand_at_once(seed: int) -> None:
    for hand in random_hands(seed, 5):
        actions = [str(a) for a in hand.actions]
        assert "C" not in actions and not any(a.startswith("66") for a in actions)
        result = hand.result()
        assert result is not None and result.reason in ("declared", "played_out")
        # Replay: nobody reaches 66 without the hand ending at that trick.
        replay = Hand.deal(hand.deck, hand.dealer, COURSE)
        for action in hand.actions:
            assert not any(a.kind.name in ("CLOSE", "DECLARE", "DECLARE_MARRIAGE")
                           for a in replay.legal_actions())
            replay.push(action)
            if not replay.is_over():
                assert replay.score(0) < 66 and replay.score(1) < 66


@settings(max_examples=40)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_S13_4_the_score_is_cards_and_marriages_up_to_the_last_trick_won(seed: int) -> None:
    """An oracle from the history: a marriage counts once its announcer has won a trick
    at or after the one it led."""
    for hand in random_hands(seed, 5):
        replay = Hand.deal(hand.deck, hand.dealer, COURSE)
        for action in hand.actions:
            replay.push(action)
            view = replay.view(0)
            for seat in (0, 1):
                counted = counted_marriages(view, seat)
                announced = sum(40 if m.suit == view.trump else 20 for m in view.marriages if m.seat == seat)
                assert replay.card_points(seat) == card_points(view, seat)
                assert replay.score(seat) == card_points(view, seat) + counted
                assert replay.pending_points(seat) == announced - counted
                assert view.counted_marriages(seat) == counted == sum(
                    m.value for m in view.marriages if m.seat == seat and view.counts(m))


@settings(max_examples=40)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_S13_6_the_jack_may_be_exchanged_whenever_the_leader_holds_it_and_the_stock_is_open(
        seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20):
        hand = Hand.random(seed=rng.randrange(2**32), dealer=1, rules=COURSE)
        while not hand.is_over():
            p = hand.to_act
            assert p is not None
            jack = any(str(c) == "J" + hand.trump.letter for c in hand.cards(p))
            can = hand.state == "lead" and hand.stock_size > 0 and jack
            assert ("X" in legal(hand)) == can
            hand.push(rng.choice(hand.legal_actions()))


def test_S13_6_the_exchange_is_allowed_at_the_first_lead_and_with_two_cards_left() -> None:
    # Seat 0 holds the trump jack (JD) from the start.
    deck = "JD KS QS TC AS AC TD AH JC KC QC TS JS KH QH JH TH AD KD QD"
    assert "X" in legal(Hand.deal(deck, 1, COURSE))
    # A leader holding the jack when only two cards are left (S4.1 would allow it too).
    rng = random.Random(5)
    found = tries = 0
    while found < 5:
        tries += 1
        assert tries <= 2000, f"only {found} such leads in 2000 hands"
        hand = Hand.random(seed=rng.randrange(2**32), dealer=1, rules=COURSE)
        while not hand.is_over() and hand.stock_size > 2:
            options = [a for a in hand.legal_actions() if str(a) != "X"]
            hand.push(rng.choice(options))
        p = hand.to_act
        if not hand.is_over() and hand.state == "lead" and p is not None and \
                any(str(c) == "J" + hand.trump.letter for c in hand.cards(p)):
            assert hand.stock_size == 2 and "X" in legal(hand)
            play(hand, "X")
            assert hand.stock_size == 2 and str(hand.stock[-1]) == "J" + hand.trump.letter
            found += 1


def test_S13_7_marriages_on_any_lead_the_first_and_after_the_stock_is_gone() -> None:
    """Every lead holding a King and Queen of a suit may announce it (King led, S13.5):
    at the first lead, in phase 1 and once the stock is exhausted."""
    rng = random.Random(7)
    seen = {"first": 0, "open": 0, "exhausted": 0}
    for _ in range(300):
        hand = Hand.random(seed=rng.randrange(2**32), dealer=1, rules=COURSE)
        while not hand.is_over():
            p = hand.to_act
            assert p is not None
            if hand.state == "lead":
                held = {str(c) for c in hand.cards(p)}
                for suit in "CDHS":
                    if {"K" + suit, "Q" + suit} <= held:
                        assert "K" + suit + "+" in legal(hand)
                        seen["first" if not hand.actions else "open" if hand.stock_size else "exhausted"] += 1
            hand.push(rng.choice(hand.legal_actions()))
    assert min(seen.values()) > 0, seen


@settings(max_examples=40)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_S13_3_S13_8_game_points(seed: int) -> None:
    """1, 2 or 3 by the loser's counted points and tricks when 66 is reached (marriage
    points still waiting count for nothing); a hand played out gives the last trick's
    winner 1, or as declared if that trick brought him to 66."""
    for hand in random_hands(seed, 5):
        result = hand.result()
        assert result is not None and result.winner is not None
        loser = 1 - result.winner
        view = hand.view(0)
        loser_tricks = sum(1 for t in view.tricks if t.winner == loser)
        # The loser's counted points (S13.4); marriage points still pending count for nothing.
        loser_points = card_points(view, loser) + counted_marriages(view, loser)
        assert hand.score(loser) == loser_points
        by_66 = game_points_by_66(loser_tricks, loser_points)
        event(f"{result.reason}, {result.game_points} game points")
        if result.reason == "declared":
            assert hand.score(result.winner) >= 66 and result.game_points == by_66
        else:
            assert not hand.cards(0) and not hand.cards(1)
            assert result.game_points == (by_66 if hand.score(result.winner) >= 66 else 1)
            last = hand.view(0).tricks[-1]
            assert last.winner == result.winner


@settings(max_examples=30)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_views_rebuild_the_state_with_pending_marriages(seed: int) -> None:
    """Hand.from_view keeps marriage points waiting apart (what search bots sample from)."""
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, dealer=1, rules=COURSE)
    while not hand.is_over():
        seat = hand.to_act
        assert seat is not None
        stock = hand.stock
        world = Hand.from_view(hand.view(seat), hand.cards(1 - seat), stock)
        assert world.key() == hand.key()
        assert (world.pending_points(0), world.pending_points(1)) == hand.view(seat).pending_marriages
        hand.push(rng.choice(hand.legal_actions()))
