"""The engine's side: serve one of our bots over the protocol (``sixtysix engine BOT``).

:func:`serve` reads the host's lines and writes the answers; our bots are
given the :class:`~sixtysix.game.views.View` that the ``view`` lines carry, the
events, and nothing else. A line that cannot be used is answered with
``error CODE TEXT`` and the engine goes on.

>>> import io
>>> host = io.StringIO("sixtysix 1\\nisready\\nfoo\\nquit\\n")
>>> out = io.StringIO()
>>> serve("random", host, out)
0
>>> print(out.getvalue(), end="")  # doctest: +ELLIPSIS
id name random
id version ...
option seed none
ready
readyok
error unknown-command unknown command 'foo'
"""

from __future__ import annotations

import logging
from typing import IO

import sixtysix.bots as bots  # the module, not its names: the registry also makes engines (EngineBot)
from sixtysix.errors import ParseError
from sixtysix.game.player import Bot, Event, Hooks
from sixtysix.game.views import View, view_from_json
from sixtysix.protocol.messages import (
    VERSION,
    ActionReply,
    Drew,
    Error,
    EventMessage,
    Go,
    Hello,
    Id,
    Info,
    IsReady,
    MatchResult,
    Message,
    NewHand,
    NewMatch,
    Option,
    ProtocolError,
    Quit,
    Ready,
    ReadyOk,
    Result,
    SetOption,
    ViewMessage,
    parse,
)
from sixtysix.version import __version__

__all__ = ["EngineSession", "serve"]

log = logging.getLogger("sixtysix.protocol")


def make_bot(spec: str, *, seed: int | None = None) -> Bot:
    """The bot ``spec`` names, from the bots' registry, looked up when it is needed: the
    registry imports this package for its engines, so it may not be ready when this is."""
    return bots.make_bot(spec, seed=seed)


class EngineSession:
    """The engine's state between lines: the bot, its seed, the last view."""

    def __init__(self, spec: str) -> None:
        make_bot(spec, seed=0)  # a bad spec fails now, not at the first match
        self.spec = spec
        self.seed: int | None = None
        self.bot: Bot | None = None
        self.view: View | None = None
        self._new_hand = False

    def handle(self, message: Message) -> list[Message]:
        """The answer (possibly nothing) to one message from the host."""
        if isinstance(message, Hello):
            answer: list[Message] = []
            if message.version != VERSION:
                answer.append(Error("version", f"this engine speaks version {VERSION}"))
            return answer + [Id("name", self.spec), Id("version", __version__),
                             Option("seed", "none"), Ready()]
        if isinstance(message, IsReady):
            return [ReadyOk()]
        if isinstance(message, SetOption):
            if message.name != "seed":
                return [Error("unknown-option", f"no option {message.name!r}")]
            try:
                self.seed = None if message.value == "none" else int(message.value)
            except ValueError:
                return [Error("bad-message", f"the seed must be a whole number, not {message.value!r}")]
            return []
        if isinstance(message, NewMatch):
            self.bot = make_bot(self.spec, seed=self.seed)
            self.view = None
            return []
        if isinstance(message, NewHand):
            if self.bot is None:
                self.bot = make_bot(self.spec, seed=self.seed)
            self._new_hand = True
            return []
        if isinstance(message, ViewMessage):
            try:
                view = view_from_json(message.view)
            except ParseError as exc:
                return [Error("bad-message", f"view: {exc}")]
            self.view = view
            if self._new_hand and self.bot is not None:
                self._new_hand = False
                Hooks.of(self.bot).new_hand(view)
            return []
        if isinstance(message, EventMessage):
            Hooks.of(self.bot).observe(Event(message.seat, message.action))
            return []
        if isinstance(message, Go):
            if self.bot is None or self.view is None:
                return [Error("no-view", "go before newhand and view: nothing to choose from")]
            legal = message.legal
            if set(legal) != set(self.view.legal):
                return [Error("bad-message", "go: the legal actions differ from the view's")]
            return [ActionReply(self.bot.choose(self.view, legal))]
        if isinstance(message, Drew | Result | MatchResult):
            return []  # our bots read all of this from the views
        if isinstance(message, Quit):
            return []
        return [Error("unexpected", f"{message.command!r} is sent by engines, not hosts")]


def serve(spec: str, stdin: IO[str], stdout: IO[str]) -> int:
    """Play the bot ``spec`` over the protocol until ``quit`` or the end of input."""
    session = EngineSession(spec)
    for line in stdin:
        if not line.strip():
            continue
        try:
            message = parse(line)
        except ProtocolError as exc:
            answers: list[Message] = [Error(exc.code, exc.text)]
        else:
            if isinstance(message, Quit):
                return 0
            if isinstance(message, Error | Info):
                log.warning("the host says: %s", message.format())
                continue
            try:
                answers = session.handle(message)
            except Exception as exc:  # a bot that cannot follow what the host said
                log.warning("cannot use %r: %s: %s", line.strip()[:80], type(exc).__name__, exc)
                answers = [Error("internal", f"{type(exc).__name__}: {exc}")]
        for answer in answers:
            stdout.write(answer.format() + "\n")
        stdout.flush()
    return 0
