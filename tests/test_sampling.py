"""Determinization (sixtysix.game.worlds): constraints from a view, counting,
enumerating and sampling the hidden layouts.

Properties over random hands (classic, santase, table rules): every sampled
world shows the seat exactly its view, the constraints never exclude the real
layout, and the cards ruled out by phase-2 follows, the cards known to be in the
opponent's hand and the unseen cards agree with oracles of the tests' own (R7.2,
R11.1; tests/helpers.py). Hand-made positions check the
deductions exactly; chi-square tests (seeded) check that sampling is uniform.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import RUN_5, cards, choose, deal, phase2_follow, play, revealed, run_hand, seeds, styles
from sixtysix import CARDS, Card, Hand, Rules, Suit
from sixtysix.game.views import Marriage
from sixtysix.game.worlds import (
    Constraints,
    InconsistentViewError,
    Layout,
    Sampler,
    World,
    count_layouts,
    enumerate_worlds,
    sample_worlds,
    worlds,
)

CLASSIC = Rules.preset("classic")
SANTASE = Rules.preset("santase")
TABLE = CLASSIC.replace(enforce_follow=False)
RULE_SETS = [CLASSIC, SANTASE, TABLE, SANTASE.replace(enforce_follow=False, close_before_draw=False),
             Rules.preset("schnapsen"), Rules.preset("course")]

#: Significance level of the uniformity tests: the seeds are fixed, so a
#: failure means a real bias, never bad luck.
ALPHA = 1e-6

Follow = tuple[int, Card, Card, bool]  # follower, card led, card played, in phase 2


# Chi-square without scipy ---------------------------------------------------------
def upper_gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) (Numerical Recipes 6.2)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # series for P(a, x)
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return 1.0 - total * math.exp(log_front)
    # Lentz's continued fraction for Q(a, x).
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h * math.exp(log_front)


def chi_square_p(counts: Counter[Hashable], cells: Iterable[Hashable]) -> float:
    """The p-value of Pearson's test that ``counts`` are uniform over ``cells``."""
    cells = list(cells)
    assert set(counts) <= set(cells), "a sample fell outside the expected cells"
    total = sum(counts.values())
    expected = total / len(cells)
    stat = sum((counts.get(cell, 0) - expected) ** 2 / expected for cell in cells)
    return upper_gamma_q((len(cells) - 1) / 2, stat / 2)


def test_chi_square_helper_matches_known_values() -> None:
    # Q(k/2, x/2) is the chi-square survival function: known critical values.
    assert upper_gamma_q(0.5, 3.841458820694124 / 2) == pytest.approx(0.05, rel=1e-9)
    assert upper_gamma_q(5.0, 23.20925115681242 / 2) == pytest.approx(0.01, rel=1e-9)
    assert upper_gamma_q(50.0, 124.3421134 / 2) == pytest.approx(0.05, rel=1e-6)
    assert upper_gamma_q(1.0, 4.0) == pytest.approx(math.exp(-4.0), rel=1e-12)


# Random positions -------------------------------------------------------------------
def positions(seed: int, rules: Rules, style: tuple[float, float]) -> Iterator[tuple[Hand, list[Follow]]]:
    """Every position of a random hand (the live hand, before each action), with
    the follows so far and whether each was made in phase 2."""
    rng = random.Random(seed ^ 0xD15C)
    hand = Hand.random(seed=seed, dealer=seed & 1, rules=rules)
    follows: list[Follow] = []
    while not hand.is_over():
        yield hand, follows
        action = choose(hand, rng, style)
        if hand.state == "follow" and action.card is not None:
            led = hand.lead_card
            assert led is not None and hand.to_act is not None
            follows.append((hand.to_act, led, action.card, not hand.stock_open))
        hand.push(action)


def oracle_cannot_hold(follows: list[Follow], seat: int, trump: Suit) -> set[Card]:
    """Cards that would have made one of the opponent's phase-2 follows illegal: held
    beside the card he played, R7.2 (read in tests/helpers.py, not the engine's rule)
    would not have allowed that card."""
    out: set[Card] = set()
    for follower, led, card, phase2 in follows:
        if follower != 1 - seat or not phase2:
            continue
        for other in CARDS:
            if other != card and card not in phase2_follow({card, other}, led, int(trump)):
                out.add(other)
    return out


