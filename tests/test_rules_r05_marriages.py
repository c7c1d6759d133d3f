"""R5: marriages: values, who may announce and when, provisional points,
the phase-2 limit and the declaration with a marriage (66+S)."""

from __future__ import annotations

from helpers import RUN_5, deal, hand_cards, legal, play, refused, run_hand
from sixtysix import Hand, Rules

# Seat 1 (the non-dealer) holds the clubs marriage from the deal; hearts are trump.
MARRIED = ("AS KC QC TS TC 9H", "9S 9C 9D JS JC JD", "KH")


def married(**options: object) -> Hand:
    return deal(*MARRIED, **options)


def test_R5_1_plain_marriage_scores_20_and_leads_either_card() -> None:
    for token, led, kept in (("KS+", "KS", "QS"), ("QS+", "QS", "KS")):
        hand = run_hand()
        play(hand, "AS 9S D AC 9C D")  # seat 1 drew QS and KS
        assert {"QS+", "KS+"} <= set(legal(hand))
        before = hand.score(1)
        play(hand, token)
        assert hand.state == "follow" and hand.to_act == 0
        assert str(hand.lead_card) == led
        assert kept in hand_cards(hand, 1) and led not in hand_cards(hand, 1)
        assert hand.marriage_points(1) == 20
        assert hand.score(1) == before + 20
        # The marriage was shown: both players see it.
        for seat in (0, 1):
            (m,) = hand.view(seat).marriages
            assert (m.seat, m.suit.letter, m.value) == (1, "S", 20)


def test_R5_1_trump_marriage_scores_40() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " X")  # seat 1 now holds KH and QH of trumps
    assert {"QH+", "KH+", "QS+", "KS+", "66+H", "66+S"} <= set(legal(hand))
    play(hand, "QH+")
    assert hand.marriage_points(1) == 40
    assert hand.score(1) == 57 + 40


def test_R5_1_needs_king_and_queen_of_one_suit() -> None:
    hand = run_hand()
    play(hand, "AS 9S D")  # seat 1 holds QS, not KS; KC without QC
    assert not [t for t in legal(hand) if t.endswith("+")]
    refused(hand, "QS+")
    refused(hand, "KH+")


def test_R5_1_only_the_leader_announces() -> None:
    hand = run_hand()
    play(hand, "AS 9S D AC 9C D AD 9D D")  # the dealer drew QD and KD
    assert {"QD", "KD"} <= hand_cards(hand, 0)
    play(hand, "TS")
    assert hand.to_act == 0 and hand.state == "follow"
    assert legal(hand) == ["JC", "QC", "JD", "QD", "KD", "JS"]
    refused(hand, "KD+")
    refused(hand, "66+D")


def test_R5_1_one_marriage_per_lead() -> None:
    hand = run_hand()
    play(hand, "AS 9S D AC 9C D AD 9D D TS JS D X")  # seat 1: TC KH QS KS KC AH
    assert [t for t in legal(hand) if t.endswith("+")] == ["QS+", "KS+"]
    play(hand, "KS+")
    assert hand.state == "follow"  # the marriage went with the lead: nothing more this lead
    play(hand, "JC D")  # seat 1 wins the trick and draws QH
    assert hand.to_act == 1
    play(hand, "QH+")  # the next lead may carry the next marriage
    assert hand.marriage_points(1) == 60


def test_R5_2_non_dealer_may_announce_on_the_first_lead() -> None:
    hand = married()
    assert legal(hand) == ["QC", "KC", "TC", "9H", "TS", "AS", "QC+", "KC+", "C"]
    play(hand, "KC+")
    assert hand.marriage_points(1) == 20


def test_R5_2_marriage_first_lead_false_forbids_it() -> None:
    hand = married(marriage_first_lead=False)
    assert legal(hand) == ["QC", "KC", "TC", "9H", "TS", "AS", "C"]
    refused(hand, "KC+")
    play(hand, "AS 9S D")
    assert "KC+" in legal(hand)  # from the second lead on


def test_R5_3_provisional_until_a_trick_is_won() -> None:
    # The announcer wins the trick at once: the 20 counts straight away.
    hand = married()
    play(hand, "KC+ 9C")
    assert hand.tricks_won(1) == 1 and hand.score(1) == 4 + 20
    # The announcer loses the trick: the 20 is provisional.
    hand = deal("KC QC 9S 9H TS JD", "AC 9C AS JS JC TD", "KH")
    play(hand, "KC+ AC")
    assert hand.marriage_points(1) == 20 and hand.tricks_won(1) == 0
    assert hand.score(1) == 0
    assert hand.view(0).scores == (15, 0) and hand.view(1).scores == (15, 0)
    play(hand, "D 9C 9H")  # a trick of two nines: the 20 now counts (R13.2)
    assert hand.tricks_won(1) == 1 and hand.card_points(1) == 0
    assert hand.score(1) == 20


