"""The puzzle as a value: a position, the solution line and what the solver claims of it,
read from and written to one JSON object (format ``sixtysix-puzzle/1``, docs/puzzles.md).

The position is a game record (docs/design.md §4) that stops where the puzzle starts:
the player to act there is the one who solves it. The rest are claims that
:mod:`sixtysix.puzzles.verify` checks by solving the position again:

* ``solution``: the first action, the only best one, then the principal variation to
  the end of the hand (the opponent's best replies and the player's best moves, solved
  with every card known);
* ``value``: the game points the first action wins for the player (negative: loses)
  in the worst world the player's view allows;
* ``margin``: in every such world, the first action wins at least this many game points
  more than any other action;
* ``worlds``: how many worlds the view allows (1 for an open position);
* ``themes``: what the solution is about (:mod:`sixtysix.puzzles.themes`).

>>> text = ('{"format": "sixtysix-puzzle/1", "id": "demo", "kind": "open", '
...         '"record": {"format": "sixtysix/1", "rules": "classic", "dealer": 0, '
...         '"deck": "QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH", '
...         '"actions": []}, "solution": ["KS"], "value": 1, "margin": 1, "worlds": 1, '
...         '"themes": ["declare"]}')
>>> puzzle = loads(text)
>>> puzzle.kind, puzzle.first, puzzle.themes
(<Kind.OPEN: 'open'>, Action.parse('KS'), (<Theme.DECLARE: 'declare'>,))
>>> loads(dumps(puzzle)) == puzzle
True
>>> loads(text.replace('"margin": 1', '"margin": 0'))
Traceback (most recent call last):
...
sixtysix.puzzles.puzzle.InvalidPuzzleError: margin must be an integer from 1 to 6, not 0
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from sixtysix.errors import InvalidRecordError, ParseError
from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand
from sixtysix.game.record import HandReplay, Record, replay
from sixtysix.game.record import from_json as record_from_json
from sixtysix.measure.glicko import Rating, RatingError
from sixtysix.puzzles.themes import Theme

__all__ = ["FORMAT", "InvalidPuzzleError", "Kind", "Puzzle", "dumps", "from_json", "loads", "position_id",
           "read"]

#: The ``format`` of a puzzle object.
FORMAT = "sixtysix-puzzle/1"

_FIELDS = ("format", "id", "kind", "record", "solution", "value", "margin", "worlds", "themes")
_OPTIONAL = ("seed", "missed_by", "rating", "calibration")


class InvalidPuzzleError(ValueError):
    """A puzzle object that cannot be read: a field missing or of the wrong form."""


class Kind(enum.StrEnum):
    """What the player to act knows at the puzzle's position."""

    #: Every card is known or deducible (the stock exhausted, or closed with one layout
    #: of the hidden cards left, R7, R11): the solver's answer is the truth.
    OPEN = "open"
    #: Some cards are hidden: the solution is best in every world the view allows.
    HIDDEN = "hidden"


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a record up to the position, and the solver's claims (module text)."""

    #: A stable name: :func:`position_id` of the record.
    id: str
    kind: Kind
    #: The game record up to the position (a hand record, or a match record whose last
    #: hand holds the position).
    record: Record
    #: The first action, then the principal variation to the end of the hand.
    solution: tuple[Action, ...]
    #: Game points the first action wins for the player to act, in the worst world.
    value: int
    #: Game points by which the first action beats every other, in every world.
    margin: int
    #: The number of worlds the player's view allows (1: an open position).
    worlds: int
    themes: tuple[Theme, ...] = ()
    #: The seed of the game the miner played to reach the position, if mined.
    seed: int | None = None
    #: The players (bot specs) that chose another action there, if mined.
    missed_by: tuple[str, ...] = ()
    #: The puzzle's Glicko-2 rating before any person has tried it, if calibrated
    #: (:mod:`sixtysix.puzzles.calibrate`).
    rating: Rating | None = None
    #: The calibration's attempts: each a computer level and whether it solved the puzzle.
    calibration: tuple[tuple[str, bool], ...] = ()
    #: Fields this module does not know, kept on a round trip.
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def first(self) -> Action:
        """The action that solves the puzzle."""
        return self.solution[0]

    def position(self) -> Hand:
        """The hand at the puzzle's position (the record replayed, every card known)."""
        return _position(self.record)

    def to_json(self) -> dict[str, Any]:
        """The puzzle as a JSON-ready object (docs/puzzles.md)."""
        obj: dict[str, Any] = {
            "format": FORMAT, "id": self.id, "kind": str(self.kind), "record": self.record.to_json(),
            "solution": [str(a) for a in self.solution], "value": self.value, "margin": self.margin,
            "worlds": self.worlds, "themes": [str(t) for t in self.themes],
        }
        if self.seed is not None:
            obj["seed"] = self.seed
        if self.missed_by:
            obj["missed_by"] = list(self.missed_by)
        if self.rating is not None:
            rating = self.rating
            obj["rating"] = {"rating": round(rating.rating, 1), "deviation": round(rating.deviation, 1),
                             "volatility": round(rating.volatility, 6)}
        if self.calibration:
            obj["calibration"] = [[level, solved] for level, solved in self.calibration]
        obj.update(self.extra)
        return obj


