"""Helpers for driving the terminal game with Textual's pilot, and the checks made at every turn."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any

from textual.content import Content
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Static

from sixtysix.bots.analysis import Budget
from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.result import HandResult
from sixtysix.present.text.screen import ordered_legal, sorted_cards
from sixtysix.tui.app import SixtySixApp
from sixtysix.tui.game import GameScreen, action_button_id
from sixtysix.tui.storage import Settings
from sixtysix.tui.style import MarkupStyle
from sixtysix.tui.widgets import CardRow, MessageLog


def make_app(seed: int = 5, **settings: object) -> SixtySixApp:
    """A seeded app with no animation and a small, reproducible hint budget."""
    options: dict[str, object] = {"speed": "off", "level": "medium"}
    options.update(settings)
    return SixtySixApp(seed=seed, settings=Settings(**options),  # type: ignore[arg-type]
                       hint_budget=Budget(worlds=4), replay_budget=Budget(worlds=4))


async def settle(pilot: Pilot[None]) -> None:
    """Wait until the workers (the computer, hints, analysis) are done and their results shown."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def text(widget: Widget) -> str:
    """What a Static shows, without markup."""
    assert isinstance(widget, Static)
    return Content.from_markup(str(widget.content)).plain


def game(app: SixtySixApp) -> GameScreen:
    screen = app.game
    assert screen is not None
    return screen


def synchronous(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an ``async`` test in its own event loop (no pytest plugin needed)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


def shown_hand(screen: GameScreen) -> list[object]:
    return [place.card for place in screen.query_one("#hand", CardRow).places if place.display]


def log(screen: GameScreen) -> str:
    return "\n".join(screen.query_one(MessageLog).lines())


def visible_buttons(screen: GameScreen) -> set[str]:
    return {b.id or "" for b in screen.query_one("#actions").query_children(Button) if b.display}


async def play_one_hand_step(pilot: Pilot[None], screen: GameScreen) -> None:
    """One action of the human's: draw if he may, else the first legal card (trumps
    first, from the ace down: he wins tricks)."""
    view = screen.session.view
    assert view is not None and screen.my_turn
    if Action.parse("D") in view.legal:
        await pilot.press("d")
    else:
        card = next(a for a in ordered_legal(view) if a.kind is ActionKind.PLAY).card
        await pilot.press(str(shown_hand(screen).index(card) + 1))
    await settle(pilot)


async def play_one_hand(pilot: Pilot[None], screen: GameScreen) -> int:
    """Play the human's side of a hand with keys and clicks in turn; returns the actions taken.

    At every turn the screen must show the human's cards, sorted, with exactly
    the legal cards highlighted and exactly the legal other actions as buttons.
    """
    moves = 0
    while not screen.paused and not screen.match_over:
        assert screen.my_turn
        view = screen.session.view
        assert view is not None
        legal = ordered_legal(view)
        assert shown_hand(screen) == sorted_cards(view.hand, view.trump)
        assert hidden_cards_shown(screen) == set()
        places = [p for p in screen.query_one("#hand", CardRow).places if p.display]
        highlighted = {p.card for p in places if p.has_class("legal")}
        assert highlighted == {a.card for a in legal if a.kind is ActionKind.PLAY}
        others = {b for b in visible_buttons(screen) if b not in ("hint", "undo")}
        assert others == {action_button_id(a) for a in legal if a.kind is not ActionKind.PLAY}
        cards = [a for a in legal if a.kind is ActionKind.PLAY]
        if Action.parse("D") in legal:
            if moves % 2:
                await pilot.press("d")
            else:
                await pilot.click("#draw")
        else:
            card = cards[-1].card
            index = shown_hand(screen).index(card)
            if moves % 2:
                await pilot.press(str(index + 1))
            else:
                await pilot.click(places[index])
        await settle(pilot)
        moves += 1
    assert hidden_cards_shown(screen) == set()
    return moves


def hidden_cards_shown(screen: GameScreen) -> set[str]:
    """Cards the human may not know (R11.2: the computer's hand, the stock) that appear
    anywhere in the screen's text."""
    # The test looks behind the screen (the screen may not): the hand on the screen,
    # which at a hand's end is not the latest one, the session having dealt the next.
    hand = screen.session._match.hands[screen.info.hand_number - 1]
    view = hand.view(screen.session.human_seat)
    hidden = set(hand.cards(screen.session.bot_seat)) - view.known_opponent_cards()
    hidden |= view.unseen()
    if view.trump_card is not None:
        hidden.discard(view.trump_card)
    style = MarkupStyle()
    tokens = {style.card_token(card) for card in hidden}
    # The cut for the deal shows two cards before the pack is shuffled (R2.1): public, not hidden.
    shown = "\n".join(line for line in (text(w) for w in screen.query(Static))
                      if not line.startswith("Cut for the deal"))
    return {token for token in tokens if token in shown}




def result(winner: int | None, points: tuple[int, int], tricks: tuple[int, int], gp: int,
           reason: str = "declared") -> HandResult:
    """A hand's result made up for the statistics."""
    return HandResult(winner, gp, reason, points, tricks, ((), ()), None)
