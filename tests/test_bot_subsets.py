"""Every bot chooses among exactly the actions it is given (issue 19): a front end may
offer a subset of the legal actions (a lesson that allows only some, a user interface
that hides one), and a bot must answer with one of those, never raise and never pick
an action it was not offered."""

from __future__ import annotations

import random

import pytest

from sixtysix import Hand
from sixtysix.bots import BOTS, make_bot

#: Quick specs of every bot the registry knows (the engine needs a program: left out);
#: the search bots with a few iterations, so that the test stays short.
SPECS = {
    "ismcts-exact": "ismcts:iterations=40",  # solves every layout late (see below)
    "random": "random", "heuristic": "heuristic", "medium": "medium", "easy": "easy",
    "pimc": "pimc:worlds=4", "ismcts": "ismcts:iterations=40",
    "santase-ismcts": "santase-ismcts:iterations=40",
    "hard": "hard:time=0.01,workers=1", "expert": "expert:time=0.01,workers=1",
    "hard-2026-12": "hard-2026-12:time=0.01,workers=1",
    "expert-2026-12": "expert-2026-12:time=0.01,workers=1",
}


def test_the_specs_cover_every_bot() -> None:
    # An engine needs a program, the net player weights: tests/test_protocol.py and
    # tests/test_net.py give them subsets.
    assert set(SPECS) >= set(BOTS) - {"engine", "net"}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_bot_answers_from_the_subset_it_is_given(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if name == "ismcts-exact":  # a closed stock solved layout by layout however many there are
        monkeypatch.setattr("sixtysix.bots.ismcts.PIMC_BELOW", 100_000)
    rng = random.Random(f"subset-{name}")
    bot = make_bot(SPECS[name], seed=1)
    asked = 0
    for _ in range(6):
        hand = Hand.random(rng=rng)
        if hasattr(bot, "new_hand"):
            bot.new_hand(hand.view(0))
        while not hand.is_over():
            seat = hand.to_act
            assert seat is not None
            legal = hand.legal_actions()
            if seat == 0 and len(legal) > 1:
                offered = rng.sample(legal, rng.randint(1, len(legal) - 1))
                choice = bot.choose(hand.view(0), offered)
                assert choice in offered, (name, [str(a) for a in offered], str(choice))
                asked += 1
                action = choice
            else:
                action = rng.choice(legal)
            hand.push(action)
            if hasattr(bot, "observe"):
                from sixtysix.game.player import Event

                bot.observe(Event(seat, action))
    assert asked >= 10
