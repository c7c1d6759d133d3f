"""Game records: reading, writing, checking and replaying (format ``sixtysix/1``).

A record is a JSON object. A record of one hand names the rules, the dealer,
the deck (top of the pack first, R2.4) and the actions in the notation of
:mod:`sixtysix.game.actions`; a match record names the first dealer and lists its
hands, each with its deck and actions (the dealer of each hand follows from
the rules and is only checked when a hand gives it). Any other field
(``players``, ``event``, ``date``, ``seed``, ``comments``, ``clock`` or one
this module does not know) is kept as it is when a record is read and written
again.

>>> text = ('{"format": "sixtysix/1", "rules": "classic", "dealer": 0, '
...         '"deck": "QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH", '
...         '"actions": ["KS", "9C", "D", "9S", "QS"], "event": "club night"}')
>>> record = loads(text)
>>> len(record.actions), record.extra
(5, {'event': 'club night'})
>>> replay_json(record)["reason"], replay_json(record)["to_act"]
('unfinished', 1)
>>> record.actions.append(Action.parse("KH"))
>>> replay(record)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sixtysix.errors.InvalidRecordError: hand 1, action 5 ("KH"): illegal action KH: player 1 does not hold KH...
>>> loads(dumps(record)) == record
True

A record of a hand that was played can be written with :func:`record_from_hand`:

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=4)
>>> while not hand.is_over():
...     hand.push(hand.legal_actions()[-1])
>>> played = record_from_hand(hand, players=["Ann", "Bob"])
>>> replay(loads(dumps(played))).result == hand.result()
True
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, TypeAlias

from sixtysix.errors import IllegalActionError, InvalidDeckError, InvalidRecordError, ParseError
from sixtysix.game.actions import ACTIONS, Action, ActionKind
from sixtysix.game.cards import CARDS, Card
from sixtysix.game.deck import deck_from
from sixtysix.game.hand import Hand
from sixtysix.game.match import Match, MatchOverError
from sixtysix.game.result import HandResult
from sixtysix.kernel.tables import marriage_value
from sixtysix.rules import CLASSIC, Rules

__all__ = [
    "FORMAT",
    "HandRecord",
    "MatchHand",
    "MatchRecord",
    "Record",
    "HandReplay",
    "MatchReplay",
    "Replay",
    "from_json",
    "loads",
    "load",
    "dumps",
    "dump",
    "record_from_hand",
    "record_from_match",
    "replay",
    "replay_json",
    "validate",
]

#: The value of the ``format`` field of every record this module reads and writes.
FORMAT = "sixtysix/1"

#: Optional fields with a known meaning; they are checked, then kept like any other field.
#: ``forfeit`` (a hand's field): the seat whose program failed after the recorded
#: actions and lost the hand by forfeit (the bot protocol, docs/protocol.md).
OPTIONAL_FIELDS = ("players", "event", "date", "seed", "comments", "clock", "forfeit")

_HAND_FIELDS = frozenset({"format", "rules", "dealer", "deck", "actions"})
_MATCH_FIELDS = frozenset({"format", "rules", "first_dealer", "hands"})
_MATCH_HAND_FIELDS = frozenset({"deck", "actions", "dealer"})

# Canonical notation only: a record holds exactly what ``str`` writes.
_CARD_BY_NAME: dict[str, Card] = {str(card): card for card in CARDS}
_ACTION_BY_TOKEN: dict[str, Action] = {str(a): a for a in ACTIONS if a is not None}

# Matches replayed from records never shuffle; they still want a generator.
_UNUSED_RNG = random.Random(0)


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------


@dataclass
class HandRecord:
    """A record of one hand: the deal and the actions taken so far.

    ``extra`` holds every field other than the ones below, in the order read.
    """

    deck: tuple[Card, ...]
    actions: list[Action] = field(default_factory=list)
    dealer: int = 0
    rules: Rules = CLASSIC
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready object (known fields first, then ``extra``)."""
        obj: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_json(),
            "dealer": self.dealer,
            "deck": " ".join(str(card) for card in self.deck),
            "actions": [str(action) for action in self.actions],
        }
        obj.update(self.extra)
        return obj


