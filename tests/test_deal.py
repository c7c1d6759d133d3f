"""Where the cards of a pack go (sixtysix.game.worlds), and packs put together from what one
seat saw. The positions are the rule book's, written out here (R2.4, S2.1)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sixtysix import Card, Hand, Rules
from sixtysix.game.cards import pack
from sixtysix.game.worlds import Deal, fill_pack

CLASSIC, SCHNAPSEN = Rules.preset("classic"), Rules.preset("schnapsen")


def test_the_24_card_deal_is_three_three_trump_stock() -> None:
    """R2.4: three to the non-dealer, three to the dealer, three and three again, then the trump."""
    deal = Deal.of(CLASSIC)
    assert deal.dealt(1, dealer=0) == (0, 1, 2, 6, 7, 8)
    assert deal.dealt(0, dealer=0) == (3, 4, 5, 9, 10, 11)
    assert deal.trump == 12
    assert [deal.draw(n) for n in range(deal.draws)] == [
        (13, 14), (15, 16), (17, 18), (19, 20), (21, 22), (23, 12)]
    assert deal.cards == pack(24) and deal.mask == (1 << 24) - 1


def test_the_20_card_deal_turns_the_seventh_card() -> None:
    """S2.1: three each, the seventh card turned up, two each; five draws (S2.2)."""
    deal = Deal.of(SCHNAPSEN)
    assert deal.dealt(0, dealer=1) == (0, 1, 2, 7, 8)
    assert deal.dealt(1, dealer=1) == (3, 4, 5, 9, 10)
    assert deal.trump == 6
    assert [deal.draw(n) for n in range(deal.draws)] == [(11, 12), (13, 14), (15, 16), (17, 18), (19, 6)]
    assert len(deal.cards) == 20 and not any(c.rank == 0 for c in deal.cards)


@pytest.mark.parametrize("rules", [CLASSIC, SCHNAPSEN])
def test_the_deal_is_the_engines(rules: Rules) -> None:
    hand = Hand.random(seed=3, rules=rules, dealer=1)
    deal = Deal.of(rules)
    for seat in (0, 1):
        assert {hand.deck[p] for p in deal.dealt(seat, dealer=1)} == hand.cards(seat)
    assert hand.deck[deal.trump] == hand.dealt_trump_card


def _check(deck: list[Card], known: dict[int, Card], places: list[tuple[int, int]],
           needs: list[tuple[int, Card]], size: int) -> None:
    assert sorted(deck) == sorted(pack(size))
    assert all(deck[p] == c for p, c in known.items())
    held = dict((p, t) for t, p in places)
    for time, card in needs:
        if card not in known.values():
            assert held[deck.index(card)] <= time, (card, time)


@pytest.mark.parametrize("seed", range(30))
def test_a_filled_pack_keeps_what_was_seen_and_places_shown_cards_in_time(seed: int) -> None:
    rng = random.Random(seed)
    deal = Deal.of(CLASSIC)
    cards = list(deal.cards)
    rng.shuffle(cards)
    positions = list(range(24))
    rng.shuffle(positions)
    known = {p: cards[p] for p in positions[:8]}
    places = [(rng.randrange(4), p) for p in positions[8:16]]
    # Cards he showed: some he surely could hold (each at a place held in time), some known.
    needs = [(t + rng.randrange(2), cards[p]) for t, p in places[:5]] + [(0, known[positions[0]])]
    for chooser in (random.Random(seed), None):
        deck = fill_pack(deal, known, places, needs, chooser)
        _check(deck, known, places, needs, 24)


def test_a_card_shown_before_he_could_hold_it_fails() -> None:
    deal = Deal.of(SCHNAPSEN)
    ace = Card.parse("AS")
    with pytest.raises(ValueError, match="showed AS before he could hold it"):
        fill_pack(deal, {}, [(2, 3), (3, 4)], [(1, ace)], random.Random(1))
    assert fill_pack(deal, {}, [(2, 3), (3, 4)], [(2, ace)]).index(ace) == 3


def test_without_a_random_source_the_latest_place_is_taken() -> None:
    deal = Deal.of(SCHNAPSEN)
    ace, king = Card.parse("AS"), Card.parse("KS")
    deck = fill_pack(deal, {}, [(0, 3), (0, 9), (1, 11), (4, 13)], [(1, ace), (0, king)])
    assert deck.index(king) == 9 and deck.index(ace) == 11
    assert deck == fill_pack(deal, {}, [(0, 3), (0, 9), (1, 11), (4, 13)], [(1, ace), (0, king)])


def test_a_shown_card_goes_to_each_place_in_time_equally_often() -> None:
    deal = Deal.of(CLASSIC)
    ace = Card.parse("AS")
    rng = random.Random(7)
    counts: Counter[int] = Counter()
    n = 3000
    for _ in range(n):
        deck = fill_pack(deal, {}, [(0, 3), (0, 4), (0, 5), (2, 9)], [(1, ace)], rng)
        counts[deck.index(ace)] += 1
    assert set(counts) == {3, 4, 5}
    assert all(abs(c - n / 3) < 4 * (n * 2 / 9) ** 0.5 for c in counts.values()), counts