def check_position(hand: Hand, seat: int, follows: list[Follow], rng: random.Random) -> None:
    view = hand.view(seat)
    c = Constraints.from_view(view)
    truth_opp = hand.cards(1 - seat)
    truth_stock = tuple(hand.stock)
    # What the seat was shown (R11.1), from the deal and the actions: the opponent is
    # known to hold the shown cards in his hand; every other card of his hand or the
    # stock is unseen.
    shown = revealed(hand.deck, hand.rules, hand.actions)
    assert c.must_hold == truth_opp & shown
    assert c.unseen == (truth_opp | set(truth_stock)) - shown
    assert c.must_hold == view.known_opponent_cards() and c.unseen == view.unseen()
    assert c.stock_ordered == hand.stock_open
    assert c.opponent_hand_size == len(truth_opp)
    assert c.must_hold <= truth_opp
    assert not c.cannot_hold & truth_opp
    assert c.stock_last == (truth_stock[-1] if truth_stock else None)
    assert c.admits(truth_opp, truth_stock)
    assert c.cannot_hold == oracle_cannot_hold(follows, seat, hand.trump) & c.unseen
    for suit in c.voids:
        assert {x for x in c.unseen if x.suit == suit} <= c.cannot_hold
    n = c.count()
    assert n >= 1
    for world in sample_worlds(view, 2, rng):
        assert world.view(seat) == view
        opp = world.cards(1 - seat)
        assert c.must_hold <= opp and not opp & c.cannot_hold
        assert c.admits(opp, world.stock)
    if n <= 400:
        layouts = list(c.layouts())
        assert len(layouts) == n == len(set(layouts))
        if c.stock_ordered:
            assert Layout(truth_opp, truth_stock) in layouts
        else:
            assert truth_opp in {layout.opponent for layout in layouts}
        if n <= 6:
            found = enumerate_worlds(view)
            assert len(found) == n
            assert all(w.view(seat) == view for w in found)
            if n == 1:
                assert found[0].cards(1 - seat) == truth_opp
                if c.stock_ordered or c.stock_size == 0:
                    assert found[0].key() == hand.key()


@settings(max_examples=400)
@given(seed=seeds, rules=st.sampled_from(RULE_SETS), style=styles)
def test_random_positions_sample_consistent_worlds(seed: int, rules: Rules,
                                                   style: tuple[float, float]) -> None:
    rng = random.Random(seed)
    for hand, follows in positions(seed, rules, style):
        for seat in (0, 1):
            check_position(hand, seat, follows, rng)


def test_random_positions_reach_phase_two_deductions() -> None:
    """The random play above does exercise the follow deductions (guard against a vacuous test)."""
    seen_void = seen_under = 0
    for seed in range(40):
        for rules in (CLASSIC, TABLE):
            for hand, _ in positions(seed, rules, (0.0, 0.3)):
                for seat in (0, 1):
                    c = Constraints.from_view(hand.view(seat))
                    seen_void += bool(c.voids)
                    seen_under += bool(c.cannot_hold) and not c.voids
    assert seen_void > 20 and seen_under > 5


# Hand-made phase-2 positions ------------------------------------------------------
# Seat 0 deals, so seat 1 (the non-dealer) leads and may close before the first
# lead (R6.1). Clubs are trump, the JC turned up: it stays the last stock card.
def closed(non_dealer: str, dealer: str, actions: str, **options: object) -> Hand:
    hand = deal(non_dealer, dealer, "JC", **options)
    return play(hand, "C " + actions)


def the(text: str) -> frozenset[Card]:
    return frozenset(cards(text))


