"""The WebSocket protocol: what clients may send and the replies they get.

Client to server, one JSON object per message:

- ``{"type": "hello", "token": TOKEN}`` first, once: the seat's token (``null`` to watch).
- ``{"type": "act", "action": "KH+"}``: take an action, in the notation of
  docs/design.md §3. ``"hand"`` and ``"index"`` (the hand number from 1 and the
  number of actions the client has seen in it) may be given: the action is
  then refused as stale if the game has moved on, so that a double click
  never plays twice.
- ``{"type": "rematch"}``: after the match, ask for another with the same seats.
- ``{"type": "chat", "text": "..."}``: a line of chat (at most :data:`MAX_CHAT`
  characters): the players' chat from a seat, the spectators' chat from a spectator.
- ``{"type": "resign"}``: give up the match (the opponent wins it).
- ``{"type": "abort"}``: call the match off before its first trick is complete
  (nobody wins, nothing is rated).
- ``{"type": "decline", "offer": "rematch"}``: say no to the other player's offer (a
  ``rematch``, ``takeback`` or ``abort``), or take back one's own. Between people a
  rematch, a takeback (unrated games without a clock) and calling off are offers: the
  other player accepts by asking the same (sixtysix.server.offers).
- ``{"type": "ping", "id": ID}``: answered by ``{"type": "pong", "id": ID}`` (``id``
  optional: a small integer or a short string), after everything sent before it.

Server to client: ``{"type": "state", "game": {...}, "view": {...}}`` after
every change (the view is the seat's own, or the public one for a spectator),
``{"type": "error", "code": ..., "reason": ...}`` for anything refused, and
``{"type": "rematch", "game": ID}`` when a rematch was made.

>>> parse_message('{"type": "act", "action": "KH+"}')
Act(action=Action.parse('KH+'), hand=None, index=None)
>>> parse_message('{"type": "dance"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sixtysix.server.protocol.ProtocolError: unknown message type 'dance': expected hello, act, rematch, ...
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sixtysix.errors import ParseError
from sixtysix.game.actions import Action
from sixtysix.server.status import Offer

__all__ = ["MAX_CHAT", "MAX_MESSAGE_BYTES", "Abort", "Act", "Chat", "Decline", "Hello", "Hint", "Message",
           "Ping", "ProtocolError", "Rematch", "Resign", "TakeBack", "parse_message"]

#: The largest message a client may send; actions are a few bytes.
MAX_MESSAGE_BYTES = 1024
#: The longest line of chat, in characters.
MAX_CHAT = 200


class ProtocolError(ValueError):
    """A message that cannot be understood; ``code`` is a short machine-readable name."""

    def __init__(self, reason: str, code: str = "bad_message") -> None:
        super().__init__(reason)
        self.code = code


@dataclass(frozen=True)
class Act:
    action: Action
    hand: int | None = None
    index: int | None = None


@dataclass(frozen=True)
class Hello:
    token: str | None


@dataclass(frozen=True)
class Rematch:
    pass


@dataclass(frozen=True)
class Chat:
    """A line of chat, cleaned: control characters gone, runs of spaces one."""

    text: str


@dataclass(frozen=True)
class Resign:
    """Give up the match: the opponent wins it."""


@dataclass(frozen=True)
class Abort:
    """Call the match off before its first trick is complete: nobody wins."""


@dataclass(frozen=True)
class TakeBack:
    """Take back the player's last action of the hand (games against the computer that
    allow it); ``hand`` and ``index`` name the position the player saw, as in :class:`Act`."""

    hand: int | None = None
    index: int | None = None


@dataclass(frozen=True)
class Decline:
    """Say no to the other player's offer, or take back one's own."""

    offer: Offer


@dataclass(frozen=True)
class Hint:
    """Ask for an analysis of the player's choices (games against the computer only)."""


@dataclass(frozen=True)
class Ping:
    id: int | str | None = None


Message = Hello | Act | Rematch | Resign | Abort | Chat | TakeBack | Decline | Hint | Ping


