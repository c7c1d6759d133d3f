"""The hand's past behind a world (sixtysix.game.worlds.Packs): a pack whose deal, with the
actions a seat saw, gives that seat's view with a chosen layout of the hidden cards.
The oracle is the real hand: its true layout must replay to its own state, under every
preset, from both seats, at every point of hands played by several bots."""

from __future__ import annotations

import itertools
import random

import pytest

from sixtysix import Action, Hand, Rules
from sixtysix.bots import make_bot
from sixtysix.game.actions import DRAW
from sixtysix.game.cards import CARDS
from sixtysix.game.worlds import Deal, Packs, shown_cards
from sixtysix.rules import PRESETS


def _replayed(hand: Hand, seat: int, rng: random.Random) -> Hand:
    view = hand.view(seat)
    deck = Packs(view, rng).pack(hand.kernel.hand(1 - seat), hand.kernel.stock_cards(), rng)
    again = Hand.deal([CARDS[i] for i in deck], view.dealer, view.rules)
    for _, action in view.history:
        again.push(action)
    return again


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("seed", range(6))
def test_the_true_layout_replays_to_the_hand_itself(preset: str, seed: int) -> None:
    """R3.4 (who draws first), R4 (the exchange moves the face-up card), R5 (a marriage
    shows both cards): at every action of a hand, from both seats, the real opponent's
    hand and stock give a pack that replays to the same state."""
    rules = Rules.preset(preset)
    hand = Hand.random(seed=seed, rules=rules)
    bots = [make_bot("medium" if seed % 2 else "easy", seed=seed + s) for s in (0, 1)]
    rng = random.Random(seed)
    while hand.to_act is not None:
        for seat in (0, 1):
            assert _replayed(hand, seat, rng).key() == hand.key()
        view = hand.view(hand.to_act)
        hand.push(bots[hand.to_act].choose(view, view.legal))


def test_a_card_shown_early_is_dealt_or_drawn_by_then() -> None:
    """A card the opponent played at his first lead was dealt to him (R2.4): it sits at
    one of his dealt places in every pack, whatever the layout."""
    hand = Hand.random(seed=11)
    first = hand.to_act
    view = hand.view(first)
    card = next(a for a in view.legal if a.card is not None and a.code < 24)
    hand.push(card)
    seen = hand.view(1 - first)
    rng = random.Random(5)
    places = Deal.of(seen.rules).dealt(first, seen.dealer)
    packs = Packs(seen, rng)
    for _ in range(50):
        deck = packs.pack(hand.kernel.hand(first), hand.kernel.stock_cards(), rng)
        assert deck.index(card.card.index) in places  # type: ignore[union-attr]


def test_the_past_is_uniform_among_the_ways_it_could_have_been() -> None:
    """After two draws, every way the opponent's eight cards could have come to his eight
    places (each card he used at a place he had by then) is equally likely. The oracle
    counts those ways by brute force over all 8! orders; the packs' frequency of one of
    his cards lying at a dealt place is checked against it (chi-square, 1 degree of
    freedom, p = 0.001, 4,000 packs)."""
    hand = Hand.random(seed=2)
    bots = [make_bot("medium", seed=s) for s in (0, 1)]
    while hand.kernel.drawn < 4 or hand.state != "lead":
        view = hand.view(hand.to_act)
        hand.push(bots[hand.to_act].choose(view, view.legal))
    view = hand.view(0)
    deal = Deal.of(view.rules)
    places = [(0, p) for p in deal.dealt(1, view.dealer)]
    needs: dict[int, int] = {}
    draws = 0
    for t, (seat, action) in enumerate(view.history):
        if action.code == DRAW:
            places.append((t + 1, deal.draw(draws)[0 if seat == 1 else 1]))
            draws += 1
        elif seat == 1:
            for card in shown_cards(action, view.trump, view.rules):
                needs.setdefault(card.index, t)
    cards = sorted(set(needs) | {c for c in range(24) if hand.kernel.hand(1) >> c & 1})
    assert len(cards) == len(places) == 8
    loose = next(c for c in cards if c not in needs)
    dealt = set(deal.dealt(1, view.dealer))
    ways = at_dealt = 0
    for order in itertools.permutations(places):
        if all(since <= needs.get(card, 99) for card, (since, _) in zip(cards, order, strict=True)):
            ways += 1
            at_dealt += order[cards.index(loose)][1] in dealt
    rng = random.Random(9)
    packs = Packs(view, rng)
    n = 4000
    hits = sum(packs.pack(hand.kernel.hand(1), hand.kernel.stock_cards(), rng).index(loose) in dealt
               for _ in range(n))
    expected = n * at_dealt / ways
    assert 0 < expected < n
    chi2 = (hits - expected) ** 2 / expected + (hits - expected) ** 2 / (n - expected)
    assert chi2 < 10.83


def test_a_layout_that_does_not_fit_is_refused() -> None:
    hand = Hand.random(seed=4)
    view = hand.view(0)
    packs = Packs(view, random.Random(1))
    with pytest.raises(ValueError, match="does not fit"):
        packs.pack(hand.kernel.hand(1), hand.kernel.stock_cards()[:-2], random.Random(1))
    with pytest.raises(ValueError, match="does not fit"):
        packs.pack(hand.kernel.hand(0), hand.kernel.stock_cards(), random.Random(1))
    assert Action.parse("9D")  # the notation is loaded