@pytest.mark.parametrize("rules", [CLASSIC, TABLE], ids=["strict", "table"])
def test_failed_to_follow_and_to_trump(rules: Rules) -> None:
    hand = closed("AH TH KH AS TS KS", "9D JD QD 9S JS QS", "AH 9D", rules=rules)
    c = Constraints.from_view(hand.view(1))
    assert c.voids == {Suit.HEARTS, Suit.CLUBS}
    assert c.cannot_hold == the("QH JH 9H AC TC KC QC 9C")
    assert c.must_hold == frozenset() and c.stock_last == Card.parse("JC")
    assert c.allowed == the("JD QD TD KD AD 9S JS QS")
    assert not c.stock_ordered and c.opponent_hand_size == 5 and c.stock_size == 12
    assert c.count() == math.comb(8, 5) == count_layouts(hand.view(1))


def test_failed_to_follow_but_trumped() -> None:
    hand = closed("AH TH KH AS TS KS", "9C 9D JD QD KD AD", "AH 9C")
    c = Constraints.from_view(hand.view(1))
    assert c.voids == {Suit.HEARTS}
    assert c.cannot_hold == the("QH JH 9H")


def test_followed_under_the_card_led() -> None:
    hand = closed("KH AS TS KS QS JS", "9H 9D JD QD KD AD", "KH 9H")
    c = Constraints.from_view(hand.view(1))
    assert c.voids == frozenset()
    assert c.cannot_hold == the("AH TH")


def test_trump_led_and_a_lower_trump_played() -> None:
    hand = closed("QC TH KH AS TS KS", "9C 9D JD QD KD AD", "QC 9C")
    c = Constraints.from_view(hand.view(1))
    assert c.voids == frozenset()
    assert c.cannot_hold == the("KC TC AC")


def test_trump_led_and_no_trump_played() -> None:
    hand = closed("QC TH KH AS TS KS", "9H 9D JD QD KD AD", "QC 9D")
    c = Constraints.from_view(hand.view(1))
    assert c.voids == {Suit.CLUBS}
    # The JC is the turned-down last card of the stock, not an unseen card.
    assert c.cannot_hold == the("AC TC KC 9C")


def test_followed_and_won_reveals_nothing() -> None:
    hand = closed("9H TH KH AS TS KS", "AH 9D JD QD KD AD", "9H AH")
    c = Constraints.from_view(hand.view(1))
    assert c.voids == frozenset() and c.cannot_hold == frozenset()


def test_own_lead_and_the_seats_follow_reveal_nothing_about_the_opponent() -> None:
    # Seat 1 led and seat 0 failed to follow: seat 0 learns nothing of seat 1's hand.
    hand = closed("AH TH KH AS TS KS", "9D JD QD 9S JS QS", "AH 9D")
    c = Constraints.from_view(hand.view(0))
    assert c.voids == frozenset() and c.cannot_hold == frozenset()
    assert c.count() == math.comb(16, 5)


def test_phase_one_follows_reveal_nothing() -> None:
    # The dealer throws 9D on AH while holding 9H: legal while the stock is open (R3.2).
    hand = play(deal("AH TH KH AS TS KS", "9H 9D JD QD KD AD", "JC", "QS QH"), "AH 9D")
    c = Constraints.from_view(hand.view(1))
    assert c.voids == frozenset() and c.cannot_hold == frozenset()
    assert c.stock_ordered
    # After the draw the non-dealer closes: only the phase-2 follow counts.
    play(hand, "D C KS JD")
    c = Constraints.from_view(hand.view(1))
    assert c.voids == {Suit.SPADES, Suit.CLUBS}
    assert not c.stock_ordered
    assert c.cannot_hold == {x for x in c.unseen if x.suit in (Suit.SPADES, Suit.CLUBS)}
    assert Card.parse("9H") in c.allowed


