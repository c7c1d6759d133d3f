"""The one game loop: a hand, the players at it, and the order of what they are told.

A :class:`Table` seats two players. A player is a bot (the table asks it to
choose), or ``None``: a person at a screen, an agent stepping an environment, a
network client or a computer asked elsewhere (the server asks its bots in a
worker thread) — their actions come in through :meth:`Table.play`. Either way
the table checks every action, pushes it, and tells every player what it may
learn, in one order (docs/design.md §7):

1. ``new_hand(view)`` to each player when a hand starts (:meth:`Table.start`);
2. for each action: the seat's ``choose(view, offered)`` if it is a bot, the
   action checked (a bot's illegal choice raises :class:`~sixtysix.errors.BotError`,
   anybody else's :class:`~sixtysix.errors.IllegalActionError`), pushed, then
   ``observe(event)`` and ``seen(view)`` to each player;
3. a bot whose program failed raises :class:`~sixtysix.errors.Forfeit`: its seat
   loses the hand (:meth:`~sixtysix.game.hand.Hand.forfeit`), each player is shown its view;
4. ``match_over(score)`` to each player at the end of a match (:meth:`Table.match_over`).

Every player sees only its own view (R11). The runner, the play session of the
terminal and plain games, the Gymnasium environment, the server and the
course-platform bridge all play through it.

>>> from sixtysix.bots import make_bot
>>> from sixtysix.game.hand import Hand
>>> table = Table([make_bot("random", seed=1), make_bot("random", seed=2)])
>>> table.start(Hand.random(seed=5))
>>> events = table.run()
>>> table.hand.is_over(), len(events) == len(table.hand.actions)
(True, True)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sixtysix.errors import BotError, Forfeit, IllegalActionError
from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand
from sixtysix.game.player import Bot, Event, Hooks

__all__ = ["Forfeited", "Table", "TableEvent"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Forfeited:
    """``seat``'s program failed (``why``): it lost the hand by forfeit."""

    seat: int
    why: str


#: What happened at the table: an action (:class:`~sixtysix.game.player.Event`) or a forfeit.
TableEvent = Event | Forfeited


