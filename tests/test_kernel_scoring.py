"""How the rules kernel scored a hand (State.scoring): which rule gave the game points,
and the loser's total and tricks it was measured on. At the end of random hands under
every preset and random option sets, in each kernel, the rule is the one the rule book
names for the way the hand ended (R9.1, S5.3, R6.4, R8.3, S6.3, R10.2), judged here from
the totals and tricks seen as the hand was played (at the close too) and the rules'
options, and its game points are the hand's."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

from helpers import kernel_modules
from kernel_diff import pick, random_deck, random_rules
from sixtysix.kernel.tables import CLOSE, SCORING_POINTS, Scoring, config
from sixtysix.rules import PRESETS, CloseScoring, FailedClose, FalseDeclaration, PlayedOut, Rules

HANDS = 300
OVER = 3
REASONS = ("declared", "false_declaration", "closed_failed", "closed_succeeded", "played_out", "tie",
           "revoke", "forfeit")


def _r91(tricks: int, total: int, at_close: bool) -> Scoring:
    """R9.1: no trick 3, under 33 2, else 1 (S5.3: as things stood at the close)."""
    if at_close:
        return (Scoring.CLOSED_NO_TRICK if not tricks else
                Scoring.CLOSED_UNDER_33 if total < 33 else Scoring.CLOSED_THIRTY_THREE)
    return Scoring.NO_TRICK if not tricks else Scoring.UNDER_33 if total < 33 else Scoring.THIRTY_THREE


def _expected(rules: Rules, s: Any, at_close: tuple[int, int] | None, points_before: int,
              forfeited: bool) -> tuple[Scoring, int, int]:
    """The rule book's scoring of the finished state ``s``: ``at_close`` the closer's
    opponent's (total, tricks) when he closed, ``points_before`` the loser's card points
    before the last trick (a revoke's offender)."""
    reason = "forfeit" if forfeited else REASONS[s.reason]
    if s.winner < 0:
        return Scoring.NONE, 0, 0
    loser = 1 - s.winner
    end = (s.score(loser), s.tricks_won(loser))
    if reason == "forfeit":
        return Scoring.FORFEIT, *end
    if reason == "revoke":  # R10.2: 3 if the offender had no card points before the trick
        return (Scoring.REVOKE_NO_POINTS if points_before == 0 else Scoring.REVOKE), *end
    if reason == "false_declaration":  # R8.3: the declarer's opponent is the winner
        three = rules.false_declaration is FalseDeclaration.TWO_OR_THREE and not s.tricks_won(s.winner)
        return (Scoring.NO_TRICK_FALSE if three else Scoring.FALSE_DECLARATION), *end
    if reason == "closed_failed":  # R6.4: the closer's opponent's tricks at the close
        assert at_close is not None
        if rules.failed_close is FailedClose.THREE:
            return Scoring.FAILED_CLOSE, *end
        return (Scoring.NO_TRICK_AT_CLOSE if not at_close[1] else Scoring.TRICK_AT_CLOSE), *end
    if reason == "closed_succeeded" and rules.close_scoring is CloseScoring.AT_CLOSE:
        assert at_close is not None
        return _r91(at_close[1], at_close[0], True), *at_close
    if reason == "played_out" and rules.played_out is PlayedOut.LAST_TRICK and s.score(s.winner) < 66:
        return Scoring.LAST_TRICK, *end  # S6.3
    return _r91(end[1], end[0], False), *end


def _rule_sets() -> list[tuple[str, Rules]]:
    rng = random.Random(9)
    return [*PRESETS.items(), *((f"random {i}", random_rules(rng)) for i in range(10))]


def _walk(kernel: ModuleType, name: str, rules: Rules) -> set[Scoring]:
    """Play random hands to the end and check each one's scoring; the scorings met."""
    rng = random.Random(name)
    seen: set[Scoring] = set()
    for _ in range(HANDS):
        s = kernel.State.deal(random_deck(rules, rng), rng.randrange(2), config(rules))
        at_close: tuple[int, int] | None = None
        points_before = [0, 0]
        forfeited = False
        while s.phase != OVER:
            assert s.scoring() == (Scoring.NONE, 0, 0)
            if rng.random() < 0.003:
                s.forfeit(s.to_act)
                forfeited = True
                break
            code = pick(s.legal_mask(), rng)
            if code == CLOSE:
                opponent = 1 - s.to_act
                at_close = (s.score(opponent), s.tricks_won(opponent))
            points_before = [s.card_points(0), s.card_points(1)]
            s.push(code)
        loser = 1 - s.winner
        scoring, total, tricks = s.scoring()
        expected = _expected(rules, s, at_close, points_before[loser] if s.winner >= 0 else 0, forfeited)
        assert (scoring, total, tricks) == expected, (name, REASONS[s.reason], s.history())
        assert SCORING_POINTS[scoring] == s.game_points
        seen.add(Scoring(scoring))
    return seen


@pytest.mark.parametrize("kernel", kernel_modules(), ids=lambda k: k.NAME)
@pytest.mark.parametrize(("name", "rules"), _rule_sets(), ids=[n for n, _ in _rule_sets()])
def test_the_kernel_scores_by_the_rule_the_rule_book_names(kernel: ModuleType, name: str,
                                                           rules: Rules) -> None:
    assert len(_walk(kernel, name, rules)) >= 4


def test_the_rule_sets_reach_every_rule_of_scoring() -> None:
    met: set[Scoring] = set()
    for name, rules in _rule_sets():
        met |= _walk(kernel_modules()[-1], name, rules)
    assert set(Scoring) == met, set(Scoring) - met