@dataclass
class MatchHand:
    """One hand of a match record. ``dealer`` is ``None`` when the record leaves it out."""

    deck: tuple[Card, ...]
    actions: list[Action] = field(default_factory=list)
    dealer: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "deck": " ".join(str(card) for card in self.deck),
            "actions": [str(action) for action in self.actions],
        }
        if self.dealer is not None:
            obj["dealer"] = self.dealer
        obj.update(self.extra)
        return obj


@dataclass
class MatchRecord:
    """A record of a match: the first dealer and the hands played so far."""

    hands: list[MatchHand] = field(default_factory=list)
    first_dealer: int = 0
    rules: Rules = CLASSIC
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready object (known fields first, then ``extra``)."""
        obj: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_json(),
            "first_dealer": self.first_dealer,
            "hands": [hand.to_json() for hand in self.hands],
        }
        obj.update(self.extra)
        return obj


Record: TypeAlias = HandRecord | MatchRecord


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------


def _describe(value: object) -> str:
    """A value as it would appear in JSON, shortened for messages."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(value: object, name: str, where: str, hand: int | None) -> int:
    if not _is_int(value) or value not in (0, 1):
        raise InvalidRecordError(f"{where}{name} must be seat 0 or 1, not {_describe(value)}", hand=hand)
    return 0 if value == 0 else 1


def _rules(value: object) -> Rules:
    try:
        return Rules.from_json(value)
    except (ParseError, TypeError, ValueError) as exc:
        raise InvalidRecordError(f"bad rules: {exc}") from None


def _deck(value: object, where: str, hand: int | None, size: int = 24) -> tuple[Card, ...]:
    if not isinstance(value, str):
        raise InvalidRecordError(
            f"{where}deck must be a string of {size} space-separated cards, not {_describe(value)}", hand=hand
        )
    names = value.split()
    if len(names) == size:
        try:
            cards = tuple(_CARD_BY_NAME[name] for name in names)
        except KeyError:
            pass  # another R1.4 spelling, or not a card: deck_from decides
        else:
            if len(set(cards)) == size and (size == 24 or all(c.rank for c in cards)):
                return cards
    try:
        return tuple(deck_from(value, size))
    except InvalidDeckError as exc:
        raise InvalidRecordError(f"{where}{exc}", hand=hand) from None


def _actions(value: object, where: str, hand: int) -> list[Action]:
    if not isinstance(value, list):
        raise InvalidRecordError(f"{where}actions must be a list of tokens, not {_describe(value)}",
                                 hand=hand)
    table = _ACTION_BY_TOKEN
    try:
        return [table[token] for token in value]
    except (KeyError, TypeError):
        pass
    for index, token in enumerate(value):
        if isinstance(token, str) and token in table:
            continue
        at = f'hand {hand + 1}, action {index} ({_describe(token)}): '
        if not isinstance(token, str):
            why = "an action must be a string token"
        else:
            try:
                action = Action.parse(token)
            except ParseError as exc:
                why = str(exc)
            else:
                why = f"not in the canonical notation records use: write {str(action)!r}"
        raise InvalidRecordError(at + why, hand=hand, index=index)
    raise AssertionError("unreachable")  # pragma: no cover


def _check_optional(obj: Mapping[str, Any], where: str, n_actions: int | None) -> None:
    """Check the types of the optional fields with a known meaning (the rest is free)."""
    if "players" in obj:
        players = obj["players"]
        if not (isinstance(players, list) and len(players) == 2
                and all(isinstance(p, str) for p in players)):
            raise InvalidRecordError(f"{where}players must be a list of two names, not "
                                     f"{_describe(players)}")
    for name in ("event", "date"):
        if name in obj and not isinstance(obj[name], str):
            raise InvalidRecordError(f"{where}{name} must be a string, not {_describe(obj[name])}")
    if "seed" in obj and not (_is_int(obj["seed"]) or isinstance(obj["seed"], str)):
        raise InvalidRecordError(f"{where}seed must be an integer or a string, not "
                                 f"{_describe(obj['seed'])}")
    if "forfeit" in obj and not (_is_int(obj["forfeit"]) and obj["forfeit"] in (0, 1)):
        raise InvalidRecordError(f"{where}forfeit must be seat 0 or 1, not {_describe(obj['forfeit'])}")
    if "comments" in obj:
        comments = obj["comments"]
        if not isinstance(comments, list):
            raise InvalidRecordError(f"{where}comments must be a list, not {_describe(comments)}")
        for i, comment in enumerate(comments):
            if not (isinstance(comment, dict) and _is_int(comment.get("at"))
                    and isinstance(comment.get("text"), str)):
                raise InvalidRecordError(
                    f'{where}comment {i} must be an object {{"at": INDEX, "text": TEXT}}, '
                    f"not {_describe(comment)}"
                )
            at = comment["at"]
            limit = n_actions if n_actions is not None else at
            if not 0 <= at <= limit:
                bound = f" (0 to {n_actions})" if n_actions is not None else ""
                raise InvalidRecordError(f"{where}comment {i}: at {at} is not an action index{bound}")