def test_no_freedom_left_in_a_closed_stock() -> None:
    # Void in hearts and trumps, then in spades: the rest of his hand must be diamonds.
    hand = closed("AH TH KH AS TS KS", "9D JD QD KD TD AD", "AH 9D AS JD")
    view = hand.view(1)
    c = Constraints.from_view(view)
    assert c.voids == {Suit.HEARTS, Suit.CLUBS, Suit.SPADES}
    assert c.allowed == the("QD KD TD AD") == hand.cards(0)
    assert c.count() == 1
    rng = random.Random(3)
    for world in sample_worlds(view, 5, rng):
        assert world.cards(0) == hand.cards(0) and world.view(1) == view
    (only,) = enumerate_worlds(view)
    assert only.cards(0) == hand.cards(0)
    assert [w.hand.cards(0) for w in worlds(view, 10, rng)] == [hand.cards(0)]


def test_exhausted_stock_leaves_one_layout() -> None:
    # Sixth trick won by the non-dealer: the dealer takes the turned-up KH (R3.4).
    hand = play(run_hand(), RUN_5 + " QS JD D")
    assert hand.stock_size == 0
    view = hand.view(1)
    c = Constraints.from_view(view)
    assert c.must_hold == {Card.parse("KH")}
    assert c.count() == 1 and c.stock_last is None and not c.stock_ordered
    (only,) = enumerate_worlds(view)
    assert only.key() == hand.key()
    assert sample_worlds(view, 3, random.Random(1))[2].key() == hand.key()
    # A phase-2 follow after the stock ran out is consistent and changes nothing.
    play(hand, "AH JH")
    c = Constraints.from_view(hand.view(1))
    assert c.cannot_hold == frozenset() and c.count() == 1


def test_forced_cards_from_a_marriage_and_an_exchange() -> None:
    # Seat 1 wins the first trick, exchanges the nine of clubs for the JC,
    # then announces the marriage in spades leading the king.
    hand = play(deal("AH 9C KS QS TS 9S", "9D JD QD KD TD AD", "JC", "QH JH"), "AH 9D D X KS+")
    view = hand.view(0)
    c = Constraints.from_view(view)
    assert c.must_hold == the("JC QS")
    assert c.stock_last == Card.parse("9C")
    assert c.free == 3 and c.stock_ordered
    for world in sample_worlds(view, 20, random.Random(2)):
        assert the("JC QS") <= world.cards(1)
        assert world.stock[-1] == Card.parse("9C")
        assert world.view(0) == view


# Errors -----------------------------------------------------------------------------
def test_inconsistent_views_raise() -> None:
    hand = closed("AH TH KH AS TS KS", "9D JD QD 9S JS QS", "AH 9D")
    view = hand.view(1)
    # A card vanishes from the seat's hand: the counts no longer add up.
    with pytest.raises(InconsistentViewError, match="unseen cards do not fill"):
        Constraints.from_view(dataclasses.replace(view, hand=view.hand - the("KS")))
    # A trump marriage shown by a player who later proved void in trumps.
    fake = dataclasses.replace(view, marriages=(Marriage(0, Suit.CLUBS, 40, 0),))
    with pytest.raises(InconsistentViewError, match="rule out"):
        count_layouts(fake)
    # A hand of five all ruled out by three voids.
    full = closed("AH TH KH AS TS KS", "9D JD QD KD TD AD", "AH 9D AS JD")
    trick = full.view(1).tricks[0]
    voided = dataclasses.replace(full.view(1), tricks=(
        trick, dataclasses.replace(trick, lead=Card.parse("AD"), follow=Card.parse("JS"))))
    with pytest.raises(InconsistentViewError, match="allowed by his phase-2 follows"):
        sample_worlds(voided, 1, random.Random(0))


def test_finished_hands_and_bad_arguments_are_refused() -> None:
    hand = play(run_hand(), "AS 9S 66")  # a false declaration ends the hand
    assert hand.is_over()
    with pytest.raises(ValueError, match="over"):
        count_layouts(hand.view(0))
    live = Hand.random(seed=1)
    view = live.view(live.to_act or 0)
    with pytest.raises(ValueError):
        worlds(view, 0)
    with pytest.raises(ValueError):
        sample_worlds(view, -1)
    with pytest.raises(ValueError, match="limit"):
        enumerate_worlds(view)


