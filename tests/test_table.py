"""The one game loop (sixtysix.game.table, issue 19): the order in which players are told
what happened, one error type for a bot's illegal choice in every front end, a bot's
forfeit, a commit that fails, and a player told the hand afresh.

The oracles are the rule book's facts, not the table: a hand holds 6 cards after the
deal (R2.3), every action is public (R11), and what a player has been told must
replay, on a fresh deal of the same deck, into the same hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from helpers import need_module
from sixtysix import Hand
from sixtysix.errors import BotError, Forfeit, IllegalActionError
from sixtysix.game.actions import Action
from sixtysix.game.player import Event, Hooks
from sixtysix.game.table import Forfeited, Table
from sixtysix.game.views import View
from sixtysix.rules import Rules


class Recorder:
    """A bot with every hook; it plays the first action it is offered and writes down
    everything it is told."""

    def __init__(self, name: str, log: list[tuple[str, ...]]) -> None:
        self.name = name
        self.log = log

    def new_hand(self, view: View) -> None:
        self.log.append((self.name, "new_hand", str(len(view.hand)), str(len(view.history))))

    def observe(self, event: Event) -> None:
        self.log.append((self.name, "observe", str(event.seat), str(event.action)))

    def seen(self, view: View) -> None:
        self.log.append((self.name, "seen", str(len(view.history))))

    def match_over(self, score: tuple[int, int]) -> None:
        self.log.append((self.name, "match_over", str(score)))

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        action = legal[0]
        self.log.append((self.name, "choose", str(action)))
        return action


class Liar:
    """Answers with an action it was not offered (the first legal one it was not given,
    or, when offered everything, a card it does not hold)."""

    name = "liar"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        outside = [a for a in view.legal if a not in legal]
        if outside:
            return outside[0]
        held = set(view.hand)
        return next(Action.parse(str(c)) for c in Hand.random(seed=1).deck if c not in held)


class Failing:
    name = "crashed-engine"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        raise Forfeit("engine 'crashed-engine' forfeits: its program died")


def test_players_are_told_in_one_order() -> None:
    log: list[tuple[str, ...]] = []
    table = Table([Recorder("a", log), Recorder("b", log)])
    hand = Hand.random(seed=11)
    table.start(hand)
    assert log[:2] == [("a", "new_hand", "6", "0"), ("b", "new_hand", "6", "0")]  # R2.3
    events = table.run()
    assert hand.is_over()
    rest = log[2:]
    # After each choice: the choice, then both observe it, then both are shown their view.
    assert len(rest) == 5 * len(hand.actions)
    for n, (seat, action) in enumerate(zip(hand.actors(), hand.actions, strict=True)):
        me = "ab"[seat]
        block = rest[5 * n: 5 * n + 5]
        assert block == [(me, "choose", str(action)),
                         ("a", "observe", str(seat), str(action)), ("b", "observe", str(seat), str(action)),
                         ("a", "seen", str(n + 1)), ("b", "seen", str(n + 1))]
    assert events == [Event(s, a) for s, a in zip(hand.actors(), hand.actions, strict=True)]
    table.match_over((7, 3))
    assert log[-2:] == [("a", "match_over", "(7, 3)"), ("b", "match_over", "(7, 3)")]


def test_an_outside_player_is_never_asked_and_its_actions_are_checked() -> None:
    log: list[tuple[str, ...]] = []
    hand = Hand.random(seed=3, dealer=1)  # seat 0 leads (R3.1)
    table = Table([None, Recorder("b", log)])
    table.start(hand)
    assert table.bot_to_act() is None and table.run() == []
    view = hand.view(0)
    bad = next(Action.parse(str(c)) for c in hand.deck if c not in view.hand)
    with pytest.raises(IllegalActionError) as caught:
        table.play(bad)
    assert set(caught.value.legal) == set(view.legal) and hand.actions == []
    assert [entry[1] for entry in log] == ["new_hand"]  # nobody told of a refused action
    table.play(view.legal[0])
    assert hand.actors() == [0] and table.bot_to_act() is not None


def test_a_choice_outside_the_offer_raises_bot_error_naming_the_offer() -> None:
    hand = Hand.random(seed=5, dealer=1)
    table = Table([Liar(), None])
    table.start(hand)
    offer = hand.view(0).legal[:1]
    with pytest.raises(BotError) as caught:
        table.step(offered=offer)
    assert caught.value.bot == "liar" and caught.value.offered == tuple(offer)
    assert caught.value.chosen in hand.view(0).legal and caught.value.chosen not in offer
    assert hand.actions == []


def test_every_front_end_raises_the_same_error_for_an_illegal_choice() -> None:
    from sixtysix.play import runner, session

    assert runner.BotError is BotError and session.BotError is BotError
    with pytest.raises(BotError):
        runner.play_hand(Hand.random(seed=2), [Liar(), Liar()])
    play = session.PlaySession(Liar(), human_seat=1, seed=4)
    with pytest.raises(BotError):
        play.start()
        while play.view is not None and play.waiting:  # the computer acts within a trick
            play.play(play.view.legal[0])
    assert issubclass(BotError, RuntimeError)  # what the runner raised before
    gym = need_module("sixtysix.envs.gym", "pip install -e '.[rl]'")
    env = gym.SixtySixEnv(Liar(), seat=0)
    with pytest.raises(BotError):
        for seed in range(40):  # the opponent acts within the first hands
            env.reset(seed=seed)
            over = False
            while not over:
                _, _, over, _, _ = env.step(int(env.action_masks().argmax()))


def test_a_failed_program_forfeits_the_hand_and_everyone_is_shown_it() -> None:
    log: list[tuple[str, ...]] = []
    hand = Hand.random(seed=8, dealer=0)  # seat 1 leads
    table = Table([Recorder("a", log), Failing()])
    table.start(hand)
    events = table.run()
    assert events == [Forfeited(1, "engine 'crashed-engine' forfeits: its program died")]
    result = hand.result()
    assert result is not None and result.winner == 0 and result.reason == "forfeit"
    assert log[-1] == ("a", "seen", "0")


def test_a_commit_that_fails_takes_the_action_back_and_tells_nobody() -> None:
    log: list[tuple[str, ...]] = []
    hand = Hand.random(seed=9, dealer=1)
    table = Table([None, Recorder("b", log)])
    table.start(hand)
    before = len(log)

    def refuse(event: Event) -> None:
        raise OSError("the disk is full")

    with pytest.raises(OSError):
        table.play(hand.view(0).legal[0], commit=refuse)
    assert hand.actions == [] and len(log) == before
    stored: list[Event] = []
    table.play(hand.view(0).legal[0], commit=stored.append)
    assert stored == [Event(0, hand.actions[0])] and log[before][1] == "observe"


@pytest.mark.parametrize("seed", range(4))
def test_a_player_told_the_hand_afresh_remembers_exactly_the_hand(seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand.random(rng=rng, rules=Rules.preset("schnapsen") if seed % 2 else Rules())
    table = Table([None, None])
    table.start(hand)
    for _ in range(rng.randrange(1, 9)):
        if hand.is_over():
            break
        table.play(rng.choice(hand.view(hand.to_act or 0).legal))
    log: list[tuple[str, ...]] = []
    table.seat_hooks(1, Hooks.of(Recorder("late", log)))
    table.retell(1)
    assert log[0][1] == "new_hand"
    told = [Action.parse(entry[3]) for entry in log if entry[1] == "observe"]
    again = Hand(hand.deck, hand.dealer, hand.rules)
    for action in told:
        again.push(action)
    assert again.actions == hand.actions and again.view(1) == hand.view(1)


def test_hooks_are_found_by_type_once() -> None:
    heard: list[Event] = []

    class Listener:
        def observe(self, event: Event) -> None:
            heard.append(event)

    hooks = Hooks.of(Listener())
    assert not hooks.has_seen
    hooks.new_hand(Hand.random(seed=1).view(0))  # a hook it lacks does nothing
    hooks.observe(Event(0, Action.parse("AH")))
    assert heard == [Event(0, Action.parse("AH"))]
    queued: list[str] = []

    def queue(hook: object, arg: Event) -> None:  # a lane would run it later; here at once
        queued.append(str(arg.action))
        assert callable(hook)
        hook(arg)

    through = hooks.through(queue)
    through.observe(Event(1, Action.parse("TS")))
    assert queued == ["TS"] and heard[-1] == Event(1, Action.parse("TS"))
    assert not through.has_seen
