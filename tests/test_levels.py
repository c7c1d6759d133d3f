"""Named levels: random, easy, medium, hard, expert."""

from __future__ import annotations

import pytest

from sixtysix import Hand, Rules
from sixtysix.bots import BOTS, make_bot
from sixtysix.bots.heuristic import HeuristicBot
from sixtysix.play.runner import play_hand, play_match


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard", "expert"])
def test_every_level_is_registered_and_plays_a_legal_hand(level: str) -> None:
    assert level in BOTS
    spec = level + (":iterations=30" if level in ("hard", "expert") else "")
    for rules in (Rules(), Rules.preset("santase")):
        bots = [make_bot(spec, seed=1), make_bot("random", seed=2)]
        hand = play_hand(Hand.random(seed=5, rules=rules), bots)
        assert hand.is_over()


def test_medium_is_the_heuristic_bot() -> None:
    assert isinstance(make_bot("medium"), HeuristicBot)


def test_easy_blunders_but_never_declares_falsely() -> None:
    # Easy plays differently from the heuristic bot on the same deals, yet every
    # declaration it makes is correct.
    differ = 0
    for seed in range(30):
        easy = play_hand(Hand.random(seed=seed), [make_bot("easy", seed=seed), make_bot("random", seed=1)])
        medium = play_hand(Hand.random(seed=seed),
                           [make_bot("medium", seed=seed), make_bot("random", seed=1)])
        differ += easy.actions != medium.actions
        result = easy.result()
        assert result is not None
        assert not (result.reason == "false_declaration" and result.winner == 1)
    assert differ >= 10


def test_easy_is_weaker_than_medium() -> None:
    wins = 0
    for seed in range(40):
        bots = [make_bot("medium", seed=seed), make_bot("easy", seed=seed)]
        if seed % 2:
            bots.reverse()
        match = play_match(bots, seed=seed)
        wins += match.winner == (0 if seed % 2 == 0 else 1)
    assert wins >= 30  # measured 97% over 300 matches (sixtysix simulate medium easy)


def test_levels_take_options() -> None:
    bot = make_bot("hard:iterations=10", seed=3)
    assert bot.name == "hard"
    with pytest.raises(ValueError):
        make_bot("easy:blunder=2")
