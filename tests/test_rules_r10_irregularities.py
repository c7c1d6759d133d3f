"""R10: irregularities: the program deals and draws itself, revokes under
table rules (enforce_follow = false), and no lead out of turn."""

from __future__ import annotations

import pytest

from helpers import RUN_5, deal, hand_cards, legal, play, refused, run_hand
from sixtysix import Action, Hand, IllegalActionError

TABLE = {"enforce_follow": False}
# Seat 1 closes at once; the dealer holds spades and clubs.
CLOSED = ("AS TS KS AC TC JD", "9S JS QS 9C QC AD", "9H")


def outcome(hand: Hand) -> tuple[int | None, str, int]:
    res = hand.result()
    assert res is not None
    return res.winner, res.reason, res.game_points


def test_R10_2_strict_enforcement_refuses_a_revoke() -> None:
    hand = deal(*CLOSED)
    play(hand, "C AS")
    assert legal(hand) == ["9S", "JS", "QS"]
    refused(hand, "9C")
    with pytest.raises(IllegalActionError, match=r"R7\.2"):
        hand.push(Action.parse("AD"))


def test_R10_2_table_rules_let_any_card_stand() -> None:
    hand = deal(*CLOSED, **TABLE)
    play(hand, "C AS")
    assert legal(hand) == ["9C", "QC", "AD", "9S", "JS", "QS"]


def test_R10_2_revoke_ends_the_hand_three_if_offender_had_no_card_points() -> None:
    hand = deal(*CLOSED, **TABLE)
    play(hand, "C AS 9C")
    assert hand.is_over()
    assert outcome(hand) == (1, "revoke", 3)
    res = hand.result()
    assert res is not None
    # The revoking trick counts for nobody.
    assert res.tricks == (0, 0) and res.points == (0, 0)
    assert "AS" not in hand_cards(hand, 1) and "9C" not in hand_cards(hand, 0)
    trick = hand.view(0).tricks[-1]
    assert (str(trick.lead), str(trick.follow), trick.winner) == ("AS", "9C", None)
    assert hand.legal_actions() == []


def test_R10_2_revoke_two_if_offender_had_card_points() -> None:
    hand = deal(*CLOSED, **TABLE)
    play(hand, "C AS 9S JD AD")  # seat 1 takes 11, then the dealer 13
    assert hand.to_act == 0
    play(hand, "9C KS")  # seat 1 could win with AC or TC, and plays a spade
    assert outcome(hand) == (0, "revoke", 2)
    res = hand.result()
    assert res is not None and res.tricks == (1, 1) and res.points == (13, 11)


def test_R10_2_revoke_judged_on_card_points_not_tricks() -> None:
    # The offender won a trick of two nines: no card points, so still 3.
    hand = deal("9D AS TS KS AC TC", "9H 9S JS QS 9C QC", "JH", **TABLE)
    play(hand, "C 9D 9H")  # no diamonds: the dealer trumps with the nine
    assert hand.tricks_won(0) == 1 and hand.card_points(0) == 0
    play(hand, "9C TC AS QC")  # the dealer holds spades but discards QC
    assert outcome(hand) == (1, "revoke", 3)


def test_R10_2_revoke_after_the_stock_is_exhausted() -> None:
    hand = run_hand(enforce_follow=False)
    play(hand, RUN_5 + " AH TH D KC")
    assert "QC" in hand_cards(hand, 0)
    play(hand, "QD")
    assert outcome(hand) == (1, "revoke", 3)


def test_R10_2_legal_cards_under_table_rules_play_on() -> None:
    hand = deal(*CLOSED, **TABLE)
    play(hand, "C AS 9S TS JS")
    assert not hand.is_over() and hand.tricks_won(1) == 2


def test_R10_2_no_revoke_while_the_stock_is_open() -> None:
    hand = deal(*CLOSED, **TABLE)
    play(hand, "AS 9C")
    assert not hand.is_over() and hand.state == "draw"


def test_R10_2_revoke_pops_back() -> None:
    hand = deal(*CLOSED, **TABLE)
    play(hand, "C AS")
    key = hand.key()
    play(hand, "9C")
    hand.pop()
    assert hand.key() == key and not hand.is_over() and hand.result() is None


def test_R10_4_no_lead_out_of_turn() -> None:
    hand = run_hand()
    assert hand.to_act == 1
    # The dealer's cards cannot be played while seat 1 is on lead.
    for token in ("9S", "JD"):
        with pytest.raises(IllegalActionError, match="does not hold"):
            hand.push(Action.parse(token))
    refused(hand, "9S")


def test_R10_1_the_program_draws_no_draw_out_of_turn() -> None:
    hand = run_hand()
    refused(hand, "D")  # before the first lead
    play(hand, "AS")
    refused(hand, "D")  # the follower cannot draw
    play(hand, "9S D")
    refused(hand, "D")  # the draw happened once, for both
