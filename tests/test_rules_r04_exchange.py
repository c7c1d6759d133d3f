"""R4: exchanging the trump nine for the turned-up trump."""

from __future__ import annotations

from helpers import RUN_5, deal, hand_cards, legal, play, refused, run_hand


def test_R4_1_exchange_swaps_the_nine_for_the_turned_up_trump() -> None:
    hand = run_hand()
    play(hand, "AS 9S D")
    assert "X" in legal(hand)
    before = hand.stock_size
    play(hand, "X")
    assert "KH" in hand_cards(hand, 1) and "9H" not in hand_cards(hand, 1)
    assert str(hand.trump_card) == "9H"
    assert hand.stock_size == before
    assert (hand.state, hand.to_act) == ("lead", 1)
    assert "X" not in legal(hand)  # the nine is gone: no second exchange
    hand.pop()
    assert "9H" in hand_cards(hand, 1) and str(hand.trump_card) == "KH"


def test_R4_1_only_the_holder_of_the_trump_nine() -> None:
    # The leader has won a trick, but the trump nine is in the opponent's hand.
    hand = deal("AS AC AD TS TC QD", "9S 9H 9D JS JC JD", "KH")
    play(hand, "AS 9S D")
    assert "X" not in legal(hand)
    refused(hand, "X")


def test_R4_1_not_for_the_follower() -> None:
    # The dealer holds the trump nine; he is following, not on lead.
    hand = deal("AS AC AD TS TC QD", "9S 9H 9D JS JC JD", "KH")
    play(hand, "AS")
    assert hand.to_act == 0 and hand.state == "follow"
    assert legal(hand) == ["JC", "9D", "JD", "9H", "9S", "JS"]
    refused(hand, "X")


def test_R4_1_not_before_the_draw() -> None:
    hand = run_hand()
    play(hand, "AS 9S")
    assert hand.state == "draw"
    refused(hand, "X")


def test_R4_1_and_R4_2_never_before_the_first_trick() -> None:
    hand = run_hand()
    assert "9H" in hand_cards(hand, 1)
    assert "X" not in legal(hand)
    refused(hand, "X")


def test_R4_1_needs_a_trick_won_by_the_exchanger() -> None:
    # The dealer, holding the nine, wins the first trick: now he may exchange.
    hand = deal("9S AC AD TS TC QD", "AS 9H 9D JS JC JD", "KH")
    play(hand, "9S AS D")
    assert hand.to_act == 0
    assert "X" in legal(hand)


def test_R4_1_not_after_closing() -> None:
    hand = run_hand()
    play(hand, "AS 9S C")
    assert "X" not in legal(hand)
    refused(hand, "X")
    hand = run_hand()
    play(hand, "AS 9S D C")
    assert "X" not in legal(hand)


def test_R4_1_not_once_the_stock_is_exhausted() -> None:
    hand = run_hand()
    # The dealer wins the sixth trick and takes the turned-up KH; seat 1 keeps
    # the nine of trumps, but the stock is exhausted.
    play(hand, RUN_5 + " KC TH D")
    assert hand.stock_size == 0
    play(hand, "JH QH")
    assert hand.to_act == 1 and "9H" in hand_cards(hand, 1)
    assert "X" not in legal(hand)
    refused(hand, "X")


def test_R4_2_possible_with_only_two_cards_left() -> None:
    hand = run_hand()
    play(hand, RUN_5)
    assert hand.stock_size == 2
    assert "X" in legal(hand)
    play(hand, "X")
    assert "KH" in hand_cards(hand, 1)


def test_R4_2_exchange_min_stock_4_refuses_at_two_allows_at_four() -> None:
    hand = run_hand(exchange_min_stock=4)
    play(hand, "AS 9S D AC 9C D AD 9D D TS JS D")
    assert hand.stock_size == 4
    assert "X" in legal(hand)
    play(hand, "TC JC D")
    assert hand.stock_size == 2
    assert "X" not in legal(hand)
    refused(hand, "X")


def test_R4_2_exchange_min_stock_is_any_number_of_stock_cards() -> None:
    hand = run_hand(exchange_min_stock=12)
    play(hand, "AS 9S D")
    assert "X" not in legal(hand)  # ten cards left, twelve needed
