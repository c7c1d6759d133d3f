"""The messages of the bot protocol, one class per command, each with its
``format`` (a line of text, no newline) and a single :func:`parse` for all.

The first word of a line names the command; the rest are space-separated
tokens in the action notation of game records (cards ``KH``, actions ``KH+``, ``X``,
``C``, ``D``, ``66``, ``66+H``). The full specification is docs/protocol.md.

>>> parse("go time 500 legal KH QH+ X")
Go(legal=(Action.parse('KH'), Action.parse('QH+'), Action.parse('X')), time_ms=500)
>>> Go.parse_line("go legal D C").format()
'go legal D C'
>>> parse("action 10h")
Traceback (most recent call last):
...
sixtysix.protocol.messages.ProtocolError: bad-action: not an action in the protocol's notation: '10h'
"""

from __future__ import annotations

import abc
import json
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias, cast

from sixtysix.errors import ParseError
from sixtysix.game.actions import ACTIONS, Action
from sixtysix.game.cards import CARDS, Card

__all__ = [
    "NAME",
    "VERSION",
    "ActionReply",
    "Drew",
    "Error",
    "EventMessage",
    "Go",
    "Hello",
    "Id",
    "Info",
    "IsReady",
    "MatchResult",
    "Message",
    "NewHand",
    "NewMatch",
    "Option",
    "ProtocolError",
    "Quit",
    "Ready",
    "ReadyOk",
    "Result",
    "SetOption",
    "ViewMessage",
    "parse",
]

#: The protocol's name: the first word the host sends.
NAME = "sixtysix"
#: The protocol version this module speaks.
VERSION = 1

# Canonical tokens only: what ``str`` writes (the engine side is strict, like records).
_CARDS: dict[str, Card] = {str(c): c for c in CARDS}
_ACTIONS: dict[str, Action] = {str(a): a for a in ACTIONS if a is not None}


class ProtocolError(ParseError):
    """A line that is not a message of the protocol. ``code`` is the word an
    ``error`` line answers it with (``unknown-command``, ``bad-message``, ``bad-action``)."""

    def __init__(self, code: str, text: str) -> None:
        self.code = code
        self.text = text
        super().__init__(f"{code}: {text}")


def _card(token: str) -> Card:
    try:
        return _CARDS[token]
    except KeyError:
        raise ProtocolError("bad-message", f"not a card: {token!r}") from None


def _action(token: str) -> Action:
    try:
        return _ACTIONS[token]
    except KeyError:
        raise ProtocolError("bad-action", f"not an action in the protocol's notation: {token!r}") from None


def _int(token: str, what: str) -> int:
    if not token.lstrip("-").isdigit():
        raise ProtocolError("bad-message", f"{what} must be a whole number, not {token!r}")
    return int(token)


def _seat(token: str) -> int:
    seat = _int(token, "a seat")
    if seat not in (0, 1):
        raise ProtocolError("bad-message", f"a seat is 0 or 1, not {token}")
    return seat


def _winner(token: str) -> int | None:
    return None if token == "-" else _seat(token)


def _keywords(words: list[str], names: tuple[str, ...], rest: str | None = None) -> dict[str, str]:
    """``key value key value ...`` in the given order; ``rest`` takes every word after it."""
    out: dict[str, str] = {}
    i = 0
    for name in names:
        if i >= len(words) or words[i] != name:
            raise ProtocolError("bad-message", f"expected {name!r} at word {i + 1}, in "
                                               f"{' '.join(words)!r}")
        if name == rest:
            out[name] = " ".join(words[i + 1:])
            return out
        if i + 1 >= len(words):
            raise ProtocolError("bad-message", f"{name!r} needs a value")
        out[name] = words[i + 1]
        i += 2
    if i != len(words):
        raise ProtocolError("bad-message", f"unexpected words {' '.join(words[i:])!r}")
    return out


class _Message(abc.ABC):
    """Every message: a command word and a pair ``format`` / ``parse_words``."""

    command: ClassVar[str]

    @abc.abstractmethod
    def format(self) -> str:
        """The message as one line of text, without the newline."""

    @classmethod
    @abc.abstractmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        """The message from the words after its command (``text``: the whole line, for errors)."""

    @classmethod
    def parse_line(cls, line: str) -> Any:
        message = parse(line)
        if not isinstance(message, cls):
            raise ProtocolError("unexpected", f"expected {cls.command!r}, not {line.strip()!r}")
        return message


class _Bare(_Message):
    """A message that is one word."""

    def format(self) -> str:
        return self.command

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        if words:
            raise ProtocolError("bad-message", f"{cls.command!r} takes nothing, not {text!r}")
        return cast("Message", cls())  # every bare class is a member of the Message union


# Host to engine -------------------------------------------------------------------------

@dataclass(frozen=True)
class Hello(_Message):
    """``sixtysix 1``: the host's first line, the protocol's name and version."""

    command: ClassVar[str] = NAME
    version: int = VERSION

    def format(self) -> str:
        return f"{NAME} {self.version}"

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        if len(words) != 1:
            raise ProtocolError("bad-message", f"expected '{NAME} VERSION', not {text!r}")
        return cls(_int(words[0], "the version"))


