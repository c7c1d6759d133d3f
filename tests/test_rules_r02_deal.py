"""R2: the cut for the first deal, the deal, recorded decks and the dealer rotation."""

from __future__ import annotations

import random

import pytest

from helpers import QUICK_DECK, finish_quickly, hand_cards, load, make_deck, play, toks
from sixtysix import CARDS, Card, Hand, InvalidDeckError, Rules, Suit
from sixtysix.game.deck import random_deck
from sixtysix.game.match import Match

TIE = load("r13_6_tie_bonus_match.json")["hands"][0]


def play_tie(hand: Hand) -> None:
    play(hand, " ".join(TIE["actions"]))
    res = hand.result()
    assert res is not None and res.reason == "tie" and res.points == (65, 65)


def test_R2_1_higher_cut_deals_and_equal_ranks_cut_again() -> None:
    recuts = 0
    dealers = set()
    for seed in range(300):
        match = Match(Rules.preset("classic"), seed=seed)
        assert match.cuts, "first_dealer=cut must record the cuts"
        *again, (mine, theirs) = match.cuts
        for a, b in again:
            assert a.rank == b.rank
        recuts += len(again)
        assert mine.rank != theirs.rank
        assert match.first_dealer == (0 if mine.rank > theirs.rank else 1)
        # Rank order is R1.2: the Ten outranks the King.
        if {mine.rank.letter, theirs.rank.letter} == {"T", "K"}:
            assert str(match.cuts[-1][match.first_dealer]).startswith("T")
        dealers.add(match.first_dealer)
        assert match.next_dealer() == match.first_dealer
        assert match.deal().dealer == match.first_dealer
    assert recuts > 0, "300 matches without a single equal cut is implausible"
    assert dealers == {0, 1}


def test_R2_1_cut_is_seeded() -> None:
    assert Match(seed=11).cuts == Match(seed=11).cuts
    assert Match(seed=11).first_dealer == Match(seed=11).first_dealer


def test_R2_1_first_dealer_random_makes_no_cut() -> None:
    dealers = set()
    for seed in range(40):
        match = Match(Rules.preset("pagat"), seed=seed)
        assert match.cuts == []
        dealers.add(match.first_dealer)
    assert dealers == {0, 1}
    assert Rules.preset("classic").replace(first_dealer="random").first_dealer == "random"


def test_R2_1_explicit_first_dealer() -> None:
    for seat in (0, 1):
        match = Match(first_dealer=seat)
        assert match.first_dealer == seat
        assert match.deal().dealer == seat
    with pytest.raises(ValueError):
        Match(first_dealer=2)


class _NoShuffle(random.Random):
    """A generator that leaves the pack in order and records the cut asked for."""

    def __init__(self, cut: int) -> None:
        super().__init__(0)
        self.cut = cut
        self.bounds: tuple[int, int] | None = None

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        pass

    def randint(self, a: int, b: int) -> int:
        self.bounds = (a, b)
        return self.cut


@pytest.mark.parametrize("cut", [2, 12, 22])
def test_R2_2_cut_leaves_at_least_two_cards_in_each_packet(cut: int) -> None:
    rng = _NoShuffle(cut)
    deck = random_deck(rng)
    assert rng.bounds == (2, 22)
    assert deck == [*CARDS[cut:], *CARDS[:cut]]


def test_R2_2_random_deal_is_a_permutation_of_the_pack() -> None:
    for seed in range(50):
        hand = Hand.random(seed=seed)
        assert sorted(hand.deck) == sorted(CARDS)