class Table:
    """Two players and the hand they play; see the module's text for the order of calls.

    ``players[s]`` is seat ``s``'s bot, or ``None`` for a player whose actions
    come from outside. ``hooks`` (one per seat) replaces the hooks looked up on
    the players, e.g. to run them in a worker thread (:meth:`Hooks.through`).
    """

    def __init__(self, players: Sequence[Bot | None], *, hooks: Sequence[Hooks] | None = None) -> None:
        if len(players) != 2:
            raise ValueError(f"a table seats two players, not {len(players)}")
        self.players: tuple[Bot | None, Bot | None] = (players[0], players[1])
        self._hooks = [Hooks.of(p) for p in self.players] if hooks is None else list(hooks)
        if len(self._hooks) != 2:
            raise ValueError(f"hooks are given for two seats, not {len(self._hooks)}")
        self._hand: Hand | None = None

    # Queries ----------------------------------------------------------------------------
    @property
    def hand(self) -> Hand:
        """The hand being played (raises :class:`RuntimeError` before :meth:`start`)."""
        if self._hand is None:
            raise RuntimeError("no hand at the table yet: call start()")
        return self._hand

    @property
    def started(self) -> bool:
        return self._hand is not None

    def bot_to_act(self) -> Bot | None:
        """The bot whose turn it is, or ``None`` (the hand is over, or an outside player acts)."""
        hand = self._hand
        if hand is None or hand.is_over():
            return None
        seat = hand.to_act
        return None if seat is None else self.players[seat]

    def hooks(self, seat: int) -> Hooks:
        return self._hooks[seat]

    def seat_hooks(self, seat: int, hooks: Hooks) -> None:
        """Replace seat ``seat``'s hooks (a computer player that joins or leaves a game);
        :meth:`retell` brings a newcomer up to date."""
        self._hooks[seat] = hooks

    # Playing -----------------------------------------------------------------------------
    def start(self, hand: Hand) -> None:
        """Play ``hand`` next: each player is told ``new_hand`` with its view."""
        self._hand = hand
        for seat, hooks in enumerate(self._hooks):
            hooks.new_hand(hand.view(seat))

    def resume(self, hand: Hand) -> None:
        """Play ``hand`` on from where it stands, telling nobody (a game restored from
        storage: a player joining it is told the hand with :meth:`retell`)."""
        self._hand = hand

    def ask(self, offered: Sequence[Action] | None = None) -> Action:
        """The bot to act chooses among ``offered`` (default: every legal action); the
        choice is checked, not pushed. Raises :class:`BotError` for a choice outside
        the offer, and lets :class:`Forfeit` through."""
        hand = self.hand
        seat = hand.to_act
        bot = None if seat is None else self.players[seat]
        if seat is None or bot is None:
            raise RuntimeError("no bot is to act at this table")
        view = hand.view(seat)
        offer = view.legal if offered is None else list(offered)
        action = bot.choose(view, offer)
        self.check(seat, action, offer)
        return action

    def check(self, seat: int, action: object, offered: Sequence[Action] | None = None) -> Action:
        """``action`` if it is one a bot at ``seat`` may take (among ``offered``, default:
        the legal actions); raises :class:`BotError` otherwise. For a bot asked
        elsewhere (the server asks in a worker thread)."""
        hand = self.hand
        offer = hand.view(seat).legal if offered is None else offered
        if not isinstance(action, Action) or hand.to_act != seat or action not in offer \
                or not hand.is_legal(action):
            player = self.players[seat]
            name = getattr(player, "name", f"the computer at seat {seat}")
            shown = str(action) if isinstance(action, Action) else repr(action)
            raise BotError(f"{name} chose {shown}, not one of {' '.join(str(a) for a in offer)}",
                           bot=name, chosen=action, offered=offer)
        return action

    def play(self, action: Action, *, commit: Callable[[Event], None] | None = None) -> Event:
        """The seat to act takes ``action``: pushed (an illegal one raises
        :class:`IllegalActionError`, naming the legal ones, and changes nothing),
        then every player is told.

        ``commit``, if given, is called with the event once the action is pushed and
        before anyone is told (the server stores it so); if it raises, the action
        is taken back and the error goes on: nothing happened.
        """
        hand = self.hand
        seat = hand.to_act
        if seat is None:
            raise IllegalActionError(action, (), "the hand is over")
        hand.push(action)
        event = Event(seat, action)
        if commit is not None:
            try:
                commit(event)
            except BaseException:
                hand.pop()
                raise
        for hooks in self._hooks:
            hooks.observe(event)
        self._show()
        return event

    def forfeit(self, seat: int, why: str = "") -> Forfeited:
        """``seat`` loses the hand by forfeit (its program failed); every player is shown its view."""
        self.hand.forfeit(seat)
        self._show()
        return Forfeited(seat, why)

    def step(self, offered: Sequence[Action] | None = None) -> TableEvent:
        """The bot to act chooses (among ``offered``) and its action is played; a bot
        that raises :class:`Forfeit` loses the hand instead."""
        seat = self.hand.to_act
        assert seat is not None
        try:
            action = self.ask(offered)
        except Forfeit as exc:
            log.warning("%s", exc)
            return self.forfeit(seat, str(exc))
        return self.play(action)

    def run(self) -> list[TableEvent]:
        """Let the bots play until an outside player is to act or the hand is over."""
        events: list[TableEvent] = []
        while self.bot_to_act() is not None:
            events.append(self.step())
        return events

    def retell(self, seat: int | None = None) -> None:
        """Tell the hand afresh from its deal, action by action (to ``seat`` only, or to
        everyone): what a player remembers of the hand is then exactly the hand.
        For a player that joins late, or after actions were taken back."""
        hand = self.hand
        fresh = Hand(hand.deck, hand.dealer, hand.rules)
        fresh.match_score, fresh.match_bonus = hand.match_score, hand.match_bonus
        seats = (0, 1) if seat is None else (seat,)
        for s in seats:
            self._hooks[s].new_hand(fresh.view(s))
        for who, action in zip(hand.actors(), hand.actions, strict=True):
            fresh.push(action)
            for s in seats:
                hooks = self._hooks[s]
                hooks.observe(Event(who, action))
                if hooks.has_seen:
                    hooks.seen(fresh.view(s))

    def match_over(self, score: tuple[int, int]) -> None:
        """Tell every player the match's final score."""
        for hooks in self._hooks:
            hooks.match_over(score)

    def _show(self) -> None:
        hand = self.hand
        for seat, hooks in enumerate(self._hooks):
            if hooks.has_seen:
                hooks.seen(hand.view(seat))
