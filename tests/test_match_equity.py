"""Playing for the match: the match score in the views, the equity table, and the
search's rewards in match equity (sixtysix.bots.equity)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from sixtysix import Action, Hand, Rules
from sixtysix.bots import make_bot
from sixtysix.bots.equity import MAX_TARGET, OUTCOMES, TIE, hand_utility, match_equity
from sixtysix.bots.ismcts import ISMCTSBot
from sixtysix.game.match import Match
from sixtysix.game.views import View, view_from_json
from sixtysix.play.runner import play_hand

SCORES = list(itertools.product(range(7), repeat=2))


# The match score in the views ------------------------------------------------------------

class Recorder:
    """A random player that keeps every view it is shown at the start of a hand."""

    def __init__(self, seed: int) -> None:
        self.bot = make_bot("random", seed=seed)
        self.views: list[View] = []

    def new_hand(self, view: View) -> None:
        self.views.append(view)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        assert view.match_score == self.views[-1].match_score
        return self.bot.choose(view, legal)


@pytest.mark.parametrize("preset", ["classic", "santase"])
def test_each_hand_of_a_match_shows_the_score_and_the_tie_bonus_before_it(preset: str) -> None:
    rules = Rules.preset(preset)
    for seed in range(40):
        match = Match(rules, seed=seed)
        players = [Recorder(2 * seed), Recorder(2 * seed + 1)]
        before = []
        while not match.is_over():
            before.append((match.score, match.pending_bonus))
            play_hand(match.deal(), players)
        for player in players:
            assert [(v.match_score, v.match_bonus) for v in player.views] == before


def _tied_hand() -> Hand:
    """The first random deal that random play ties (65-65 and the like, R9.2)."""
    for seed in itertools.count():
        hand = Hand.random(seed=seed)
        rng = random.Random(seed)
        while not hand.is_over():
            hand.push(rng.choice(hand.legal_actions()))
        result = hand.result()
        if result is not None and result.winner is None:
            return hand
    raise AssertionError("unreachable")


def test_a_tie_leaves_its_bonus_in_the_next_hands_view() -> None:
    tied = _tied_hand()
    match = Match(Rules(), seed=3, first_dealer=tied.dealer)  # tie_bonus 1 (R9.2)
    hand = match.deal(tied.deck)
    for action in tied.actions:
        hand.push(action)
    following = match.deal()
    for seat in (0, 1):
        assert following.view(seat).match_bonus == 1
        assert following.view(seat).match_score == (0, 0)


def test_a_hand_outside_a_match_has_no_score() -> None:
    view = Hand.random(seed=4).view(0)
    assert view.match_score is None and view.match_bonus == 0


def test_the_match_score_goes_through_json_and_into_sampled_worlds() -> None:
    match = Match(Rules(), seed=9)
    for _ in range(3):
        hand = match.deal()
        play_hand(hand, [make_bot("random", seed=1), make_bot("random", seed=2)])
    hand = match.deal()
    view = hand.view(hand.to_act)
    assert view.match_score == match.score
    assert view_from_json(view.to_json()) == view
    older = view.to_json()
    del older["match_score"], older["match_bonus"]  # a view from before these fields
    assert view_from_json(older).match_score is None
    world = Hand.from_view(view, hand.cards(1 - view.seat), hand.stock)
    assert world.view(view.seat) == view


# The equity table -------------------------------------------------------------------------

def test_the_equity_is_one_at_the_target_and_symmetric() -> None:
    for a, b in SCORES:
        for bonus in (0, 1, 2):
            e = match_equity(a, b, bonus, target=7)
            assert 0 < e < 1
            assert e + match_equity(b, a, bonus, target=7) == pytest.approx(1)
    assert match_equity(7, 0, target=7) == 1 and match_equity(0, 7, target=7) == 0
    assert match_equity(6, 6, target=7) == pytest.approx(0.5)


def test_more_points_are_never_worse() -> None:
    for a, b in SCORES:
        if a < 6:
            assert match_equity(a + 1, b, target=7) > match_equity(a, b, target=7)
        if b < 6:
            assert match_equity(a, b + 1, target=7) < match_equity(a, b, target=7)


def test_the_table_agrees_with_matches_simulated_from_its_own_model() -> None:
    """The dynamic programme against a simulation of the same hand outcomes."""
    rng = random.Random(7)
    points = [g for g, _ in OUTCOMES]
    weights = [p for _, p in OUTCOMES]
    for a, b in [(0, 0), (6, 4), (3, 5), (5, 1)]:
        wins = 0
        n = 20000
        for _ in range(n):
            me, opp, bonus = a, b, 0
            while me < 7 and opp < 7:
                if rng.random() < TIE:
                    bonus += 1
                    continue
                g = rng.choices(points, weights)[0] + bonus
                bonus = 0
                if rng.random() < 0.5:
                    me += g
                else:
                    opp += g
            wins += me >= 7
        # 4 standard errors at most
        assert wins / n == pytest.approx(match_equity(a, b, target=7), abs=4 * 0.5 / n ** 0.5)


def test_the_utility_of_a_hand_is_monotone_zero_sum_and_scaled() -> None:
    for a, b in SCORES:
        for bonus in (0, 1):
            u = hand_utility((a, b), bonus, seat=0, target=7)
            v = hand_utility((a, b), bonus, seat=1, target=7)
            assert len(u) == 7 and u[2] <= u[3] <= u[4]  # a tie: between losing and winning 1
            assert all(x <= y for x, y in itertools.pairwise(u[4:]))
            assert all(x <= y for x, y in itertools.pairwise(u[:3]))
            assert max(abs(x) for x in u) == pytest.approx(1)
            # zero-sum: seat 1's value of seat 0 winning g is minus seat 0's
            for g in (1, 2, 3):
                assert v[3 - g] * max(abs(x) for x in v) == pytest.approx(
                    -u[3 + g] * max(abs(x) for x in u))


def test_at_six_all_every_won_hand_wins_the_match() -> None:
    assert hand_utility((6, 6), 0, seat=1, target=7) == (-1, -1, -1, 0, 1, 1, 1)
    # One point short: a win by 1 is far from a win by 2.
    u = hand_utility((5, 5), 0, seat=0, target=7)
    assert u[3 + 2] == u[3 + 3] == 1 and u[3 + 1] < 0.5


def test_very_long_matches_are_played_for_game_points() -> None:
    u = hand_utility((0, 0), 0, seat=0, target=MAX_TARGET + 1)
    assert u == tuple(g / 3 for g in range(-3, 4))


# The search -------------------------------------------------------------------------------

def _view_at(score: tuple[int, int], seed: int = 5) -> View:
    rules = Rules()
    hand = Hand.random(seed=seed, rules=rules)
    hand.match_score = score
    return hand.view(hand.to_act)


def test_the_search_rewards_match_equity_when_the_view_has_the_score() -> None:
    """At 6-6 every result is a whole match won, lost (reward ±1) or a tie (0): the
    root's summed rewards are integers. Without the match, game points / 3 are not."""
    view = _view_at((6, 6))
    stats = ISMCTSBot(seed=3, iterations=400).root_stats(view)
    assert stats and all(total == round(total) for _, total, _ in stats.values())
    plain = ISMCTSBot(seed=3, iterations=400, match=False).root_stats(view)
    assert any(total != round(total) for _, total, _ in plain.values())
    # A hand outside a match is searched for game points, as before.
    free = _view_at((0, 0))
    object.__setattr__(free, "match_score", None)
    outside = ISMCTSBot(seed=3, iterations=400).root_stats(free)
    assert outside == ISMCTSBot(seed=3, iterations=400, match=False).root_stats(free)


def test_the_match_option_is_seedable_and_parsed() -> None:
    view = _view_at((5, 6))
    a = make_bot("ismcts:iterations=300,match=true", seed=4).choose(view, view.legal)
    b = make_bot("ismcts:iterations=300", seed=4).choose(view, view.legal)
    assert a == b
    assert make_bot("ismcts:match=false").config.match is False  # type: ignore[attr-defined]