def test_R2_3_and_R2_4_deal_positions() -> None:
    deck = "9C TC JC 9D TD JD QC KC AC QD KD AD 9H " + "TH JH QH KH AH 9S TS JS QS KS AS"
    for dealer in (0, 1):
        hand = Hand.deal(deck, dealer)
        non_dealer = 1 - dealer
        # Positions 1-3 and 7-9 to the non-dealer, 4-6 and 10-12 to the dealer.
        assert hand_cards(hand, non_dealer) == {"9C", "TC", "JC", "QC", "KC", "AC"}
        assert hand_cards(hand, dealer) == {"9D", "TD", "JD", "QD", "KD", "AD"}
        # Position 13 is turned up: its suit is trump, it is the last card of the stock.
        assert hand.trump is Suit.HEARTS
        assert str(hand.trump_card) == "9H"
        assert hand.stock_size == 12
        assert [str(c) for c in hand.stock] == toks("TH JH QH KH AH 9S TS JS QS KS AS 9H")
        assert hand.to_act == non_dealer
        assert hand.state == "lead"
        assert hand.dealer == dealer


def test_R2_4_stock_is_drawn_from_position_14() -> None:
    deck = make_deck("AS KS QS JS TS 9S", "AH KH QH JH TH 9H", "JC", "AD KD QD JD TD 9D")
    hand = Hand.deal(deck, 0)
    # Non-dealer (seat 1) leads AS; the dealer follows 9H: the leader wins and draws first.
    play(hand, "AS 9H D")
    assert "AD" in hand_cards(hand, 1)
    assert "KD" in hand_cards(hand, 0)
    assert [str(c) for c in hand.stock][:2] == ["QD", "JD"]
    assert hand.stock_size == 10


@pytest.mark.parametrize(
    "deck",
    [
        "9C TC JC 9D TD JD QC KC AC QD KD AD 9H TH JH QH KH AH 9S TS JS QS KS",  # 23 cards
        "9C TC JC 9D TD JD QC KC AC QD KD AD 9H TH JH QH KH AH 9S TS JS QS KS KS",  # twice
        "9C TC JC 9D TD JD QC KC AC QD KD AD 9H TH JH QH KH AH 9S TS JS QS KS AS 9C",
        "9C TC JC 9D TD JD QC KC AC QD KD AD 9H TH JH QH KH AH 9S TS JS QS KS XX",
    ],
)
def test_R2_4_deck_must_be_the_24_card_pack(deck: str) -> None:
    with pytest.raises(InvalidDeckError):
        Hand.deal(deck)


def test_R2_4_dealer_must_be_a_seat() -> None:
    with pytest.raises(ValueError):
        Hand.deal(" ".join(str(c) for c in CARDS), 2)


def test_R2_5_deal_alternates() -> None:
    match = Match(first_dealer=0)
    dealers = []
    for winner in (0, 0, 1, 0):
        hand = match.deal(QUICK_DECK)
        dealers.append(hand.dealer)
        finish_quickly(hand, winner)
    assert dealers == [0, 1, 0, 1]
    assert match.next_dealer() == 0


def test_R2_5_deal_alternates_also_after_a_tie() -> None:
    match = Match(first_dealer=1)
    first = match.deal(TIE["deck"])
    assert first.dealer == 1
    play_tie(first)
    assert match.next_dealer() == 0
    second = match.deal(TIE["deck"])
    assert second.dealer == 0
    play_tie(second)
    assert match.deal(QUICK_DECK).dealer == 1


def test_R2_5_next_dealer_winner_winner_deals_and_tie_keeps_dealer() -> None:
    rules = Rules.preset("classic").replace(next_dealer="winner")
    match = Match(rules, first_dealer=0)
    hand = match.deal(QUICK_DECK)
    finish_quickly(hand, 1)
    assert match.next_dealer() == 1
    hand = match.deal(QUICK_DECK)
    assert hand.dealer == 1
    finish_quickly(hand, 1)
    assert match.deal(TIE["deck"]).dealer == 1  # the winner deals again
    play_tie(match.hands[-1])
    assert match.next_dealer() == 1  # after a tie the same dealer deals again
    hand = match.deal(QUICK_DECK)
    assert hand.dealer == 1
    finish_quickly(hand, 0)
    assert match.next_dealer() == 0


def test_R2_5_pagat_lets_the_winner_deal() -> None:
    for preset in ("pagat",):
        match = Match(Rules.preset(preset), first_dealer=1)
        hand = match.deal(QUICK_DECK)
        finish_quickly(hand, 0)
        assert match.next_dealer() == 0