def _extra(obj: Mapping[str, Any], known: frozenset[str]) -> dict[str, Any]:
    return {key: value for key, value in obj.items() if key not in known}


def _hand_record(obj: Mapping[str, Any]) -> HandRecord:
    for name in ("dealer", "deck", "actions"):
        if name not in obj:
            raise InvalidRecordError(f"a hand record needs {name!r} (or 'hands' for a match)")
    rules = _rules(obj["rules"])
    dealer = _seat(obj["dealer"], "dealer", "", None)
    deck = _deck(obj["deck"], "", None, rules.deck)
    actions = _actions(obj["actions"], "", 0)
    _check_optional(obj, "", len(actions))
    return HandRecord(deck=deck, actions=actions, dealer=dealer, rules=rules,
                      extra=_extra(obj, _HAND_FIELDS))


def _match_record(obj: Mapping[str, Any]) -> MatchRecord:
    clash = sorted(name for name in ("dealer", "deck", "actions") if name in obj)
    if clash:
        raise InvalidRecordError(
            f"a match record lists its hands in 'hands' and has no top-level {', '.join(clash)}"
        )
    if "first_dealer" not in obj:
        raise InvalidRecordError("a match record needs 'first_dealer'")
    rules = _rules(obj["rules"])
    first_dealer = _seat(obj["first_dealer"], "first_dealer", "", None)
    raw_hands = obj["hands"]
    if not isinstance(raw_hands, list):
        raise InvalidRecordError(f"hands must be a list of hand objects, not {_describe(raw_hands)}")
    hands: list[MatchHand] = []
    for h, raw in enumerate(raw_hands):
        where = f"hand {h + 1}: "
        if not isinstance(raw, dict):
            raise InvalidRecordError(f"{where}a hand must be an object, not {_describe(raw)}", hand=h)
        for name in ("rules", "format", "first_dealer", "hands"):
            if name in raw:
                raise InvalidRecordError(f"{where}{name!r} belongs to the match, not to a hand", hand=h)
        for name in ("deck", "actions"):
            if name not in raw:
                raise InvalidRecordError(f"{where}a hand needs {name!r}", hand=h)
        deck = _deck(raw["deck"], where, h, rules.deck)
        dealer = None if raw.get("dealer") is None else _seat(raw["dealer"], "dealer", where, h)
        actions = _actions(raw["actions"], where, h)
        _check_optional(raw, where, len(actions))
        hands.append(MatchHand(deck=deck, actions=actions, dealer=dealer,
                               extra=_extra(raw, _MATCH_HAND_FIELDS)))
    _check_optional(obj, "", None)
    return MatchRecord(hands=hands, first_dealer=first_dealer, rules=rules,
                       extra=_extra(obj, _MATCH_FIELDS))


def from_json(obj: object) -> Record:
    """A record from a decoded JSON value; the structure is checked, not the play.

    Raises :class:`InvalidRecordError` for a wrong ``format``, bad rules, a wrong
    deck, an unknown or non-canonical action token, missing fields or wrong types.
    """
    if not isinstance(obj, dict):
        raise InvalidRecordError(f"a record must be a JSON object, not {_describe(obj)}")
    fmt = obj.get("format")
    if fmt != FORMAT:
        if fmt is None:
            raise InvalidRecordError(f"missing 'format' (expected {FORMAT!r})")
        raise InvalidRecordError(f"unsupported format {_describe(fmt)}: expected {FORMAT!r}")
    if "rules" not in obj:
        raise InvalidRecordError("missing 'rules' (a preset name such as 'classic', or an object)")
    if "hands" in obj:
        return _match_record(obj)
    return _hand_record(obj)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


