"""An external engine as one of our bots: ``make_bot('engine:python mybot.py')``.

:class:`EngineBot` implements the bot interface (``new_hand``, ``observe``,
``choose``, ``close``) by talking to a program over the protocol, so the
arena, ``sixtysix play`` and anything else that takes a bot can use it.
It tells the engine only what its seat's view holds (R11).

An engine that crashes, does not answer within its time budget plus the
grace margin, or answers with an action that is malformed or not legal makes
:meth:`EngineBot.choose` raise :class:`~sixtysix.errors.Forfeit`: the seat loses
the hand and the match goes on; an engine that died is started again for the
next hand.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import shlex
import weakref
from collections.abc import Sequence
from typing import Any

from sixtysix.errors import Forfeit
from sixtysix.game.actions import Action
from sixtysix.game.cards import Card
from sixtysix.game.player import BaseBot, Event
from sixtysix.game.views import View
from sixtysix.protocol.client import (
    SEND_TIMEOUT,
    TURN_BYTES,
    TURN_LINES,
    Engine,
    EngineBlocked,
    EngineError,
    EngineFlooded,
    EngineStartError,
    EngineTimeout,
    IllegalReply,
)
from sixtysix.protocol.messages import (
    Drew,
    Error,
    EventMessage,
    MatchResult,
    Message,
    NewHand,
    NewMatch,
    Result,
    SetOption,
    ViewMessage,
)

__all__ = ["EngineBot", "split_command"]

log = logging.getLogger("sixtysix.protocol")

#: Seconds an engine is given beyond its time budget before it forfeits.
GRACE = 1.0
#: Seconds an engine without a time budget may think before it forfeits.
LIMIT = 60.0


def split_command(command: str) -> list[str]:
    """The program and arguments of an engine command line (shell quoting rules).

    >>> split_command('"python mybot.py"')
    ['python', 'mybot.py']
    >>> split_command("node 'my bot.js' --fast")
    ['node', 'my bot.js', '--fast']
    """
    text = command.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" and text[0] not in text[1:-1]:
        text = text[1:-1]  # the whole command quoted once more
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"bad engine command {command!r}: {exc}") from None
    if not words:
        raise ValueError("an engine spec needs a command: engine:\"python mybot.py\"")
    return words


def _close(engine: Engine) -> None:
    with contextlib.suppress(EngineError):
        engine.close()


#: Idle engine programs of this process, kept by command and options for the next
#: game: an arena worker plays many games, and starting a program for each can
#: cost more than the games. The protocol lets one program play match after match.
_IDLE: dict[tuple[Any, ...], list[Engine]] = {}


@atexit.register
def _close_idle() -> None:
    for engines in _IDLE.values():
        while engines:
            _close(engines.pop())


def _why(exc: EngineError) -> str:
    """What went wrong, for the forfeit line."""
    if isinstance(exc, (EngineFlooded, EngineBlocked)):
        return f"it was stopped ({exc})"
    return f"it died ({exc})"


class EngineBot(BaseBot):
    """A bot played by an external program (see docs/protocol.md).

    ``cmd`` is the command line; ``time`` the budget per action in seconds
    sent with each ``go`` (none by default); ``grace`` the extra seconds
    allowed; ``limit`` the seconds allowed when there is no budget;
    ``turn_lines`` and ``turn_bytes`` what it may write in one turn;
    ``send_timeout`` the seconds a line to it may wait to be read. ``seed``
    and any other keyword become ``setoption`` lines when the engine offers
    that option.
    """

    def __init__(self, cmd: str, *, seed: int | None = None, time: float | None = None,
                 grace: float = GRACE, limit: float = LIMIT, turn_lines: int = TURN_LINES,
                 turn_bytes: int = TURN_BYTES, send_timeout: float = SEND_TIMEOUT,
                 **options: Any) -> None:
        self.command = split_command(str(cmd))
        self.label = " ".join(self.command)
        self.name = f"engine:{self.label}"
        if time is not None and time <= 0:
            raise ValueError(f"an engine's time must be positive, not {time}")
        self.time = time
        self.grace = grace
        self.limit = limit
        if int(turn_lines) < 1 or int(turn_bytes) < 1 or float(send_timeout) <= 0:
            raise ValueError("an engine's turn_lines, turn_bytes and send_timeout must be positive")
        self.turn_lines = int(turn_lines)
        self.turn_bytes = int(turn_bytes)
        self.send_timeout = float(send_timeout)
        self.settings: dict[str, str] = {str(k): str(v).lower() if isinstance(v, bool) else str(v)
                                         for k, v in options.items()}
        if seed is not None:
            self.settings.setdefault("seed", str(seed))
        #: The opponent's name for ``newmatch``, when the host knows it (the arena sets it).
        self.opponent: str | None = None
        self._engine: Engine | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._started_once = False
        self._in_match = False
        #: The hand of the match being played, counted from 1 (0 before the first), also
        #: across a restart of the program.
        self._hand = 0
        self._seat = 0
        self._known: frozenset[Card] = frozenset()
        self._result_sent = True
        #: Why the engine cannot play the hand in progress (it died or timed out), if so.
        self._broken: str | None = None
        #: Hands forfeited, as (hand number in its match, counted from 1, why).
        self.forfeits: list[tuple[int, str]] = []

    # The engine process -----------------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        """Engines set up alike: the command and the options (the seed is set anew)."""
        return (*self.command, "\0", self.turn_lines, self.turn_bytes, self.send_timeout,
                *sorted((k, "" if k == "seed" else v) for k, v in self.settings.items()))

    def _configure(self, engine: Engine, *, warn: bool) -> None:
        for key, value in self.settings.items():
            if key in engine.options:
                engine.send(SetOption(key, value))
            elif key != "seed" and warn:
                log.warning("engine %r has no option %r; ignored", self.label, key)
        engine.ping()

    def _start(self) -> Engine:
        idle = _IDLE.get(self._key(), [])
        while idle:  # a program a finished game left running
            engine = idle.pop()
            try:
                self._configure(engine, warn=False)
            except EngineError:
                _close(engine)
                continue
            return self._adopt(engine)
        engine = Engine(self.command, label=self.label, turn_lines=self.turn_lines,
                        turn_bytes=self.turn_bytes, send_timeout=self.send_timeout)
        try:
            engine.start()
            self._configure(engine, warn=True)
        except BaseException:  # also Ctrl-C or SIGTERM while it starts: never left running
            _close(engine)
            raise
        return self._adopt(engine)

    def _adopt(self, engine: Engine) -> Engine:
        self._engine = engine
        self._finalizer = weakref.finalize(self, _close, engine)
        self._started_once = True
        return engine

    def _stop(self) -> None:
        engine, self._engine = self._engine, None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if engine is not None:
            _close(engine)

    def _send(self, message: Message) -> None:
        """Send, unless the engine is already known to be broken for this hand."""
        if self._broken is not None or self._engine is None:
            return
        try:
            self._engine.send(message)
        except EngineError as exc:
            self._broken = _why(exc)
            self._stop()

    # The bot interface ------------------------------------------------------------------

    def new_hand(self, view: View) -> None:
        self._broken = None
        if self._engine is None or not self._engine.alive:
            self._stop()
            try:
                self._start()
            except EngineError as exc:
                if not self._started_once:
                    raise EngineStartError(f"engine {self.label!r}: {exc}") from None
                self._broken = f"it could not be started again ({exc})"
                log.warning("engine %r: %s", self.label, self._broken)
                return
            self._in_match = False  # a fresh process knows of no match
        self._hand += 1
        self._seat = view.seat
        if not self._in_match:  # a new match, or a program started anew within the match
            self._in_match = True
            opponent = " ".join(self.opponent.split()) if self.opponent else None
            self._send(NewMatch(view.seat, view.rules.target, str(view.rules), opponent))
        trump = view.trump_card if view.trump_card is not None else view.dealt_trump_card
        self._send(NewHand(view.seat, view.dealer, trump, view.stock_size,
                           tuple(sorted(view.hand, key=lambda c: c.index))))
        self._send(ViewMessage(view.to_json()))
        self._known = view.hand
        self._result_sent = False

    def observe(self, event: Event) -> None:
        self._send(EventMessage(event.seat, event.action))

    def seen(self, view: View) -> None:
        """The seat's view after an action: tells the engine the cards it drew and
        the result (the runner calls this; :meth:`choose` catches up otherwise)."""
        taken = view.exchange[1] if view.exchange is not None and view.exchange[0] == view.seat else None
        for card in sorted(view.hand - self._known, key=lambda c: c.index):
            if card != taken:
                self._send(Drew(card))
        self._known = view.hand
        if view.result is not None and not self._result_sent:
            self._result_sent = True
            r = view.result
            self._send(Result(r.winner, r.game_points, r.reason, r.points))

    def match_over(self, score: tuple[int, int]) -> None:
        """The match ended with ``score`` (seat 0's first)."""
        a, b = score
        self._send(MatchResult(None if a == b else (0 if a > b else 1), score))
        self._in_match = False
        self._hand = 0

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        self.seen(view)
        self._send(ViewMessage(view.to_json()))
        if self._broken is None and self._engine is not None:
            time_ms = None if self.time is None else max(1, round(self.time * 1000))
            timeout = self.limit if self.time is None else self.time + self.grace
            try:
                return self._engine.go(legal, time_ms=time_ms, timeout=timeout)
            except IllegalReply as exc:
                # The engine still runs and is told; it hears the result and plays on.
                why = f"it sent {exc}"
                self._send(Error("illegal-action", why))
            except EngineError as exc:
                why = f"it timed out ({exc}; budget {self._budget()})" if isinstance(exc, EngineTimeout) \
                    else _why(exc)
                self._broken = why
                with contextlib.suppress(EngineError):
                    self._engine.kill()  # no time to wait for a hung engine to quit
                self._stop()
        else:
            why = self._broken or "it is not running"
        self.forfeits.append((self._hand, why))
        raise Forfeit.of(f"engine {self.label!r} (seat {view.seat})", why, hand=self._hand)

    def _budget(self) -> str:
        if self.time is None:
            return f"no budget, limit {self.limit:g} s"
        return f"{self.time:g} s + {self.grace:g} s grace"

    def interrupt(self) -> None:
        """Kill the engine's program now, from any thread (a host shutting down): a
        ``choose`` waiting for it ends at once with a forfeit."""
        engine = self._engine
        if engine is not None:
            engine.interrupt()

    def close(self, *, keep: bool = True) -> None:
        """Done with the engine: a healthy program is kept for the next game of this
        process (and quits when the process exits), a broken one is stopped.
        ``keep=False`` stops it in any case (a host that keeps running but plays no
        more with it, such as the web server, which closes a game's engine with the game)."""
        engine = self._engine
        if not keep or engine is None or not engine.alive or self._broken is not None:
            self._stop()
            return
        self._engine = None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        self._in_match = False
        self._hand = 0
        _IDLE.setdefault(self._key(), []).append(engine)