# Counting, enumeration, the worlds helper -------------------------------------------
def mid_phase_one(seed: int = 0) -> Hand:
    """Seed 0 after four random tricks: four cards left in the stock, and the
    partner of a marriage the opponent showed is known."""
    rng = random.Random(seed)
    hand = Hand.random(seed=seed)
    while hand.stock_size > 4:
        hand.push(choose(hand, rng, (0.0, 0.0)))
    assert hand.state == "lead" and hand.stock_open
    return hand


def test_count_matches_enumeration_with_an_open_stock() -> None:
    hand = mid_phase_one()
    view = hand.view(hand.to_act or 0)
    c = Constraints.from_view(view)
    assert len(c.must_hold) == 1 and c.free == 5 and len(c.allowed) == 8 and c.stock_free == 3
    assert c.count() == math.comb(8, 5) * math.factorial(3) == 336
    found = enumerate_worlds(view)
    assert len(found) == 336 == len({w.key() for w in found})
    assert all(w.view(view.seat) == view for w in found[::17])


def test_worlds_enumerates_few_layouts_and_samples_many() -> None:
    hand = closed("AH TH KH AS TS KS", "9D JD QD 9S JS QS", "AH 9D")
    view = hand.view(1)
    rng = random.Random(5)
    exact = worlds(view, 56, rng)
    assert len(exact) == 56 and all(w.weight == 1.0 for w in exact)
    assert len({w.hand.cards(0) for w in exact}) == 56
    assert len(worlds(view, 20, rng, exact_below=57)) == 56
    sampled = worlds(view, 20, rng, exact_below=56)
    assert len(sampled) == 20 and all(isinstance(w, World) and w.weight == 1.0 for w in sampled)
    assert len(Sampler(55, seed=1).worlds(view)) == 55
    assert len(Sampler(8, exact_below=100, seed=1).worlds(view)) == 56


def test_seeded_sampling_is_reproducible() -> None:
    hand = mid_phase_one()
    view = hand.view(hand.to_act or 0)
    a = [w.key() for w in sample_worlds(view, 30, random.Random(11))]
    b = [w.key() for w in sample_worlds(view, 30, random.Random(11))]
    c = [w.key() for w in sample_worlds(view, 30, random.Random(12))]
    assert a == b != c
    s1, s2 = Sampler(10, seed=4), Sampler(10, seed=4)
    assert [w.hand.key() for w in s1.worlds(view)] == [w.hand.key() for w in s2.worlds(view)]


# Uniformity ---------------------------------------------------------------------------
def test_sampled_worlds_are_uniform_over_a_closed_position() -> None:
    hand = closed("AH TH KH AS TS KS", "9D JD QD 9S JS QS", "AH 9D")
    view = hand.view(1)
    cells = [layout.opponent for layout in Constraints.from_view(view).layouts()]
    assert len(cells) == 56
    drawn = sample_worlds(view, 56 * 120, random.Random(20240601))
    counts = Counter(w.cards(0) for w in drawn)
    # Closed: the stock is held in pack order ahead of its fixed last card.
    assert all(w.stock[:-1] == sorted(w.stock[:-1], key=lambda card: card.index) for w in drawn)
    assert chi_square_p(counts, cells) > ALPHA


def test_layouts_are_uniform_with_an_open_stock() -> None:
    hand = mid_phase_one()
    c = Constraints.from_view(hand.view(hand.to_act or 0))
    cells = list(c.layouts())
    rng = random.Random(77)
    counts = Counter(c.sample(rng) for _ in range(len(cells) * 100))
    assert chi_square_p(counts, cells) > ALPHA
    # The same test rejects a slightly biased sampler: a naive stock shuffle
    # (swap each place with any place) favours some orders of three cards.
    biased: Counter[Hashable] = Counter()
    for _ in range(len(cells) * 100):
        layout = c.sample(rng)
        rest = sorted(layout.stock[:-1], key=lambda card: card.index)
        for i in range(len(rest)):
            j = rng.randrange(len(rest))
            rest[i], rest[j] = rest[j], rest[i]
        biased[Layout(layout.opponent, (*rest, layout.stock[-1]))] += 1
    assert chi_square_p(biased, cells) < ALPHA
