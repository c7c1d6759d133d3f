"""PlaySession.undo: the human takes his last action back against the computer."""

from __future__ import annotations

import pytest

from sixtysix.bots import make_bot
from sixtysix.game.actions import Action
from sixtysix.game.player import Event
from sixtysix.game.views import View
from sixtysix.play.session import Acted, PlaySession, UndoError


class Recorder:
    """A bot that plays the first legal action and remembers what it was told."""

    name = "recorder"

    def __init__(self) -> None:
        self.told: list[tuple[str, object]] = []

    def new_hand(self, view: View) -> None:
        self.told = [("new_hand", tuple(sorted(str(c) for c in view.hand)))]

    def observe(self, event: Event) -> None:
        self.told.append(("observe", (event.seat, str(event.action))))

    def choose(self, view: View, legal: tuple[Action, ...] | list[Action]) -> Action:
        return legal[0]


def first_legal(session: PlaySession) -> Action:
    view = session.view
    assert view is not None
    return view.legal[0]


def test_nothing_to_undo_before_the_human_has_acted() -> None:
    session = PlaySession(Recorder(), seed=3)
    session.start()
    assert not session.can_undo
    with pytest.raises(UndoError):
        session.undo()


def test_undo_takes_back_the_human_action_and_the_computers_answer() -> None:
    bot = Recorder()
    session = PlaySession(bot, seed=3)
    session.start()
    start = session.view
    told = list(bot.told)
    events = session.play(first_legal(session))
    seats = [e.seat for e in events if isinstance(e, Acted)]
    # Seed 3: the computer led, the human answers; the computer wins, closes and leads.
    assert seats == [session.human_seat] + [session.bot_seat] * 2
    assert session.can_undo
    view = session.undo()
    assert view == start == session.view
    assert session.waiting and session.undos == 1
    # The computer was told the hand afresh: what it knows matches the hand again.
    assert bot.told == told
    assert not session.can_undo


def test_undo_after_several_moves_goes_back_one_of_the_humans_actions() -> None:
    session = PlaySession(make_bot("medium", seed=1), seed=9)
    session.start()
    views = []
    for _ in range(3):
        views.append(session.view)
        session.play(first_legal(session))
    assert session.hand_number == 1 and session.waiting  # seed 9: the first hand goes on
    assert session.undo() == views[-1]
    assert session.undo() == views[-2]
    assert session.undos == 2
    # The game goes on normally after an undo.
    session.play(first_legal(session))
    assert session.view != views[-2]


def test_undo_never_crosses_into_the_previous_hand() -> None:
    session = PlaySession(Recorder(), seed=3)
    session.start()
    while session.hand_number == 1:
        session.play(first_legal(session))
    # A new hand: the human has not acted in it yet, whoever leads.
    assert not session.can_undo
    with pytest.raises(UndoError):
        session.undo()