def _optional_count(obj: dict[str, Any], name: str) -> int | None:
    value = obj.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10_000:
        raise ProtocolError(f"{name} must be a small non-negative integer")
    return value


def parse_message(raw: str | bytes) -> Message:
    """Read one client message; raises :class:`ProtocolError` naming what is wrong.

    >>> parse_message('{"type": "takeback", "hand": 2}')
    TakeBack(hand=2, index=None)
    """
    obj = _read_object(raw)
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("a message needs a type: " + _TYPES)
    reader = _READERS.get(kind)
    if reader is None:
        shown = kind if len(kind) <= 20 else kind[:20] + "..."
        raise ProtocolError(f"unknown message type {shown!r}: expected {_TYPES}", "unknown_type")
    return reader(obj)


def _read_object(raw: str | bytes) -> dict[str, Any]:
    """The JSON object a message is, checked for its size and its text."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large: at most {MAX_MESSAGE_BYTES} bytes", "too_large")
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed JSON", "bad_json") from None
    if not isinstance(obj, dict):
        raise ProtocolError("a message must be a JSON object")
    # An escaped lone surrogate ("\udfff") decodes to a str that cannot be written as
    # UTF-8: echoed in a reply (a ping's id) it would stop the connection's writer.
    if not is_text(json.dumps(obj, ensure_ascii=False)):
        raise ProtocolError("text in a message must be Unicode characters (no lone surrogates)", "bad_json")
    return obj


def _act(obj: dict[str, Any]) -> Act:
    text = obj.get("action")
    if not isinstance(text, str):
        raise ProtocolError("an act message needs an action (a string such as \"KH\")")
    try:
        action = Action.parse(text)
    except ParseError as exc:
        raise ProtocolError(f"bad action: {exc}", "bad_action") from None
    return Act(action, _optional_count(obj, "hand"), _optional_count(obj, "index"))


def _hello(obj: dict[str, Any]) -> Hello:
    token = obj.get("token")
    if token is not None and (not isinstance(token, str) or not 0 < len(token) <= 100):
        raise ProtocolError("token must be the text given when the seat was taken", "bad_token")
    return Hello(token)


def _chat(obj: dict[str, Any]) -> Chat:
    text = obj.get("text")
    if not isinstance(text, str):
        raise ProtocolError("a chat message needs its text (a string)", "bad_chat")
    cleaned = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if not cleaned:
        raise ProtocolError("a chat message needs some text", "bad_chat")
    if len(cleaned) > MAX_CHAT:
        raise ProtocolError(f"a chat message has at most {MAX_CHAT} characters", "bad_chat")
    return Chat(cleaned)


def _decline(obj: dict[str, Any]) -> Decline:
    offer = obj.get("offer")
    if not isinstance(offer, str) or offer not in set(Offer):
        raise ProtocolError(f"a decline names the offer: {', '.join(Offer)}", "bad_offer")
    return Decline(Offer(offer))


def _ping(obj: dict[str, Any]) -> Ping:
    ping_id = obj.get("id")
    if ping_id is not None and (isinstance(ping_id, bool) or not (
            (isinstance(ping_id, int) and abs(ping_id) < 2**53) or
            (isinstance(ping_id, str) and len(ping_id) <= 64))):
        raise ProtocolError("a ping's id must be a small integer or a short string")
    return Ping(ping_id)


#: How each type of message is read from its JSON object.
_READERS: dict[str, Callable[[dict[str, Any]], Message]] = {
    "act": _act,
    "hello": _hello,
    "rematch": lambda obj: Rematch(),
    "chat": _chat,
    "resign": lambda obj: Resign(),
    "abort": lambda obj: Abort(),
    "hint": lambda obj: Hint(),
    "takeback": lambda obj: TakeBack(_optional_count(obj, "hand"), _optional_count(obj, "index")),
    "decline": _decline,
    "ping": _ping,
}


_TYPES = "hello, act, rematch, resign, abort, chat, takeback, decline, hint or ping"


def is_text(text: str) -> bool:
    r"""Whether ``text`` can be written as UTF-8 (it holds no lone surrogate).

    >>> is_text("9♦"), is_text("\udfff")
    (True, False)
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