def test_R5_3_void_if_no_trick_is_ever_won() -> None:
    hand = deal("KC QC 9S 9H 9D JD", "AC TC AS TS AD TD", "JH", "KS QS")
    play(hand, "KC+ AC D TC QC D AS 9S D TS")
    assert hand.score(1) == 0 and hand.marriage_points(1) == 20
    play(hand, "JD")
    assert hand.score(0) == 15 + 13 + 11 + 12
    play(hand, "D AD 9D D TD QS 66")  # seat 1 drew QS first
    res = hand.result()
    assert res is not None
    assert (res.winner, res.reason, res.game_points) == (0, "declared", 3)
    assert res.points == (51 + 11 + 13, 0)
    assert res.to_json()["marriages"] == [[], [["C", 20]]]


def test_R5_4_no_marriage_once_the_stock_is_exhausted() -> None:
    hand = run_hand()
    play(hand, RUN_5 + " AH TH D")
    assert hand.stock_size == 0 and hand.to_act == 1
    assert {"QS", "KS"} <= hand_cards(hand, 1)
    assert legal(hand) == ["KC", "TD", "9H", "QH", "QS", "KS", "66"]
    refused(hand, "KS+")
    refused(hand, "66+S")


def test_R5_4_marriages_in_phase2_lifts_the_limit_after_exhaustion() -> None:
    hand = run_hand(marriages_in_phase2=True)
    play(hand, RUN_5 + " AH TH D")
    assert legal(hand) == ["KC", "TD", "9H", "QH", "QS", "KS", "QS+", "KS+", "66", "66+S"]


def test_R5_4_no_marriage_after_a_close_at_an_earlier_turn() -> None:
    hand = run_hand()
    play(hand, "AS 9S D AC 9C D C AD 9D")  # seat 1 closed, led AD, and leads again
    assert hand.closed_by == 1 and hand.to_act == 1
    assert {"QS", "KS"} <= hand_cards(hand, 1)
    assert "KS+" not in legal(hand) and "QS+" not in legal(hand)
    refused(hand, "QS+")
    hand = run_hand(marriages_in_phase2=True)
    play(hand, "AS 9S D AC 9C D C AD 9D")
    assert {"QS+", "KS+"} <= set(legal(hand))


def test_R5_4_closer_may_announce_in_the_closing_turn_after_the_draw() -> None:
    hand = run_hand()
    play(hand, "AS 9S D AC 9C D C")
    assert {"QS+", "KS+", "66+S"} <= set(legal(hand))
    play(hand, "QS+")
    assert hand.marriage_points(1) == 20


def test_R5_4_closer_may_announce_in_the_closing_turn_before_the_draw() -> None:
    hand = married()
    play(hand, "AS 9S C")  # closes instead of drawing
    assert hand.stock_size == 12
    assert {"QC+", "KC+"} <= set(legal(hand))
    play(hand, "QC+")
    assert hand.marriage_points(1) == 20
    assert hand.score(1) == 11 + 20


def test_R5_4_closer_may_announce_when_closing_before_the_first_lead() -> None:
    hand = married()
    play(hand, "C")
    assert legal(hand) == ["QC", "KC", "TC", "9H", "TS", "AS", "QC+", "KC+"]


def test_R5_4_opponent_of_the_closer_may_not_announce() -> None:
    # Seat 1 closes at once and loses the trick; the dealer holds KD QD.
    hand = deal("9S 9C JC AS TS AC", "AH KD QD JD 9D TD", "KH")
    play(hand, "C 9S AH")
    assert hand.to_act == 0 and hand.state == "lead"
    assert legal(hand) == ["9D", "JD", "QD", "KD", "TD", "66"]
    refused(hand, "KD+")
    hand = deal("9S 9C JC AS TS AC", "AH KD QD JD 9D TD", "KH", marriages_in_phase2=True)
    play(hand, "C 9S AH")
    assert legal(hand) == ["9D", "JD", "QD", "KD", "TD", "QD+", "KD+", "66", "66+D"]


def test_R5_5_show_marriage_and_declare_without_leading() -> None:
    hand = run_hand()
    play(hand, RUN_5)
    assert hand.score(1) == 57
    play(hand, "66+S")
    res = hand.result()
    assert res is not None
    assert (res.winner, res.reason, res.game_points) == (1, "declared", 3)
    assert res.points == (0, 77)
    assert res.to_json()["marriages"] == [[], [["S", 20]]]
    assert {"QS", "KS"} <= hand_cards(hand, 1)  # nothing was led


def test_R5_5_marriage_declaration_under_66_is_false() -> None:
    hand = run_hand()
    play(hand, "AS 9S D AC 9C D")
    assert hand.score(1) == 22
    play(hand, "66+S")
    res = hand.result()
    assert res is not None
    assert (res.winner, res.reason, res.game_points) == (0, "false_declaration", 3)
    assert res.points == (0, 42)


def test_R5_5_needs_a_trick_won() -> None:
    hand = married()
    assert "66+C" not in legal(hand)
    refused(hand, "66+C")


def test_R5_5_not_an_action_under_auto_declare() -> None:
    hand = run_hand(rules=Rules.preset("classic").replace(auto_declare=True))
    play(hand, "AS 9S D AC 9C D")
    assert [t for t in legal(hand) if t.startswith("66")] == []
    assert {"QS+", "KS+"} <= set(legal(hand))
