"""What the server sends: each message over the WebSocket a typed dictionary, with the
facts of a game its REST answers share. They are written as JSON by one serialiser,
:func:`sixtysix.server.connection.encode`.

A player's view and a finished hand come from :mod:`sixtysix.present.wire`, which gives their
JSON forms; the rest is typed here.

>>> from sixtysix.server.connection import encode
>>> encode(Presence(type="presence", spectators=2))
'{"type":"presence","spectators":2}'
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

__all__ = ["ChatLine", "ClockInfo", "CloseOrder", "DeclinedMessage", "ErrorMessage", "GameInfo", "HintLine",
           "HintMessage", "OfferInfo", "Outgoing", "Pong", "Presence", "RematchMessage", "Reply", "Seated",
           "StateMessage"]


class ClockInfo(TypedDict):
    """The clock as a client shows it."""

    #: The time control, as ``5+3`` or ``20/move``, and its kind (``match``, ``move``).
    control: str
    kind: str
    #: Each seat's seconds left.
    left: list[float]
    #: The seat whose clock runs, and in how many seconds it starts (after a deal).
    running: int | None
    starts_in: float


class OfferInfo(TypedDict):
    """An offer waiting for the other player's answer."""

    seat: int
    expires_in: float


class GameInfo(TypedDict):
    """The public facts of a game, for the lobby and every client."""

    id: str
    kind: str
    level: str | None
    #: The rules as a record writes them (a preset's name, or its options), and in words.
    rules: str | dict[str, Any]
    rules_text: str
    target: int
    players: list[str]
    seats_taken: list[bool]
    status: str
    score: list[int]
    #: The tie bonus the next hand's winner takes (R9.2).
    pending_bonus: int
    hand_number: int
    actions: int
    results: list[dict[str, Any]]
    winner: int | None
    ended: str | None
    abortable: bool
    clock: ClockInfo | None
    #: Seconds each absent player (by seat) has left to come back.
    away: dict[str, float]
    rematch: str | None
    #: The offers waiting for an answer (``rematch``, ``takeback``, ``abort``): who made
    #: each, and the seconds left to answer it.
    offers: dict[str, OfferInfo]
    spectators: int
    takeback: bool
    taken_back: int
    rated: bool
    unrated: str | None
    #: Which seats an account holds (its name is then the account's).
    accounts: list[bool]
    challenge: bool
    ratings: dict[str, int]
    rating_changes: dict[str, list[int]]


class StateMessage(TypedDict):
    """A seat's (or a spectator's) state: the game's facts, what the seat sees, and how
    the latest finished hand ended."""

    type: Literal["state"]
    you: int | None
    game: GameInfo
    view: dict[str, Any] | None
    last_hand: dict[str, Any] | None


class ErrorMessage(TypedDict):
    """A refusal: ``code`` names the kind, ``reason`` says it in English words; ``text``
    is the sentence with blanks (the message catalogs hold it) and ``args`` what fills
    them (:mod:`sixtysix.server.refusals`), for a page to say it in its reader's language."""

    type: Literal["error"]
    code: str
    reason: str
    text: str
    args: dict[str, str | int | float]


class Pong(TypedDict):
    """The answer to a ping (with its ``id``, if it had one)."""

    type: Literal["pong"]
    id: NotRequired[int | str]


class ChatLine(TypedDict):
    """A line of a game's chat (``seat`` and ``name`` ``None``: a spectator's)."""

    type: Literal["chat"]
    room: str
    seat: int | None
    name: str | None
    text: str


class HintLine(TypedDict):
    """One legal action of a hint, with the game points it is worth."""

    action: str
    value: float
    error: float
    samples: int
    exact: bool
    network: float | None
    #: Where value ± error would reach past the most a hand scores (R9.1): the 95%
    #: interval as far as it is possible, ``[low, high]``; else ``None``.
    interval: list[float] | None


class HintMessage(TypedDict):
    """A hint for the position after action ``index`` of hand ``hand``: the lines best
    first, how sure the best one's value is (``exact``, ``sure``, ``likely``,
    ``rough``: :class:`sixtysix.bots.analysis.Certainty`) and an action as good, if any."""

    type: Literal["hint"]
    hand: int
    index: int
    lines: list[HintLine]
    certainty: str
    rival: str | None


class DeclinedMessage(TypedDict):
    """An offer was declined (or taken back by the one who made it): ``seat`` said no."""

    type: Literal["declined"]
    offer: str
    seat: int


class RematchMessage(TypedDict):
    """The rematch's id: both players are told."""

    type: Literal["rematch"]
    game: str


class Presence(TypedDict):
    """How many watch the game."""

    type: Literal["presence"]
    spectators: int


class CloseOrder(TypedDict):
    """Not sent: the connection's writer closes it with ``code`` (a relayed client's own
    process closes it)."""

    type: Literal["_close"]
    code: int


class Seated(TypedDict):
    """The answer to a player who took a seat (a REST answer): its token and the link."""

    id: str
    seat: int
    token: str
    link: str
    game: GameInfo
    #: Whom quick pairing found (``person``, ``computer``).
    opponent: NotRequired[str]


#: A direct reply to a client's message.
Reply = ErrorMessage | Pong
#: Everything queued for a connection.
Outgoing = (StateMessage | ErrorMessage | Pong | ChatLine | HintMessage | RematchMessage | DeclinedMessage
            | Presence | CloseOrder)