@dataclass(frozen=True)
class SetOption(_Message):
    """``setoption NAME VALUE``: set one of the options the engine offered."""

    command: ClassVar[str] = "setoption"
    name: str
    value: str

    def format(self) -> str:
        return f"setoption {self.name} {self.value}"

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        if len(words) < 2:
            raise ProtocolError("bad-message", f"expected 'setoption NAME VALUE', not {text!r}")
        return cls(words[0], " ".join(words[1:]))


@dataclass(frozen=True)
class IsReady(_Bare):
    """``isready``: a ping; the engine answers ``readyok`` when it is idle."""

    command: ClassVar[str] = "isready"


@dataclass(frozen=True)
class NewMatch(_Message):
    """``newmatch seat S target N rules RULES [opponent NAME]``."""

    command: ClassVar[str] = "newmatch"
    seat: int
    target: int
    rules: str
    opponent: str | None = None

    def format(self) -> str:
        tail = "" if self.opponent is None else f" opponent {self.opponent}"
        return f"newmatch seat {self.seat} target {self.target} rules {self.rules}{tail}"

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        names: tuple[str, ...] = ("seat", "target", "rules")
        if len(words) > 6:
            names += ("opponent",)
        kw = _keywords(words, names, rest="opponent")
        return cls(_seat(kw["seat"]), _int(kw["target"], "the target"), kw["rules"],
                   kw.get("opponent") or None)


@dataclass(frozen=True)
class NewHand(_Message):
    """``newhand seat S dealer D trump CARD stock N hand CARD...``: the deal as the seat sees it."""

    command: ClassVar[str] = "newhand"
    seat: int
    dealer: int
    trump: Card
    stock: int
    hand: tuple[Card, ...]

    def format(self) -> str:
        cards = " ".join(str(c) for c in self.hand)
        return (f"newhand seat {self.seat} dealer {self.dealer} trump {self.trump} "
                f"stock {self.stock} hand {cards}")

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        kw = _keywords(words, ("seat", "dealer", "trump", "stock", "hand"), rest="hand")
        return cls(_seat(kw["seat"]), _seat(kw["dealer"]), _card(kw["trump"]),
                   _int(kw["stock"], "the stock size"),
                   tuple(_card(t) for t in kw["hand"].split()))


