"""R3: play while the stock is open (phase 1): leads, free following, trick
winners, the draw and the order of the leader's steps."""

from __future__ import annotations

import pytest

from helpers import RUN_5, deal, hand_cards, legal, play, run_hand, toks
from sixtysix import Action, Hand, IllegalActionError


def test_R3_1_non_dealer_leads_first_then_the_trick_winner_leads() -> None:
    for dealer in (0, 1):
        hand = deal("AS 9C QD JD TD 9D", "9S AC QC KS QS JS", "JH", dealer_seat=dealer)
        assert hand.to_act == 1 - dealer
        assert hand.leader == 1 - dealer
        play(hand, "9C AC")  # the dealer wins the first trick
        assert (hand.state, hand.to_act) == ("draw", dealer)
        play(hand, "D")
        assert (hand.state, hand.to_act) == ("lead", dealer)
        play(hand, "QC 9D")  # the leader keeps the lead with a trick won
        assert hand.to_act == dealer
        play(hand, "D KS AS")  # the non-dealer now wins and leads
        assert (hand.state, hand.to_act) == ("draw", 1 - dealer)


def test_R3_2_follower_may_play_any_card_while_the_stock_is_open() -> None:
    # The follower holds spades and trumps, yet may discard anything.
    hand = deal("KS 9C QD JD TD 9D", "AS TS 9H JH AC QC", "KH")
    play(hand, "KS")
    assert hand.state == "follow"
    assert legal(hand) == ["QC", "AC", "9H", "JH", "TS", "AS"]
    play(hand, "QC")  # neither follows suit, nor trumps, nor wins
    assert hand.to_act == 1 and hand.card_points(1) == 7


@pytest.mark.parametrize(
    ("lead", "follow", "trump", "leader_wins"),
    [
        ("AS", "TS", "KH", True),  # higher card of the suit led
        ("KS", "TS", "KH", False),  # the Ten beats the King
        ("9S", "JS", "KH", False),
        ("AS", "9H", "KH", False),  # any trump beats a plain suit
        ("9H", "AS", "KH", True),  # a plain card never beats a trump lead
        ("JH", "QH", "KH", False),  # the higher trump
        ("TH", "AH", "KC", False),
        ("9S", "AC", "KH", True),  # another plain suit never wins, even an ace
        ("JD", "AC", "KH", True),
        ("AS", "AC", "KD", True),
    ],
)
def test_R3_3_trick_winner(lead: str, follow: str, trump: str, leader_wins: bool) -> None:
    pool = [c for c in toks("9C JC QC 9D QD KD JS QS 9S KS TC KC") if c not in (lead, follow, trump)]
    hand = deal(" ".join([lead, *pool[:5]]), " ".join([follow, *pool[5:10]]), trump)
    points = Action.parse(lead).card.points + Action.parse(follow).card.points  # type: ignore[union-attr]
    play(hand, f"{lead} {follow}")
    winner = 1 if leader_wins else 0  # seat 1 (non-dealer) led
    assert hand.to_act == winner
    assert hand.tricks_won(winner) == 1 and hand.tricks_won(1 - winner) == 0
    assert hand.card_points(winner) == points and hand.card_points(1 - winner) == 0


def test_R3_4_winner_draws_first_then_loser() -> None:
    for lead, follow, winner in (("AS", "9S", 1), ("9S", "AS", 0)):
        hand = deal(f"{lead} 9C QD JD TD 9D", f"{follow} AC QC KC JS QS", "JH", "KS TS")
        play(hand, f"{lead} {follow} D")
        assert "KS" in hand_cards(hand, winner) and "TS" not in hand_cards(hand, winner)
        assert "TS" in hand_cards(hand, 1 - winner)
        assert len(hand.cards(0)) == len(hand.cards(1)) == 6
        assert hand.stock_size == 10


@pytest.mark.parametrize(("sixth", "loser"), [("AH TH", 0), ("KC TH", 1)])
def test_R3_4_last_draw_loser_takes_the_turned_up_trump(sixth: str, loser: int) -> None:
    hand = run_hand()
    play(hand, RUN_5 + " " + sixth)
    assert hand.state == "draw" and hand.stock_size == 2
    assert str(hand.trump_card) == "KH"
    play(hand, "D")
    assert hand.stock_size == 0 and hand.trump_card is None
    assert "TD" in hand_cards(hand, 1 - loser)
    assert "KH" in hand_cards(hand, loser)
    assert len(hand.cards(0)) == len(hand.cards(1)) == 6


