"""The heuristic bot: honest declarations, legal play under every preset, the
rules of thumb it promises (exchange, marriages, closing, taking aces), and its
strength against the random bot."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtysix import CARDS, Action, ActionKind, Card, Hand, Rules
from sixtysix.bots import BOTS, BaseBot, RandomBot, make_bot
from sixtysix.bots.heuristic import HeuristicBot, counted_total, sure_winners
from sixtysix.game.cards import mask_of
from sixtysix.game.player import Bot
from sixtysix.play.runner import play_hand, play_match

RULE_SETS = [
    "classic",
    "pagat",
    "santase",
    "classic,enforce_follow=false",
    "santase,enforce_follow=false",
    "classic,close_before_draw=false",
    "classic,marriages_in_phase2=true",
    "schnapsen",
    "schnapsen,auto_declare=true",
    "course",
    "schnapsen,marriage_counts=next_trick",
]


def deck(non_dealer: str, dealer: str, trump: str) -> str:
    """A deck dealing these six cards to each player (R2.4); the rest of the
    pack forms the stock in pack order."""
    nd = [Card.parse(t) for t in non_dealer.split()]
    de = [Card.parse(t) for t in dealer.split()]
    turned = Card.parse(trump)
    named = [*nd, *de, turned]
    assert len(nd) == len(de) == 6 and len(set(named)) == 13
    rest = [c for c in CARDS if c not in named]
    return " ".join(str(c) for c in [*nd[:3], *de[:3], *nd[3:], *de[3:], turned, *rest])


def push(hand: Hand, tokens: str) -> Hand:
    for token in tokens.split():
        hand.push(Action.parse(token))
    return hand


def choice(hand: Hand, bot: Bot | None = None) -> str:
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat)
    return str((bot or HeuristicBot(seed=0)).choose(view, view.legal))


# Declarations (R8) ---------------------------------------------------------------------

def _check_hand(seed: int, rules: Rules, opponent: str) -> Hand:
    """Play one hand, checking every heuristic decision; returns the finished hand."""
    hand = Hand.random(seed=seed, dealer=seed % 2, rules=rules)
    heuristic = HeuristicBot(seed=seed)
    other: BaseBot = HeuristicBot(seed=seed + 1) if opponent == "heuristic" else RandomBot(seed=seed)
    bots: list[BaseBot] = [heuristic, other] if seed % 4 < 2 else [other, heuristic]
    for bot, first in zip(bots, (hand.view(0), hand.view(1)), strict=True):
        bot.new_hand(first)
    while not hand.is_over():
        seat = hand.to_act
        assert seat is not None
        view = hand.view(seat)
        action = bots[seat].choose(view, view.legal)
        assert hand.is_legal(action), (seed, str(rules), str(action))
        if bots[seat] is heuristic:
            can_declare = any(a.is_declaration and counted_total(view, a) >= 66 for a in view.legal)
            # R8.1: declare exactly when the counted total reaches 66 ...
            assert action.is_declaration == can_declare, (seed, str(rules), str(action))
            # ... so never falsely (R8.3).
            if action.is_declaration:
                assert counted_total(view, action) >= 66
            # R4: the nine is always exchanged when the rules allow.
            if not can_declare and any(a.kind is ActionKind.EXCHANGE for a in view.legal):
                assert action.kind is ActionKind.EXCHANGE
            # R5: in phase 1 a marriage is announced as soon as one can be.
            if (view.stock_open and not can_declare
                    and any(a.kind is ActionKind.MARRIAGE for a in view.legal)
                    and action.kind not in (ActionKind.EXCHANGE, ActionKind.CLOSE)):
                assert action.kind is ActionKind.MARRIAGE
        hand.push(action)
    return hand


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), rules=st.sampled_from(RULE_SETS),
       opponent=st.sampled_from(["random", "heuristic"]))
def test_declares_exactly_at_66_and_plays_legally(seed: int, rules: str, opponent: str) -> None:
    _check_hand(seed, Rules.parse(rules), opponent)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_many_hands_every_rule_set(rules: str) -> None:
    parsed = Rules.parse(rules)
    for seed in range(120):
        hand = _check_hand(seed, parsed, "random" if seed % 3 else "heuristic")
        result = hand.result()
        assert result is not None
        if not parsed.enforce_follow and result.reason == "revoke":
            # R10.2: only the random bot ever revokes; the heuristic follows R7.2 regardless.
            heuristic_seat = 0 if seed % 4 < 2 else 1
            assert result.winner == heuristic_seat


def test_declares_66_with_a_marriage_only_when_it_reaches_66() -> None:
    # R5.5: a player who has won a trick may show a marriage and declare.
    hand = Hand.random(seed=11)
    view = hand.view(hand.to_act or 0)
    trump = view.trump.letter
    show = Action.parse(f"66+{trump}")
    seat = view.seat
    legal = (*view.legal, show)
    bot = HeuristicBot(seed=1)
    for total, declares in ((26, True), (25, False)):
        scores = (total, 0) if seat == 0 else (0, total)
        fake = dataclasses.replace(view, scores=scores, legal=legal)
        action = bot.choose(fake, legal)
        assert (action is show) == declares
        assert not action.is_declaration or counted_total(fake, action) >= 66


def test_plain_declaration_preferred_at_66() -> None:
    hand = Hand.random(seed=4)
    view = hand.view(hand.to_act or 0)
    legal = (*view.legal, Action.parse("66"))
    scores = (66, 0) if view.seat == 0 else (0, 66)
    fake = dataclasses.replace(view, scores=scores, legal=legal)
    assert str(HeuristicBot(seed=0).choose(fake, legal)) == "66"


# Rules of thumb --------------------------------------------------------------------------

def test_exchanges_the_trump_nine() -> None:
    # Seat 1 (non-dealer) holds the nine of clubs; the ace of clubs is turned up.
    hand = Hand.deal(deck("9C AH 9D JD 9S JS", "9H TH KD QS JH KS", "AC"), dealer=0)
    push(hand, "AH 9H")  # seat 1 wins the first trick (R4.1 needs a trick won)
    assert hand.state == "draw"
    assert choice(hand) == "D"
    push(hand, "D")
    assert "X" in [str(a) for a in hand.legal_actions()]
    assert choice(hand) == "X"


def test_announces_a_marriage_on_the_first_lead() -> None:
    # R5.2: the non-dealer may announce on his very first lead.
    hand = Hand.deal(deck("KH QH 9D JD 9S JS", "9H TH KD QS JH KS", "9C"), dealer=0)
    assert choice(hand) in ("KH+", "QH+")


def test_announces_the_trump_marriage_first() -> None:
    hand = Hand.deal(deck("KH QH KC QC 9S JS", "9H TH KD QS JH KS", "9C"), dealer=0)
    assert choice(hand) in ("KC+", "QC+")


def test_takes_an_ace_lead_with_a_low_trump() -> None:
    # Seat 1 leads the ace of spades; seat 0 has no spade and a low trump.
    hand = Hand.deal(deck("AS 9D JD TS 9S QD", "JC 9H JH AD KH QS", "9C"), dealer=0)
    push(hand, "AS")
    assert choice(hand) == "JC"


def test_takes_a_ten_lead_with_the_ace() -> None:
    hand = Hand.deal(deck("TS 9D JD KD 9S QD", "AS 9H JH AD JC QH", "9C"), dealer=0)
    push(hand, "TS")
    assert choice(hand) == "AS"


def test_does_not_trump_a_low_lead() -> None:
    hand = Hand.deal(deck("9S 9D JD TS KD QD", "JC 9H JH AD KH QS", "9C"), dealer=0)
    push(hand, "9S")
    played = Card.parse(choice(hand))
    assert played.suit.letter != "C"  # no trump wasted on a nine (R3.2: nothing forces it)


def test_leads_a_low_card_in_phase_1() -> None:
    hand = Hand.deal(deck("AH TH 9D AS JS KC", "9H JH KD QS QH KS", "9C"), dealer=0)
    assert choice(hand) in ("9D", "JS")


def test_closes_with_enough_sure_winners_and_makes_it() -> None:
    # Top trumps, the trump marriage and two top hearts: 89 points counted (R6).
    cards = deck("AC TC KC QC AH TH", "9H JH KD QS QD KS", "JC")
    hand = Hand.deal(cards, dealer=0)
    assert choice(hand) == "C"
    push(hand, "C")
    assert choice(hand) in ("KC+", "QC+")  # announced in the closing turn (R5.4)
    for seed in range(20):
        game = Hand.deal(cards, dealer=0)
        play_hand(game, [RandomBot(seed=seed), HeuristicBot(seed=seed)])
        result = game.result()
        assert result is not None
        assert result.reason == "closed_succeeded" and result.winner == 1


def test_does_not_close_on_a_weak_hand() -> None:
    hand = Hand.deal(deck("9H JH 9D JD 9S JS", "AC TC KD QS QD KS", "KC"), dealer=0)
    assert choice(hand) != "C"


def test_sure_winners_draw_trumps_first() -> None:
    mine = mask_of(Card.parse(t) for t in ["AC", "TC", "AH"])
    pool = mask_of(Card.parse(t) for t in ["9C", "KH", "9H"])
    order = [str(CARDS[i]) for i in sure_winners(mine, pool, 0, 3)]
    assert order == ["AC", "TC", "AH"]
    # With two trumps the opponent might still hold a third: the ace of hearts is not sure.
    pool2 = pool | Card.parse("JC").mask | Card.parse("QC").mask
    assert [str(CARDS[i]) for i in sure_winners(mine, pool2, 0, 3)] == ["AC", "TC"]


def test_decisions_depend_only_on_the_view() -> None:
    # Swapping a card between the opponent's hand and the stock leaves the bot's
    # view unchanged, so its decision is unchanged too (docs/design.md §6).
    for seed in range(40):
        base = Hand.random(seed=seed, dealer=1)  # seat 0 leads
        cards = list(base.deck)
        cards[3], cards[20] = cards[20], cards[3]  # a dealer's card and a stock card
        other = Hand.deal(cards, dealer=1)
        assert base.view(0).hand == other.view(0).hand
        assert choice(base, HeuristicBot(seed=seed)) == choice(other, HeuristicBot(seed=seed))


def test_seeded_bots_are_reproducible() -> None:
    def score(seed: int) -> tuple[int, int]:
        match = play_match([HeuristicBot(seed=seed), HeuristicBot(seed=seed + 1)], seed=seed)
        return match.score

    assert [score(s) for s in range(5)] == [score(s) for s in range(5)]


def test_registered_as_heuristic_and_medium() -> None:
    assert BOTS["heuristic"] is HeuristicBot and BOTS["medium"] is HeuristicBot
    assert isinstance(make_bot("medium", seed=2), HeuristicBot)
    assert isinstance(make_bot("heuristic:solve_cards=0"), HeuristicBot)


# Strength ------------------------------------------------------------------------------

def _wins_against_random(rules: Rules, seeds: range) -> tuple[int, int]:
    """Each seed is played twice with the seats swapped, so the cut for the first
    deal (R2.1) favours neither bot."""
    wins = games = 0
    for seed in seeds:
        for seat in (0, 1):
            bots: list[Bot] = [RandomBot(seed=seed + 7), HeuristicBot(seed=seed)]
            if seat == 0:
                bots.reverse()
            match = play_match(bots, seed=seed, rules=rules)
            wins += match.winner == seat
            games += 1
    return wins, games


def test_beats_random_classic() -> None:
    # Measured: 999 of 1,000 matches (seeds 0-499, both seatings). Even if the true
    # rate were only 97%, 180 or fewer wins in 200 would have probability < 1e-6;
    # at 99%, < 1e-14. The seeds are fixed, so the test is deterministic anyway.
    wins, games = _wins_against_random(Rules.preset("classic"), range(100))
    assert games == 200
    assert wins >= 180


@pytest.mark.parametrize("preset", ["pagat", "santase", "schnapsen"])
def test_beats_random_other_presets(preset: str) -> None:
    # Measured 1,000 of 1,000 for both presets; see the margin above.
    wins, games = _wins_against_random(Rules.preset(preset), range(40))
    assert wins >= 0.9 * games


@pytest.mark.parametrize("preset", ["classic", "santase", "schnapsen", "course"])
def test_the_endgame_play_is_optimal(preset: str) -> None:
    """With the stock exhausted (R7; S6.3 for Schnapsen: the last trick wins; the course
    platform's pending marriages and King leads) the heuristic player sees both hands
    and plays a card the solver rates best. The oracle is plain minimax over the hand's
    own push and pop (no transposition table, no pruning), not the kernel's solver."""
    rules = Rules.preset(preset)
    rng = random.Random(17)
    checked = 0
    while checked < 60:
        hand = Hand.random(seed=rng.randrange(10**9), rules=rules)
        while not hand.is_over() and (hand.stock_size or len(hand.cards(0)) > 4 or hand.state != "lead"):
            legal = [a for a in hand.legal_actions()
                     if not a.is_declaration and a.kind is not ActionKind.CLOSE]
            hand.push(rng.choice(legal or hand.legal_actions()))
        if hand.is_over() or hand.view(0).closed_by is not None:
            continue
        if rng.random() < 0.5:  # follow, too
            hand.push(rng.choice([a for a in hand.legal_actions() if not a.is_declaration]))
            if hand.is_over():
                continue
        seat = hand.to_act
        assert seat is not None
        view = hand.view(seat)
        choice = HeuristicBot(seed=1).choose(view, view.legal)
        values = {a: _minimax(hand, a, seat) for a in view.legal}
        assert values[choice] == max(values.values()), (hand.describe(), choice, values)
        checked += 1


def _minimax(hand: Hand, action: Action, seat: int) -> int:
    """Game points for ``seat`` after ``action`` with perfect play: plain minimax."""
    hand.push(action)
    try:
        if hand.is_over():
            result = hand.result()
            assert result is not None
            if result.winner is None:
                return 0
            return result.game_points if result.winner == seat else -result.game_points
        values = [_minimax(hand, a, seat) for a in hand.legal_actions()]
        return max(values) if hand.to_act == seat else min(values)
    finally:
        hand.pop()
