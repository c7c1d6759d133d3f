"""R8: declaring 66: who may declare and when, correct and false
declarations, declaring later, the played-out hand, and ``auto_declare``."""

from __future__ import annotations

import pytest

from helpers import RUN_5, deal, hand_cards, legal, load, play, refused, run_hand
from sixtysix import Hand, Rules

AUTO = Rules.preset("classic").replace(auto_declare=True)
# Seat 1 reaches 68 (with a 20 in clubs) and plays on; seat 0 later declares 66.
LATE_DECK = "KC KS TC TH JH 9S JC KD AH 9H TS JD QS QD KH AS TD JS 9C QC QH AC 9D AD"
LATE_PLAY = "KD JH D AH 9H D QD 9S D JD KS D KC+ TD D AS 9D D TC JS QH QC TS 9C TH AC QS AD 66"


def outcome(hand: Hand) -> tuple[int | None, str, int]:
    res = hand.result()
    assert res is not None
    return res.winner, res.reason, res.game_points


def test_R8_1_no_declaration_without_a_trick() -> None:
    hand = run_hand()
    assert "66" not in legal(hand)
    refused(hand, "66")


def test_R8_1_declare_at_step_1_before_the_draw() -> None:
    hand = run_hand()
    play(hand, "AS 9S D AC 9C D AD 9D D TS JS D TC JC")
    assert hand.state == "draw" and hand.score(1) == 57
    assert legal(hand) == ["C", "D", "66"]
    play(hand, "66")
    assert hand.stock_size == 4  # play stopped at once: no draw
    assert outcome(hand) == (0, "false_declaration", 3)


def test_R8_1_declare_at_step_6_after_exchange_and_close() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " X C")
    assert "66" in legal(hand) and hand.score(1) == 57
    play(hand, "66")
    assert outcome(hand) == (0, "closed_failed", 3)


def test_R8_1_follower_may_not_declare() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH")
    assert hand.state == "follow"
    assert "66" not in legal(hand)
    refused(hand, "66")


def test_R8_1_not_automatic_in_classic() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH TH")
    assert hand.score(1) == 78
    assert not hand.is_over()
    assert legal(hand) == ["C", "D", "66"]
    play(hand, "D KC QC")  # plays on
    assert not hand.is_over() and hand.score(1) == 85


def test_R8_2_correct_declaration_wins_with_R9_1_game_points() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH TH 66")
    assert outcome(hand) == (1, "declared", 3)
    res = hand.result()
    assert res is not None and res.points == (0, 78) and res.tricks == (0, 6)


def test_R8_3_false_declaration_two_or_three() -> None:
    # The opponent has no trick: 3. (R10.3: law 12, the false claim, is this rule.)
    hand = run_hand()
    play(hand, "AS 9S 66")
    assert outcome(hand) == (0, "false_declaration", 3)
    # The opponent has a trick: 2.
    hand = deal("9S AC TC KD QD JD", "AS 9C TS QS JS KC", "JH")
    play(hand, "9S AS D 9C AC 66")
    assert outcome(hand) == (0, "false_declaration", 2)


def test_R8_3_false_declaration_two_option() -> None:
    hand = run_hand(false_declaration="two")
    play(hand, "AS 9S 66")
    assert outcome(hand) == (0, "false_declaration", 2)
    hand = run_hand(rules=Rules.preset("pagat"))
    play(hand, "AS 9S 66")
    assert outcome(hand) == (0, "false_declaration", 2)


def test_R8_3_false_declaration_at_64() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " X")
    assert hand.score(1) == 57
    play(hand, "KC QC D")  # 57 + 7 = 64
    assert hand.score(1) == 64
    play(hand, "66")
    assert outcome(hand) == (0, "false_declaration", 3)
    res = hand.result()
    assert res is not None and res.points == (0, 64)


def test_R8_4_declare_at_a_later_lead() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH TH D KC QC")
    assert hand.score(1) == 85
    play(hand, "66")
    assert outcome(hand) == (1, "declared", 3)
    res = hand.result()
    assert res is not None and res.points == (0, 85)


def test_R8_4_first_correct_declaration_wins_whoever_reached_66_first() -> None:
    hand = Hand.deal(LATE_DECK, 0)
    tokens = LATE_PLAY.split()
    first = None
    for i, token in enumerate(tokens[:-1]):
        play(hand, token)
        if first is None and hand.score(1) >= 66:
            first = i
    assert first is not None and hand.score(1) == 68 and hand.score(0) == 66
    play(hand, tokens[-1])
    res = hand.result()
    assert res is not None
    assert (res.winner, res.reason, res.game_points, res.points) == (0, "declared", 1, (66, 68))


def test_R8_5_played_out_higher_total_wins() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH TH D KC QC 9H JH JD TD QH KH KD QS QD KS")
    assert outcome(hand) == (1, "played_out", 1)


