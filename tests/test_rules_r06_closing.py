"""R6: closing the stock: when it is allowed, what it changes, and how the
closer succeeds or fails."""

from __future__ import annotations

from helpers import RUN_5, deal, legal, play, refused, run_hand
from sixtysix import Hand, Rules

# Seat 1 closes at once and makes only 54: the dealer wins the last trick.
WEAK_CLOSE = ("AS TS KS AC TC JD", "9S JS QS 9C QC AD", "9H")
WEAK_CLOSE_PLAY = "C AS 9S TS JS KS QS AC 9C TC QC JD AD"
# Seat 1 closes at once holding aces and tens; the dealer must follow suit.
STRONG_CLOSE = ("AS TS AC TC AD TD", "KS QS KC QC KD QD", "9H")
STRONG_CLOSE_PLAY = "C AS KS TS QS AC KC TC QC AD KD TD QD"
# Seat 1 closes (before the draw) when the dealer has one trick; the dealer then
# declares 66 while the closer holds 34.
LATE_CLOSE_DECK = "KH QS JC TH AD AS TC AH QH TS TD QC 9C 9H AC QD KD 9S 9D JD JS JH KC KS"
LATE_CLOSE_PLAY = "AH AD D QS AS D TD JC C 9H TH AC TC TS KD QC KH 66"


def outcome(hand: Hand) -> tuple[int | None, str, int]:
    res = hand.result()
    assert res is not None
    return res.winner, res.reason, res.game_points


def test_R6_1_non_dealer_may_close_before_the_first_lead() -> None:
    hand = deal(*WEAK_CLOSE)
    assert legal(hand) == ["TC", "AC", "JD", "KS", "TS", "AS", "C"]
    play(hand, "C")
    assert hand.closed_by == 1 and hand.to_act == 1 and hand.state == "lead"


def test_R6_1_close_first_lead_false() -> None:
    hand = deal(*WEAK_CLOSE, close_first_lead=False)
    assert "C" not in legal(hand)
    refused(hand, "C")
    play(hand, "AS 9S")
    assert "C" in legal(hand)  # after the first trick closing is allowed


def test_R6_1_only_the_leader_closes() -> None:
    hand = run_hand()
    play(hand, "AS")
    assert "C" not in legal(hand)
    refused(hand, "C")


def test_R6_1_closing_before_or_after_the_draw() -> None:
    before = run_hand()
    play(before, "AS 9S C")
    assert before.stock_size == 12 and len(before.cards(1)) == 5
    after = run_hand()
    play(after, "AS 9S D C")
    assert after.stock_size == 10 and len(after.cards(1)) == 6
    for hand in (before, after):
        assert hand.closed_by == 1
        refused(hand, "C")
        refused(hand, "D")


def test_R6_1_close_min_stock_classic_allows_two_cards_left() -> None:
    hand = run_hand()
    play(hand, RUN_5)
    assert hand.stock_size == 2
    assert "C" in legal(hand)
    play(hand, "AH TH")
    assert hand.state == "draw" and hand.stock_size == 2
    assert legal(hand) == ["C", "D", "66"]


def test_R6_1_close_min_stock_4() -> None:
    hand = run_hand(close_min_stock=4)
    play(hand, "AS 9S D AC 9C D AD 9D D TS JS D")
    assert hand.state == "lead" and hand.stock_size == 4
    assert "C" in legal(hand)
    play(hand, "TC JC")
    assert hand.state == "draw" and hand.stock_size == 4
    assert legal(hand) == ["C", "D", "66"]
    play(hand, "D")
    assert hand.stock_size == 2
    assert "C" not in legal(hand)
    refused(hand, "C")
    play(hand, "AH TH")
    assert hand.state == "draw"
    assert legal(hand) == ["D", "66"]  # two cards before the last draw: too few


def test_R6_1_close_before_draw_false_closes_only_after_the_draw() -> None:
    hand = run_hand(close_before_draw=False)
    play(hand, "AS 9S")
    assert hand.state == "lead" and hand.stock_size == 10
    play(hand, "C")
    assert hand.closed_by == 1 and hand.stock_size == 10


def test_R6_1_no_close_once_the_stock_is_exhausted() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH TH D")
    assert hand.stock_size == 0
    assert "C" not in legal(hand)
    refused(hand, "C")


def test_R6_2_trump_turned_down_no_more_draws() -> None:
    hand = run_hand()
    play(hand, "AS 9S D")
    assert str(hand.trump_card) == "KH"
    play(hand, "C")
    assert hand.trump_card is None
    assert hand.view(0).trump_card is None and hand.view(1).trump_card is None
    assert hand.view(0).closed_by == 1
    play(hand, "AC 9C")
    assert hand.state == "lead"  # no draw state
    assert hand.stock_size == 10
    assert len(hand.cards(0)) == len(hand.cards(1)) == 5


def test_R6_2_phase_2_follow_rules_after_closing() -> None:
    hand = deal(*WEAK_CLOSE)
    play(hand, "AS")
    assert legal(hand) == ["9C", "QC", "AD", "9S", "JS", "QS"]  # phase 1: anything
    hand = deal(*WEAK_CLOSE)
    play(hand, "C AS")
    assert legal(hand) == ["9S", "JS", "QS"]  # phase 2: follow suit (R7.2)
    refused(hand, "AD")