@pytest.mark.parametrize(("sixth", "loser"), [("AH TH", 0), ("KC TH", 1)])
def test_R3_4_last_draw_loser_takes_the_nine_after_an_exchange(sixth: str, loser: int) -> None:
    hand = run_hand()
    play(hand, RUN_5 + " X")
    assert "KH" in hand_cards(hand, 1) and "9H" not in hand_cards(hand, 1)
    assert str(hand.trump_card) == "9H"
    play(hand, sixth + " D")
    assert "9H" in hand_cards(hand, loser)
    assert "TD" in hand_cards(hand, 1 - loser)


def test_R3_5_only_the_last_completed_trick_is_on_show() -> None:
    hand = deal("AS 9C QD JD TD 9D", "9S AC QC KS QS JS", "JH")
    play(hand, "AS 9S")
    for seat in (0, 1):
        trick = hand.view(seat).last_trick
        assert trick is not None
        assert (str(trick.lead), str(trick.follow), trick.leader, trick.winner) == ("AS", "9S", 1, 1)
    play(hand, "D")
    assert hand.view(0).last_trick is not None  # still on show until the next lead
    play(hand, "9C")
    assert hand.view(0).last_trick is None
    assert hand.view(1).last_trick is None


def test_R3_6_draw_state_offers_declare_close_or_draw() -> None:
    hand = run_hand()
    play(hand, "AS 9S")
    assert hand.state == "draw" and hand.to_act == 1
    assert legal(hand) == ["C", "D", "66"]
    # No card, exchange or marriage before the draw.
    for token in ("9H", "X", "AC"):
        with pytest.raises(IllegalActionError):
            hand.push(Action.parse(token))


def test_R3_6_after_the_draw_exchange_marriage_close_declare_or_lead() -> None:
    hand = run_hand()
    play(hand, "AS 9S D")
    # Seat 1 holds AC AD TS TC 9H and drew QS: no marriage yet, but the trump nine.
    assert legal(hand) == ["TC", "AC", "AD", "9H", "QS", "TS", "X", "C", "66"]
    play(hand, "X")  # step 3
    assert legal(hand) == ["TC", "AC", "AD", "KH", "QS", "TS", "C", "66"]
    play(hand, "C")  # step 5: no exchange after closing, no second close
    assert legal(hand) == ["TC", "AC", "AD", "KH", "QS", "TS", "66"]
    play(hand, "KH")  # step 6
    assert hand.state == "follow"


def test_R3_6_step_order_exchange_then_marriage_then_close_then_lead() -> None:
    hand = run_hand()
    play(hand, "AS 9S D AC 9C D")  # seat 1 now holds QS KS
    assert "KS+" in legal(hand) and "X" in legal(hand)
    play(hand, "X C KS+")
    assert hand.state == "follow" and hand.closed_by == 1
    assert hand.marriage_points(1) == 20
    assert str(hand.lead_card) == "KS"


def test_R3_6_close_before_the_draw_then_no_draw() -> None:
    hand = run_hand()
    play(hand, "AS 9S C")
    assert (hand.state, hand.to_act, hand.closed_by, hand.stock_size) == ("lead", 1, 1, 12)
    assert len(hand.cards(1)) == 5 and len(hand.cards(0)) == 5
    assert "D" not in legal(hand) and "C" not in legal(hand) and "X" not in legal(hand)


def test_R3_6_no_draw_state_before_the_first_lead() -> None:
    hand = run_hand()
    assert hand.state == "lead"
    assert "D" not in legal(hand)
    assert legal(hand) == ["TC", "AC", "AD", "9H", "TS", "AS", "C"]


def test_R3_6_close_before_draw_false_draws_at_once() -> None:
    hand = run_hand(close_before_draw=False)
    play(hand, "AS 9S")
    assert hand.state == "lead" and hand.to_act == 1
    assert hand.stock_size == 10
    assert "QS" in hand_cards(hand, 1) and "QC" in hand_cards(hand, 0)
    assert "D" not in legal(hand)
    assert "C" in legal(hand) and "X" in legal(hand)
    with pytest.raises(IllegalActionError):
        hand.push(Action.parse("D"))


def test_R3_6_draw_state_at_every_phase_1_trick_and_not_after() -> None:
    hand = run_hand()
    tricks = RUN_5.replace(" D", "").split()
    for i in range(0, len(tricks), 2):
        play(hand, f"{tricks[i]} {tricks[i + 1]}")
        assert hand.state == "draw"
        play(hand, "D")
    play(hand, "AH TH D")
    assert hand.stock_size == 0
    play(hand, "KC QC")  # phase 2: no draw state any more
    assert hand.state == "lead"
    assert "D" not in legal(hand)


def test_R3_4_drawing_keeps_six_cards_each_through_phase_1() -> None:
    hand: Hand = run_hand()
    for token in (RUN_5 + " AH TH D").split():
        hand.push(Action.parse(token))
        if hand.state != "follow":
            assert len(hand.cards(0)) == len(hand.cards(1))
    assert len(hand.cards(0)) == 6