def test_R8_5_played_out_closed_hand_is_decided_by_the_close() -> None:
    # The closer has more points than the opponent, yet fails with 54.
    hand = deal("AS TS KS AC TC JD", "9S JS QS 9C QC AD", "9H")
    play(hand, "C AS 9S TS JS KS QS AC 9C TC QC JD AD")
    assert outcome(hand) == (0, "closed_failed", 3)
    assert hand.score(1) > hand.score(0)


def test_R8_1_auto_declare_has_no_declaration_actions() -> None:
    hand = run_hand(rules=AUTO)
    play(hand, "AS 9S")
    assert legal(hand) == ["C", "D"]
    refused(hand, "66")
    play(hand, "D")
    assert "66" not in legal(hand)


def test_R8_1_auto_declare_ends_the_hand_when_a_trick_reaches_66() -> None:
    hand = run_hand(rules=AUTO)
    play(hand, RUN_5 + " AH")
    assert not hand.is_over()
    play(hand, "TH")
    assert outcome(hand) == (1, "declared", 3)
    assert hand.stock_size == 2  # ended before the draw
    res = hand.result()
    assert res is not None and res.points == (0, 78)


def test_R8_1_auto_declare_marriage_lead_ends_the_hand_unled() -> None:
    hand = run_hand(rules=AUTO)
    play(hand, RUN_5)
    assert hand.score(1) == 57
    play(hand, "KS+")
    assert outcome(hand) == (1, "declared", 3)
    assert {"KS", "QS"} <= hand_cards(hand, 1)  # the King was never led
    assert hand.lead_card is None
    res = hand.result()
    assert res is not None
    assert res.points == (0, 77)
    assert res.to_json()["marriages"] == [[], [["S", 20]]]
    assert [str(a) for a in hand.actions][-1] == "KS+"
    assert hand.view(0).lead is None


def test_R8_1_auto_declare_marriage_below_66_is_led_normally() -> None:
    hand = run_hand(rules=AUTO)
    play(hand, "AS 9S D AC 9C D KS+")
    assert hand.state == "follow" and str(hand.lead_card) == "KS"
    assert hand.score(1) == 42


def test_R8_1_auto_declare_provisional_marriage_counts_when_the_trick_is_won() -> None:
    # Seat 1 leads KC+ with no trick yet: the 20 waits for the trick; the hand
    # ends at once when a trick brings the total to 66.
    hand = deal("KC QC AS TS AD TD", "9C JC 9S JS 9D JD", "KH", rules=AUTO)
    play(hand, "KC+")
    assert not hand.is_over() and hand.score(1) == 0
    play(hand, "9C D AS 9S D TS JS D AD 9D")
    assert hand.score(1) == 4 + 11 + 12 + 11 + 20 and not hand.is_over()
    play(hand, "D TD JD")
    assert outcome(hand) == (1, "declared", 3)
    assert hand.score(1) == 70


def test_R8_1_auto_declare_closer_reaching_66_succeeds() -> None:
    hand = deal("AS TS AC TC AD TD", "KS QS KC QC KD QD", "9H", rules=AUTO)
    play(hand, "C AS KS TS QS AC KC TC QC AD")
    assert not hand.is_over() and hand.score(1) == 56
    play(hand, "KD")
    assert outcome(hand) == (1, "closed_succeeded", 3)
    assert hand.score(1) == 71


def test_R8_1_auto_declare_last_trick_is_played_out() -> None:
    # Nobody has 66 before the last trick; its winner gets there with the
    # trick and the bonus: the reason is played_out (docs/design.md §2).
    deck = "9S KS AD QH AC TS QS QD KH AS JS JC 9D TC JH AH 9H KC QC 9C KD TH JD TD"
    tokens = ("QS AS D TS JH D JC 9H D KC KH D TC QD D QC 9C D "
              "TH AH JS KS 9S 9D QH KD AD JD TD AC")
    hand = Hand.deal(deck, 0, AUTO)
    play(hand, tokens.rsplit(" ", 1)[0])
    assert (hand.score(0), hand.score(1)) == (57, 42)
    play(hand, "AC")
    res = hand.result()
    assert res is not None
    assert (res.winner, res.reason, res.game_points, res.points) == (1, "played_out", 1, (57, 73))


def test_R8_1_auto_declare_tie_is_still_a_tie() -> None:
    tie = load("r13_6_tie_bonus_match.json")["hands"][0]
    hand = Hand.deal(tie["deck"], 0, AUTO)
    play(hand, " ".join(tie["actions"]))
    assert outcome(hand) == (None, "tie", 0)


@pytest.mark.parametrize("preset", ["classic", "pagat", "santase"])
def test_R8_declaration_never_legal_in_follow_state(preset: str) -> None:
    hand = run_hand(rules=Rules.preset(preset))
    play(hand, "AS")
    assert all(not t.startswith("66") for t in legal(hand))