def test_R6_2_no_last_trick_bonus_when_closed() -> None:
    hand = deal(*WEAK_CLOSE)
    play(hand, WEAK_CLOSE_PLAY)
    res = hand.result()
    assert res is not None
    assert res.points == (13, 54)  # the dealer took the last trick: no 10
    assert hand.card_points(0) == 13


def test_R6_3_closer_succeeds_by_declaring() -> None:
    hand = deal(*STRONG_CLOSE)
    play(hand, " ".join(STRONG_CLOSE_PLAY.split()[:11]))
    assert hand.score(1) == 71 and hand.to_act == 1
    play(hand, "66")
    assert outcome(hand) == (1, "closed_succeeded", 3)
    res = hand.result()
    assert res is not None and res.closed_by == 1 and res.points == (0, 71)


def test_R6_3_closer_succeeds_by_playing_out_with_66() -> None:
    hand = deal(*STRONG_CLOSE)
    play(hand, STRONG_CLOSE_PLAY)
    assert outcome(hand) == (1, "closed_succeeded", 3)
    res = hand.result()
    assert res is not None and res.points == (0, 84) and res.tricks == (0, 6)


def test_R6_3_success_scored_on_the_opponent_at_that_moment() -> None:
    # R13.5: the closer declares 70 while the opponent holds 35 (taken after the close).
    deck = "KS AS QD AC TD QC AD TH KH KC JS AH 9S QS TC JD TS 9H 9C JC 9D JH KD QH"
    hand = Hand.deal(deck, 0)
    play(hand, "KH AC D QD QC D QS TC C")
    assert hand.tricks_won(0) == 0
    play(hand, "KS TS AH TH KC AS AD TD 66")
    res = hand.result()
    assert res is not None
    assert (res.winner, res.reason, res.game_points, res.points) == (1, "closed_succeeded", 1, (35, 70))


def test_R6_4_fails_when_the_hand_ends_under_66() -> None:
    hand = deal(*WEAK_CLOSE)
    play(hand, WEAK_CLOSE_PLAY)
    assert outcome(hand) == (0, "closed_failed", 3)


def test_R6_4_failed_close_three_if_opponent_trickless_at_closing() -> None:
    # The dealer wins the last trick after the close, but had none when it was closed.
    hand = deal(*WEAK_CLOSE)
    play(hand, WEAK_CLOSE_PLAY)
    res = hand.result()
    assert res is not None and res.tricks == (1, 5)
    assert res.game_points == 3


def test_R6_4_failed_close_two_if_opponent_had_a_trick_at_closing() -> None:
    hand = deal("9S AC TC KD QD JD", "AS 9C TS QS JS KC", "JH")
    play(hand, "9S AS D 9C AC")
    assert hand.tricks_won(0) == 1
    play(hand, "C 66")  # the closer declares falsely with 11
    assert outcome(hand) == (0, "closed_failed", 2)


def test_R6_4_false_declaration_option_does_not_change_the_closer_penalty() -> None:
    hand = deal("9S AC TC KD QD JD", "AS 9C TS QS JS KC", "JH", false_declaration="two")
    play(hand, "C AC 9C 66")  # closed when the dealer had no trick
    assert outcome(hand) == (0, "closed_failed", 3)


def test_R6_4_opponent_declares_correctly_after_the_close() -> None:
    hand = Hand.deal(LATE_CLOSE_DECK, 0)
    play(hand, LATE_CLOSE_PLAY)
    # The closer has 34 (R9.1 would give 1), but a failed close costs 2.
    res = hand.result()
    assert res is not None
    assert (res.winner, res.reason, res.game_points, res.points) == (0, "closed_failed", 2, (66, 34))


def test_R6_4_failed_close_three_option() -> None:
    rules = Rules.preset("classic").replace(failed_close="three")
    hand = Hand.deal(LATE_CLOSE_DECK, 0, rules)
    play(hand, LATE_CLOSE_PLAY)
    assert outcome(hand) == (0, "closed_failed", 3)
    hand = deal("9S AC TC KD QD JD", "AS 9C TS QS JS KC", "JH", failed_close="three")
    play(hand, "9S AS D 9C AC C 66")
    assert outcome(hand) == (0, "closed_failed", 3)


def test_R6_4_opponent_declaring_falsely_after_a_close_scores_for_the_closer() -> None:
    # docs/design.md §2: a false declaration by the closer's opponent is false_declaration (R8.3).
    hand = deal("9S AC TC KD QD JD", "AS 9C TS QS JS KC", "JH")
    play(hand, "C 9S AS 66")
    assert outcome(hand) == (1, "false_declaration", 3)  # the closer had no trick
    hand = deal("9S AC TC KD QD JD", "AS 9C TS QS JS KC", "JH", false_declaration="two")
    play(hand, "C 9S AS 66")
    assert outcome(hand) == (1, "false_declaration", 2)