@dataclass(frozen=True)
class ViewMessage(_Message):
    """``view JSON``: the seat's whole view (:meth:`View.to_json`) on one line."""

    command: ClassVar[str] = "view"
    view: dict[str, Any]

    def format(self) -> str:
        return "view " + json.dumps(self.view, separators=(",", ":"))

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        body = text.split(None, 1)[1] if len(words) else ""
        try:
            obj = json.loads(body)
        except ValueError as exc:
            raise ProtocolError("bad-message", f"view: not JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise ProtocolError("bad-message", "view: expected a JSON object")
        return cls(obj)


@dataclass(frozen=True)
class EventMessage(_Message):
    """``event SEAT ACTION``: an action taken, by either seat (every action is public)."""

    command: ClassVar[str] = "event"
    seat: int
    action: Action

    def format(self) -> str:
        return f"event {self.seat} {self.action}"

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        if len(words) != 2:
            raise ProtocolError("bad-message", f"expected 'event SEAT ACTION', not {text!r}")
        return cls(_seat(words[0]), _action(words[1]))


@dataclass(frozen=True)
class Drew(_Message):
    """``drew CARD``: the card the engine's seat took from the stock (never the opponent's)."""

    command: ClassVar[str] = "drew"
    card: Card

    def format(self) -> str:
        return f"drew {self.card}"

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        if len(words) != 1:
            raise ProtocolError("bad-message", f"expected 'drew CARD', not {text!r}")
        return cls(_card(words[0]))


@dataclass(frozen=True)
class Go(_Message):
    """``go [time MS] legal ACTION...``: the engine's turn; answer ``action ACTION``."""

    command: ClassVar[str] = "go"
    legal: tuple[Action, ...]
    time_ms: int | None = None

    def format(self) -> str:
        budget = "" if self.time_ms is None else f"time {self.time_ms} "
        return f"go {budget}legal {' '.join(str(a) for a in self.legal)}"

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        time_ms: int | None = None
        if words[:1] == ["time"]:
            if len(words) < 2:
                raise ProtocolError("bad-message", "'time' needs a value")
            time_ms = _int(words[1], "the time budget")
            words = words[2:]
        if words[:1] != ["legal"] or len(words) < 2:
            raise ProtocolError("bad-message", f"expected 'go [time MS] legal ACTION...', not {text!r}")
        return cls(tuple(_action(t) for t in words[1:]), time_ms)


@dataclass(frozen=True)
class Result(_Message):
    """``result WINNER GAME_POINTS REASON points A B``; the winner is ``-`` for a tie."""

    command: ClassVar[str] = "result"
    winner: int | None
    game_points: int
    reason: str
    points: tuple[int, int]

    def format(self) -> str:
        winner = "-" if self.winner is None else str(self.winner)
        return (f"result {winner} {self.game_points} {self.reason} "
                f"points {self.points[0]} {self.points[1]}")

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        if len(words) != 6 or words[3] != "points":
            raise ProtocolError("bad-message", f"expected 'result WINNER GP REASON points A B', not {text!r}")
        return cls(_winner(words[0]), _int(words[1], "game points"), words[2],
                   (_int(words[4], "points"), _int(words[5], "points")))


@dataclass(frozen=True)
class MatchResult(_Message):
    """``matchresult WINNER score A B``."""

    command: ClassVar[str] = "matchresult"
    winner: int | None
    score: tuple[int, int]

    def format(self) -> str:
        winner = "-" if self.winner is None else str(self.winner)
        return f"matchresult {winner} score {self.score[0]} {self.score[1]}"

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        if len(words) != 4 or words[1] != "score":
            raise ProtocolError("bad-message", f"expected 'matchresult WINNER score A B', not {text!r}")
        return cls(_winner(words[0]), (_int(words[2], "a score"), _int(words[3], "a score")))


@dataclass(frozen=True)
class Quit(_Bare):
    """``quit``: the engine exits."""

    command: ClassVar[str] = "quit"


# Engine to host -------------------------------------------------------------------------

@dataclass(frozen=True)
class Id(_Message):
    """``id name NAME`` / ``id version TEXT`` / ``id author TEXT``."""

    command: ClassVar[str] = "id"
    key: str
    value: str

    def format(self) -> str:
        return f"id {self.key} {self.value}"

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        if len(words) < 2:
            raise ProtocolError("bad-message", f"expected 'id KEY VALUE', not {text!r}")
        return cls(words[0], " ".join(words[1:]))


@dataclass(frozen=True)
class Option(_Message):
    """``option NAME DEFAULT``: an option the engine accepts with ``setoption``."""

    command: ClassVar[str] = "option"
    name: str
    default: str

    def format(self) -> str:
        return f"option {self.name} {self.default}"

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        if len(words) < 2:
            raise ProtocolError("bad-message", f"expected 'option NAME DEFAULT', not {text!r}")
        return cls(words[0], " ".join(words[1:]))


@dataclass(frozen=True)
class Ready(_Bare):
    """``ready``: the end of the engine's answer to the handshake."""

    command: ClassVar[str] = "ready"


@dataclass(frozen=True)
class ReadyOk(_Bare):
    """``readyok``: the answer to ``isready``."""

    command: ClassVar[str] = "readyok"


@dataclass(frozen=True)
class ActionReply(_Message):
    """``action ACTION``: the engine's choice, one of the legal actions of ``go``."""

    command: ClassVar[str] = "action"
    action: Action

    def format(self) -> str:
        return f"action {self.action}"

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        if len(words) != 1:
            raise ProtocolError("bad-action", f"expected 'action ACTION', not {text!r}")
        return cls(_action(words[0]))


@dataclass(frozen=True)
class Info(_Message):
    """``info TEXT``: anything the engine wants logged."""

    command: ClassVar[str] = "info"
    text: str

    def format(self) -> str:
        return f"info {self.text}"

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        return cls(" ".join(words))


# Both ways ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Error(_Message):
    """``error CODE TEXT``: the answer to a line that could not be used."""

    command: ClassVar[str] = "error"
    code: str
    text: str

    def format(self) -> str:
        return f"error {self.code} {self.text}".rstrip()

    @classmethod
    def parse_words(cls, words: list[str], text: str) -> Message:
        if not words:
            raise ProtocolError("bad-message", "expected 'error CODE TEXT'")
        return cls(words[0], " ".join(words[1:]))


Message: TypeAlias = (Hello | SetOption | IsReady | NewMatch | NewHand | ViewMessage | EventMessage
                      | Drew | Go | Result | MatchResult | Quit | Id | Option | Ready | ReadyOk
                      | ActionReply | Info | Error)

_BY_COMMAND: dict[str, type[_Message]] = {
    cls.command: cls
    for cls in (Hello, SetOption, IsReady, NewMatch, NewHand, ViewMessage, EventMessage, Drew, Go,
                Result, MatchResult, Quit, Id, Option, Ready, ReadyOk, ActionReply, Info, Error)
}


def parse(line: str) -> Message:
    """The message on one line (surrounding white space and the newline ignored).

    Raises :class:`ProtocolError`: ``unknown-command`` for an unknown first
    word, ``bad-message`` or ``bad-action`` for wrong arguments.
    """
    text = line.strip()
    words = text.split()
    if not words:
        raise ProtocolError("bad-message", "an empty line")
    cls = _BY_COMMAND.get(words[0])
    if cls is None:
        raise ProtocolError("unknown-command", f"unknown command {words[0][:40]!r}")
    return cls.parse_words(words[1:], text)
