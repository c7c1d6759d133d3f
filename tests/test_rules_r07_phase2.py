"""R7: play after the stock is exhausted or closed: any lead, the strict
follow rules, and the last-trick bonus."""

from __future__ import annotations

import pytest

from helpers import RUN_5, deal, legal, play, refused, run_hand, toks
from sixtysix import Hand


def closed(non_dealer: str, dealer: str, trump: str, **options: object) -> Hand:
    """Seat 1 closes before the first lead, so the first trick is played under R7."""
    hand = deal(non_dealer, dealer, trump, **options)
    play(hand, "C")
    return hand


def test_R7_1_leader_may_lead_any_card() -> None:
    hand = closed("AS 9C JD 9H KS QD", "TS JS 9S AC TC AD", "JH")
    assert legal(hand) == ["9C", "JD", "QD", "9H", "KS", "AS"]
    hand = run_hand()
    play(hand, RUN_5 + " AH TH D")  # exhausted
    assert legal(hand) == ["KC", "TD", "9H", "QH", "QS", "KS", "66"]


@pytest.mark.parametrize(
    ("follower", "lead", "trump", "allowed"),
    [
        # Follow suit and win if possible: only the higher cards of the suit.
        ("9S TS AS 9H AC JD", "KS", "JH", ["TS", "AS"]),
        # Follow suit even when a trump would win.
        ("9S QS 9H AH AC JD", "KS", "JH", ["9S", "QS"]),
        # Cannot follow suit: must trump (any trump, not only a winning one).
        ("9C TC 9H AH AC JD", "KS", "JH", ["9H", "AH"]),
        # Neither the suit nor a trump: anything.
        ("9C TC KC QD AC JD", "KS", "JH", ["9C", "KC", "TC", "AC", "JD", "QD"]),
        # Trump led: follow with a higher trump if possible.
        ("9H KH AH 9S AC JD", "TH", "JH", ["AH"]),
        # Trump led, no higher trump: any trump.
        ("9H KH QD 9S AC JD", "TH", "JH", ["9H", "KH"]),
        # Trump led, no trump: anything.
        ("9S QS QD KD AC JD", "TH", "JH", ["AC", "JD", "QD", "KD", "9S", "QS"]),
        # The Ten outranks the King: a follower with the Ten must win with it.
        ("TS QS 9H AH 9C JD", "KS", "JH", ["TS"]),
    ],
)
def test_R7_2_follow_rules(follower: str, lead: str, trump: str, allowed: list[str]) -> None:
    others = [c for c in toks("9D TD KD QC JC JS AD") if c not in toks(follower) and c not in (lead, trump)]
    leader = " ".join([lead, *others[:5]])
    hand = closed(leader, follower, trump)
    play(hand, lead)
    assert sorted(legal(hand)) == sorted(allowed)
    for token in follower.split():
        if token not in allowed:
            refused(hand, token)


def test_R7_2_follow_rules_apply_once_the_stock_is_exhausted() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH TH D")
    # The dealer holds QC QD KD JH JD KH: on KC he must play QC (follow, cannot win).
    play(hand, "KC")
    assert legal(hand) == ["QC"]
    hand.pop()
    play(hand, "9H")  # a trump lead: the dealer must beat it with JH or KH
    assert legal(hand) == ["JH", "KH"]


def test_R7_2_phase_1_has_no_follow_duty_for_the_same_lead() -> None:
    hand = deal("KS 9C JD 9H AC QD", "TS AS 9S TC 9D AD", "JH")
    play(hand, "KS")
    assert legal(hand) == ["TC", "9D", "AD", "9S", "TS", "AS"]


# After RUN_5 and the sixth trick, seat 1 holds KC TD 9H QH QS KS and the dealer
# QC QD KD JH JD KH; the dealer wins the last trick (QD, KS discarded).
PLAY_OUT = "KC QC 9H JH JD TD QH KH KD QS QD KS"


def test_R7_3_last_trick_bonus_when_played_out_unclosed() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH TH D " + PLAY_OUT)
    res = hand.result()
    assert res is not None
    assert (hand.card_points(0), hand.card_points(1)) == (23, 97)
    assert res.points == (33, 97)  # the dealer took the last trick: +10
    # The bonus lifts the loser to 33: one game point, not two (R9.1).
    assert (res.winner, res.reason, res.game_points) == (1, "played_out", 1)


@pytest.mark.parametrize(("bonus", "game_points"), [(0, 2), (7, 2), (10, 1), (50, 1)])
def test_R7_3_last_trick_bonus_option(bonus: int, game_points: int) -> None:
    hand = run_hand(last_trick_bonus=bonus)
    play(hand, RUN_5 + " AH TH D " + PLAY_OUT)
    res = hand.result()
    assert res is not None
    assert res.points == (23 + bonus, 97)
    assert res.game_points == game_points and res.winner == (1 if 23 + bonus < 97 else 0)


def test_R7_3_no_bonus_in_a_closed_hand() -> None:
    hand = closed("AS TS KS AC TC JD", "9S JS QS 9C QC AD", "9H")
    play(hand, "AS 9S TS JS KS QS AC 9C TC QC JD AD")
    res = hand.result()
    assert res is not None
    assert res.points == (13, 54)