#: The largest record read, in bytes (a match of a hundred hands takes about 40 kB).
MAX_RECORD_BYTES = 8 << 20
#: The deepest nesting of JSON arrays and objects in a record (a record needs 4;
#: extra fields may nest a little).
MAX_RECORD_DEPTH = 32


def _too_deep(obj: object) -> bool:
    """Whether ``obj`` nests arrays and objects deeper than :data:`MAX_RECORD_DEPTH`."""
    stack = [(obj, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Iterable[object] = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_RECORD_DEPTH:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def loads(text: str | bytes) -> Record:
    """Read a record from JSON text (at most :data:`MAX_RECORD_BYTES`, nested at most
    :data:`MAX_RECORD_DEPTH` deep).

    >>> loads("[" * 5000 + "]" * 5000)
    Traceback (most recent call last):
    ...
    sixtysix.errors.InvalidRecordError: not a record: JSON nested more than 32 deep
    """
    if len(text) > MAX_RECORD_BYTES:
        raise InvalidRecordError(f"not a record: larger than {MAX_RECORD_BYTES:,} bytes")
    try:
        obj = json.loads(text, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise InvalidRecordError("not UTF-8 text") from None
    except RecursionError:
        raise InvalidRecordError(f"not a record: JSON nested more than {MAX_RECORD_DEPTH} deep") from None
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        raise InvalidRecordError(f"not valid JSON: {exc}") from None
    if _too_deep(obj):
        raise InvalidRecordError(f"not a record: JSON nested more than {MAX_RECORD_DEPTH} deep")
    return from_json(obj)


def read_limited(fp: IO[bytes] | IO[str]) -> bytes | str:
    """Read a whole record file, refusing one larger than :data:`MAX_RECORD_BYTES`
    (without reading more than one byte past it: ``/dev/zero`` is refused too)."""
    text = fp.read(MAX_RECORD_BYTES + 1)
    if len(text) > MAX_RECORD_BYTES:
        raise InvalidRecordError(f"not a record: larger than {MAX_RECORD_BYTES:,} bytes")
    return text


def load(source: str | os.PathLike[str] | IO[str] | IO[bytes]) -> Record:
    """Read a record from a file name or an open file.

    A file that cannot be opened raises :class:`OSError`; everything else
    that is wrong raises :class:`InvalidRecordError`.
    """
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as fp:
            return loads(read_limited(fp))
    return loads(read_limited(source))


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


def dumps(record: Record, *, indent: int | None = None) -> str:
    """The record as JSON text (one line unless ``indent`` is given)."""
    return json.dumps(record.to_json(), indent=indent, ensure_ascii=False)


def dump(record: Record, target: str | os.PathLike[str] | IO[str], *, indent: int | None = None) -> None:
    """Write the record as JSON to a file name or an open text file (with a final newline)."""
    text = dumps(record, indent=indent) + "\n"
    if isinstance(target, str | os.PathLike):
        with open(target, "w", encoding="utf-8") as fp:
            fp.write(text)
    else:
        target.write(text)


def _extra_fields(extra: Mapping[str, Any], known: frozenset[str], where: str,
                  n_actions: int | None) -> dict[str, Any]:
    clash = sorted(set(extra) & known)
    if clash:
        raise ValueError(f"{', '.join(clash)} cannot be given as extra fields: they come from the game")
    _check_optional(extra, where, n_actions)
    return dict(extra)


def _forfeit_field(hand: Hand) -> dict[str, Any]:
    """``{"forfeit": SEAT}`` for a hand lost by forfeit (:meth:`Hand.forfeit`), else nothing."""
    result = hand.result()
    if result is not None and result.reason == "forfeit" and result.winner is not None:
        return {"forfeit": 1 - result.winner}
    return {}


def record_from_hand(hand: Hand, **extra: Any) -> HandRecord:
    """A record of ``hand`` as played so far; ``extra`` adds fields such as ``players``.

    The hand's ``seed`` is recorded when it has one and ``extra`` does not give it.
    """
    actions = hand.actions
    fields = _extra_fields(extra, _HAND_FIELDS, "", len(actions))
    if hand.seed is not None:
        fields.setdefault("seed", hand.seed)
    fields.update(_forfeit_field(hand))
    return HandRecord(deck=tuple(hand.deck), actions=actions, dealer=hand.dealer,
                      rules=hand.rules, extra=fields)


def record_from_match(match: Match, **extra: Any) -> MatchRecord:
    """A record of ``match`` as played so far; every hand records its dealer."""
    fields = _extra_fields(extra, _MATCH_FIELDS, "", None)
    if match.seed is not None:
        fields.setdefault("seed", match.seed)
    hands = [MatchHand(deck=tuple(hand.deck), actions=hand.actions, dealer=hand.dealer,
                       extra=_forfeit_field(hand))
             for hand in match.hands]
    return MatchRecord(hands=hands, first_dealer=match.first_dealer, rules=match.rules,
                       extra=fields)


# ---------------------------------------------------------------------------
# Replaying
# ---------------------------------------------------------------------------


def _marriages(hand: Hand) -> tuple[list[list[Any]], list[list[Any]]]:
    """Every marriage announced so far, ``[suit, value]`` per seat (R5.1)."""
    out: tuple[list[list[Any]], list[list[Any]]] = ([], [])
    kinds = (ActionKind.MARRIAGE, ActionKind.DECLARE_MARRIAGE)
    for seat, action in zip(hand.actors(), hand.actions, strict=True):
        if action.kind in kinds and action.suit is not None:
            out[seat].append([action.suit.letter, marriage_value(action.suit, hand.trump)])
    return out


@dataclass(frozen=True)
class HandReplay:
    """A replayed hand: the :class:`Hand` after the recorded actions and, when it
    is over, its result (with the tie bonus it collected in a match, R9.2)."""

    hand: Hand
    result: HandResult | None

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> int | None:
        return None if self.result is None else self.result.winner

    def to_json(self) -> dict[str, Any]:
        """The object ``sixtysix replay --json`` prints for this hand."""
        if self.result is not None:
            return self.result.to_json()
        hand = self.hand
        return {
            "winner": None,
            "reason": "unfinished",
            "to_act": hand.to_act,
            "game_points": 0,
            "bonus": 0,
            "points": [hand.score(0), hand.score(1)],
            "tricks": [hand.tricks_won(0), hand.tricks_won(1)],
            "marriages": list(_marriages(hand)),
            "closed_by": hand.closed_by,
        }

    def describe(self, names: Sequence[str] | None = None) -> str:
        """A sentence or two for people; ``names`` (one per seat, e.g. the record's
        ``players``) name the players, else they are player 0 and player 1 (the seats)."""
        hand = self.hand

        def who(seat: int) -> str:
            return f"player {seat}" if names is None else names[seat]

        marriages = _marriages(hand)
        shown = "; ".join(
            f"{who(seat)}: " + ", ".join(f"{suit} {value}" for suit, value in marriages[seat])
            for seat in (0, 1) if marriages[seat]
        )
        tail = f" Marriages: {shown}." if shown else ""
        if hand.closed_by is not None:
            tail += f" Closed by {who(hand.closed_by)}."
        result = self.result
        if result is None:
            return (f"Unfinished: {who(hand.to_act or 0)} to act ({hand.state}); "
                    f"points {hand.score(0)}-{hand.score(1)}, "
                    f"tricks {hand.tricks_won(0)}-{hand.tricks_won(1)}.{tail}")
        text = result.describe(names) + tail
        if result.bonus:
            text += f" Plus {result.bonus} game point{'s' if result.bonus != 1 else ''} from tied hands."
        return text


@dataclass(frozen=True)
class MatchReplay:
    """A replayed match: the :class:`Match` and each hand's replay."""

    match: Match
    hands: tuple[HandReplay, ...]

    @property
    def winner(self) -> int | None:
        return self.match.winner

    @property
    def score(self) -> tuple[int, int]:
        return self.match.score

    @property
    def finished(self) -> bool:
        return self.match.is_over()

    def to_json(self) -> dict[str, Any]:
        """The object ``sixtysix replay --json`` prints for this match."""
        return {
            "winner": self.match.winner,
            "score": list(self.match.score),
            "hands": [hand.to_json() for hand in self.hands],
        }

    def describe(self, names: Sequence[str] | None = None) -> str:
        """One line per hand, counted from 1 as people count, then the score;
        ``names`` as for :meth:`HandReplay.describe`.

        >>> from sixtysix.play.runner import play_match
        >>> from sixtysix.bots import make_bot
        >>> match = play_match([make_bot("random", seed=1), make_bot("random", seed=2)], seed=3)
        >>> text = replay(record_from_match(match)).describe(["Ann", "Bob"])
        >>> text.splitlines()[0].startswith(("Hand 1 (Ann deals): ", "Hand 1 (Bob deals): "))
        True
        """
        def who(seat: int) -> str:
            return f"player {seat}" if names is None else names[seat]

        lines = [f"Hand {i} ({who(h.hand.dealer)} deals): {h.describe(names)}"
                 for i, h in enumerate(self.hands, start=1)]
        a, b = self.match.score
        winner = self.match.winner
        if winner is not None:
            name = f"Player {winner}" if names is None else names[winner]
            lines.append(f"{name} wins the match {a}-{b}.")
        else:
            lines.append(f"Match unfinished: score {a}-{b} after {len(self.hands)} "
                         f"hand{'s' if len(self.hands) != 1 else ''}.")
        return "\n".join(lines)


Replay: TypeAlias = HandReplay | MatchReplay


def _play(hand: Hand, actions: Sequence[Action], h: int, extra: Mapping[str, Any]) -> None:
    push = hand.push
    for index, action in enumerate(actions):
        try:
            push(action)
        except IllegalActionError as exc:
            raise InvalidRecordError(f'hand {h + 1}, action {index} ("{action}"): {exc}',
                                     hand=h, index=index) from None
    if "forfeit" in extra:
        if hand.is_over():
            raise InvalidRecordError(f"hand {h + 1}: a forfeit after the end of the hand", hand=h)
        hand.forfeit(extra["forfeit"])


def _replay_hand(record: HandRecord) -> HandReplay:
    try:
        hand = Hand.deal(record.deck, record.dealer, record.rules)
    except ValueError as exc:  # a wrong deck or dealer in a record built by hand
        raise InvalidRecordError(str(exc), hand=0) from None
    _play(hand, record.actions, 0, record.extra)
    return HandReplay(hand, hand.result())


def _replay_match(record: MatchRecord) -> MatchReplay:
    match = Match(record.rules, first_dealer=record.first_dealer, rng=_UNUSED_RNG)
    for h, entry in enumerate(record.hands):
        if h:
            if not match.hands[-1].is_over():
                raise InvalidRecordError(
                    f"hand {h + 1}: hand {h} is not finished, so no hand can follow it", hand=h)
            if match.is_over():
                a, b = match.score
                raise InvalidRecordError(
                    f"hand {h + 1}: the match was over after hand {h} "
                    f"(player {match.winner} won {a}-{b})", hand=h)
        dealer = match.next_dealer()
        if entry.dealer is not None and entry.dealer != dealer:
            raise InvalidRecordError(
                f"hand {h + 1}: dealer {entry.dealer} is given, but by the rules "
                f"(next_dealer = {record.rules.next_dealer}) seat {dealer} deals this hand", hand=h)
        try:
            hand = match.deal(entry.deck)
        except InvalidDeckError as exc:
            raise InvalidRecordError(f"hand {h + 1}: {exc}", hand=h) from None
        except MatchOverError as exc:  # checked above; kept so no rule slips through as a crash
            raise InvalidRecordError(f"hand {h + 1}: {exc}", hand=h) from None
        _play(hand, entry.actions, h, entry.extra)
    results = match.results()
    replays = [HandReplay(hand, results[i] if i < len(results) else None)
               for i, hand in enumerate(match.hands)]
    return MatchReplay(match, tuple(replays))


def replay(record: Record | Mapping[str, Any]) -> Replay:
    """Replay a record (or a decoded JSON object), checking every action.

    Returns a :class:`HandReplay` or a :class:`MatchReplay`; an illegal action,
    an action after the end of its hand, a hand after the end of the match, or
    a dealer that does not follow from the rules raises :class:`InvalidRecordError`
    naming the hand and the action index (both from 0).
    """
    if not isinstance(record, HandRecord | MatchRecord):
        record = from_json(record)
    if isinstance(record, HandRecord):
        return _replay_hand(record)
    return _replay_match(record)


def replay_json(record: Record | Mapping[str, Any]) -> dict[str, Any]:
    """The result object that ``sixtysix replay --json`` prints for a record."""
    return replay(record).to_json()


def validate(record: Record | Mapping[str, Any]) -> None:
    """Raise :class:`InvalidRecordError` unless the record replays."""
    replay(record)