def position_id(record: Record) -> str:
    """A short name of the position a record stops at (its rules, deal and actions).

    >>> from sixtysix import Hand
    >>> from sixtysix.game.record import record_from_hand
    >>> position_id(record_from_hand(Hand.random(seed=1)))
    'e3d758683d7d'
    """
    obj = record.to_json()
    core = {k: obj[k] for k in ("rules", "dealer", "first_dealer", "deck", "actions", "hands") if k in obj}
    text = json.dumps(core, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _position(record: Record) -> Hand:
    played = replay(record)
    if isinstance(played, HandReplay):
        return played.hand
    if not played.hands:
        raise InvalidRecordError("the match record has no hand")
    return played.hands[-1].hand


def _int(obj: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = obj.get(name)
    if type(value) is not int or not low <= value <= high:
        raise InvalidPuzzleError(f"{name} must be an integer from {low} to {high}, not {value!r}")
    return value


def _strings(obj: Mapping[str, Any], name: str) -> list[str]:
    value = obj.get(name, [])
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise InvalidPuzzleError(f"{name} must be a list of strings")
    return value


def _solution(obj: Mapping[str, Any]) -> tuple[Action, ...]:
    tokens = _strings(obj, "solution")
    if not tokens:
        raise InvalidPuzzleError("solution must name at least the first action")
    try:
        actions = tuple(Action.parse(t) for t in tokens)
    except ParseError as exc:
        raise InvalidPuzzleError(f"solution: {exc}") from None
    for token, action in zip(tokens, actions, strict=True):
        if str(action) != token:
            raise InvalidPuzzleError(f"solution: write {action}, not {token!r}")
    return actions


def _themes(obj: Mapping[str, Any]) -> tuple[Theme, ...]:
    words = _strings(obj, "themes")
    try:
        return tuple(Theme(w) for w in words)
    except ValueError:
        known = ", ".join(str(t) for t in Theme)
        raise InvalidPuzzleError(f"themes: {words!r} holds an unknown theme (known: {known})") from None


def _rating(obj: Mapping[str, Any]) -> Rating | None:
    value = obj.get("rating")
    if value is None:
        return None
    if not isinstance(value, dict) or not all(
            type(value.get(k)) in (int, float) for k in ("rating", "deviation", "volatility")):
        raise InvalidPuzzleError("rating must be an object with numbers rating, deviation and volatility")
    try:
        return Rating(value["rating"], value["deviation"], value["volatility"])
    except RatingError as exc:
        raise InvalidPuzzleError(f"rating: {exc}") from None


def _calibration(obj: Mapping[str, Any]) -> tuple[tuple[str, bool], ...]:
    value = obj.get("calibration", [])
    if not isinstance(value, list) or not all(
            isinstance(a, list) and len(a) == 2 and isinstance(a[0], str) and type(a[1]) is bool
            for a in value):
        raise InvalidPuzzleError("calibration must be a list of [level, solved] pairs")
    return tuple((level, solved) for level, solved in value)


def from_json(obj: object) -> Puzzle:
    """The puzzle of a decoded JSON object; :class:`InvalidPuzzleError` when it is not one."""
    if not isinstance(obj, dict):
        raise InvalidPuzzleError("a puzzle is a JSON object")
    if obj.get("format") != FORMAT:
        raise InvalidPuzzleError(f"format must be {FORMAT!r}, not {obj.get('format')!r}")
    missing = [name for name in _FIELDS if name not in obj]
    if missing:
        raise InvalidPuzzleError(f"missing {', '.join(missing)}")
    if not isinstance(obj["id"], str) or not obj["id"]:
        raise InvalidPuzzleError("id must be a non-empty string")
    try:
        kind = Kind(obj["kind"])
    except ValueError:
        raise InvalidPuzzleError(f"kind must be open or hidden, not {obj['kind']!r}") from None
    try:
        record = record_from_json(obj["record"])
    except InvalidRecordError as exc:
        raise InvalidPuzzleError(f"record: {exc}") from None
    seed = obj.get("seed")
    if seed is not None and type(seed) is not int:
        raise InvalidPuzzleError(f"seed must be an integer, not {seed!r}")
    return Puzzle(
        id=obj["id"], kind=kind, record=record, solution=_solution(obj),
        value=_int(obj, "value", -3, 3), margin=_int(obj, "margin", 1, 6),
        worlds=_int(obj, "worlds", 1, 10**12), themes=_themes(obj), seed=seed,
        missed_by=tuple(_strings(obj, "missed_by")), rating=_rating(obj), calibration=_calibration(obj),
        extra={k: v for k, v in obj.items() if k not in _FIELDS + _OPTIONAL},
    )


def loads(text: str) -> Puzzle:
    """Read one puzzle from JSON text."""
    try:
        obj = json.loads(text)
    except ValueError as exc:
        raise InvalidPuzzleError(f"not valid JSON: {exc}") from None
    return from_json(obj)


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as JSON text on one line (a line of a puzzle file)."""
    return json.dumps(puzzle.to_json(), ensure_ascii=False)


def read(fp: IO[str]) -> Iterator[tuple[int, Puzzle | InvalidPuzzleError]]:
    """The puzzles of a file of JSON lines, each with its line number (from 1); a line
    that is not a puzzle gives its error instead, so that a reader can go on. Blank
    lines are skipped."""
    for number, line in enumerate(fp, 1):
        if not line.strip():
            continue
        try:
            yield number, loads(line)
        except InvalidPuzzleError as exc:
            yield number, exc
