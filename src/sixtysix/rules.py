"""Rule options and presets (R12).

>>> Rules().target, Rules.preset("santase").target, Rules.preset("schnapsen").deck
(7, 11, 20)
>>> Rules.preset("pagat").to_json()
'pagat'
>>> Rules.from_json({"preset": "classic", "target": 11}).to_json()
{'preset': 'classic', 'target': 11}

The word-valued options are enums that are also their words (``StrEnum``, as
:mod:`sixtysix.states`): a string given for one is read as its member, and the
member compares and is written as the word.

>>> rules = Rules().replace(failed_close="three")
>>> rules.failed_close, rules.failed_close == "three"
(<FailedClose.THREE: 'three'>, True)
>>> rules.to_json()
{'preset': 'classic', 'failed_close': 'three'}
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sixtysix.errors import ParseError

__all__ = [
    "CLASSIC", "PRESETS", "CloseScoring", "FailedClose", "FalseDeclaration", "FirstDealer",
    "MarriageCounts", "MarriageLead", "NextDealer", "PlayedOut", "Rules",
]


class FirstDealer(enum.StrEnum):
    """Who deals the first hand of a match (R2.1)."""

    #: The players cut; the higher card deals.
    CUT = "cut"
    #: Chosen at random.
    RANDOM = "random"


class NextDealer(enum.StrEnum):
    """Who deals the next hand (R2.5)."""

    #: The deal alternates.
    ALTERNATE = "alternate"
    #: The winner of the last hand deals.
    WINNER = "winner"


class FailedClose(enum.StrEnum):
    """What a failed close gives the opponent (R6.4)."""

    #: 2 game points, or 3 if the opponent had no trick at the close.
    TWO_OR_THREE = "two_or_three"
    #: Always 3.
    THREE = "three"


class FalseDeclaration(enum.StrEnum):
    """What a false declaration of 66 gives the opponent (R8.3)."""

    #: 2 game points, or 3 if the opponent has won no trick.
    TWO_OR_THREE = "two_or_three"
    #: Always 2.
    TWO = "two"


class PlayedOut(enum.StrEnum):
    """Who wins a hand played to the end that nobody declared."""

    #: The higher total (R8.5).
    POINTS = "points"
    #: The winner of the last trick (S6.3).
    LAST_TRICK = "last_trick"


class CloseScoring(enum.StrEnum):
    """Which moment the score of a successful close is taken from: the opponent's points
    and tricks then."""

    #: At the end of the hand (R6.3).
    END = "end"
    #: At the moment of closing (S5.3).
    AT_CLOSE = "at_close"


class MarriageCounts(enum.StrEnum):
    """When announced marriage points start to count (R5.3)."""

    #: Once their owner has won a trick, at once if he already has one.
    TRICK_WON = "trick_won"
    #: Only when he next wins a trick, even with tricks already won (the course platform).
    NEXT_TRICK = "next_trick"


class MarriageLead(enum.StrEnum):
    """Which card of the pair the announcer of a marriage leads."""

    #: Either (R5.1).
    EITHER = "either"
    #: Always the King; the Queen is shown and stays in hand (the course platform).
    KING = "king"


#: The enum of each word-valued option (R12).
WORD_ENUMS: dict[str, type[enum.StrEnum]] = {
    "first_dealer": FirstDealer,
    "next_dealer": NextDealer,
    "failed_close": FailedClose,
    "false_declaration": FalseDeclaration,
    "played_out": PlayedOut,
    "close_scoring": CloseScoring,
    "marriage_counts": MarriageCounts,
    "marriage_lead": MarriageLead,
}
#: Allowed words of the word-valued options (R12), from their enums.
WORD_OPTIONS: dict[str, tuple[str, ...]] = {
    name: tuple(member.value for member in kind) for name, kind in WORD_ENUMS.items()
}
BOOL_OPTIONS = (
    "marriage_first_lead",
    "exchange_first_lead",
    "closing",
    "marriages_in_phase2",
    "close_first_lead",
    "close_before_draw",
    "auto_declare",
    "enforce_follow",
)
INT_OPTIONS = (
    "exchange_min_stock",
    "close_min_stock",
    "tie_bonus",
    "target",
    "last_trick_bonus",
    "deck",
)
#: The packs a hand may be dealt from: Sixty-six's 24 cards, or 20 without the nines
#: (Schnapsen, S1).
DECKS = (24, 20)


@dataclass(frozen=True)
class Rules:
    """The options of RULES.md R12; the defaults are the ``classic`` preset."""

    first_dealer: FirstDealer = FirstDealer.CUT
    next_dealer: NextDealer = NextDealer.ALTERNATE
    marriage_first_lead: bool = True
    marriages_in_phase2: bool = False
    exchange_min_stock: int = 2
    close_first_lead: bool = True
    close_min_stock: int = 2
    close_before_draw: bool = True
    failed_close: FailedClose = FailedClose.TWO_OR_THREE
    false_declaration: FalseDeclaration = FalseDeclaration.TWO_OR_THREE
    tie_bonus: int = 1
    target: int = 7
    auto_declare: bool = False
    enforce_follow: bool = True
    last_trick_bonus: int = 10
    #: Whether the exchange is allowed at the first lead, before any trick is won
    #: (S4.1); otherwise only after winning a trick (R4.1).
    exchange_first_lead: bool = False
    #: Whether the stock may be closed at all (R6); the Schnapsen course platform
    #: (the ``schnapsen`` package) has no closing.
    closing: bool = True
    #: 24 cards (9 to Ace) or 20 (no nines: Schnapsen, five cards a hand, S1-S2).
    deck: int = 24
    #: Who wins a hand played to the end that nobody declared: the higher total
    #: (``points``, R8.5) or the winner of the last trick (``last_trick``, S6.3).
    played_out: PlayedOut = PlayedOut.POINTS
    #: The game points of a successful close from the opponent's points and tricks
    #: at the end (``end``, R6.3) or at the moment of closing (``at_close``, S5.3).
    close_scoring: CloseScoring = CloseScoring.END
    #: When announced marriage points start to count: once their owner has won a
    #: trick, at once if he already has one (``trick_won``, R5.3), or only when he
    #: next wins a trick, even with tricks already won (``next_trick``, as on the
    #: course platform; points still waiting are *pending*).
    marriage_counts: MarriageCounts = MarriageCounts.TRICK_WON
    #: Which card of the pair the announcer leads: either (R5.1), or always the King
    #: (``king``, as on the course platform; the Queen is shown and stays in hand).
    marriage_lead: MarriageLead = MarriageLead.EITHER
    #: The preset these options started from (used to write records compactly).
    base: str = field(default="classic", compare=False)

    def __post_init__(self) -> None:
        for name, kind in WORD_ENUMS.items():
            value = getattr(self, name)
            if not isinstance(value, kind):
                try:
                    member = kind(value)
                except (ValueError, TypeError):
                    raise ParseError(f"option {name} = {value!r} is not allowed: "
                                     f"expected one of {', '.join(WORD_OPTIONS[name])}") from None
                object.__setattr__(self, name, member)  # the word given, as its member
        for name in BOOL_OPTIONS:
            if not isinstance(getattr(self, name), bool):
                raise ParseError(f"option {name} must be true or false, not {getattr(self, name)!r}")
        for name in INT_OPTIONS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ParseError(f"option {name} must be a non-negative integer, not {value!r}")
        if self.target < 1:
            raise ParseError(f"option target must be at least 1 game point, not {self.target!r}")
        if self.deck not in DECKS:
            raise ParseError(f"option deck must be one of {', '.join(map(str, DECKS))}, not {self.deck!r}")
        if self.base not in PRESET_OPTIONS:
            raise ParseError(f"unknown preset {self.base!r}: expected one of {', '.join(PRESET_OPTIONS)}")

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 6 from 24 cards (R2.3), 5 from 20 (S2.1)."""
        return 6 if self.deck == 24 else 5

    @property
    def stock_cards(self) -> int:
        """The stock after the deal, counting the turned-up trump: 12 or 10."""
        return self.deck - 2 * self.hand_size

    @property
    def tricks_to_exhaust(self) -> int:
        """Tricks played when the stock runs out, if nobody closes: one per draw of two
        cards (R3.4), 6 from 24 cards, 5 from 20 (S2.2)."""
        return self.stock_cards // 2

    @property
    def exchange_rank(self) -> int:
        """The rank (index, 0 = nine) of the trump that may be exchanged for the
        turned-up one: the lowest of the pack, the nine (R4.1) or the jack (S4.1)."""
        return 0 if self.deck == 24 else 1

    @classmethod
    def options(cls) -> tuple[str, ...]:
        """The names of all R12 options."""
        return tuple(f.name for f in dataclasses.fields(cls) if f.name != "base")

    @classmethod
    def preset(cls, name: str) -> Rules:
        """One of the presets ``classic``, ``pagat``, ``santase`` (R12), ``schnapsen`` (S12)
        and ``course`` (the course platform's rules, docs/schnapsen.md)."""
        try:
            return PRESETS[name.strip().lower()]
        except KeyError:
            raise ParseError(
                f"unknown preset {name!r}: expected one of {', '.join(PRESET_OPTIONS)}"
            ) from None

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed; unknown options are an error.

        >>> Rules().replace(target=11).target
        11
        """
        known = set(self.options())
        for name in options:
            if name not in known:
                raise ParseError(f"unknown option {name!r}: expected one of {', '.join(sorted(known))}")
        return dataclasses.replace(self, **options)

    @classmethod
    def from_json(cls, value: object) -> Rules:
        """Rules from a record's ``rules`` field: a preset name or an object."""
        if isinstance(value, str):
            return cls.preset(value)
        if isinstance(value, Mapping):
            options = dict(value)
            preset = options.pop("preset", "classic")
            if not isinstance(preset, str):
                raise ParseError(f"preset must be a name, not {preset!r}")
            return cls.preset(preset).replace(**options)
        raise ParseError(f"rules must be a preset name or an object, not {value!r}")

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Rules from command-line text: ``santase`` or ``classic,target=11,auto_declare=true``.

        >>> Rules.parse("pagat,target=9").target
        9
        """
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if not parts:
            return cls()
        rules = cls()
        if "=" not in parts[0]:
            rules = cls.preset(parts.pop(0))
        options: dict[str, Any] = {}
        for part in parts:
            name, sep, raw = part.partition("=")
            if not sep:
                raise ParseError(f"expected option=value, not {part!r}")
            options[name.strip()] = _parse_value(name.strip(), raw.strip())
        return rules.replace(**options)

    def to_json(self) -> str | dict[str, Any]:
        """The shortest record form: the preset name, or an object of the differences."""
        base = PRESETS[self.base]
        diff = {
            name: _plain(getattr(self, name))
            for name in self.options()
            if getattr(self, name) != getattr(base, name)
        }
        if not diff:
            return self.base
        return {"preset": self.base, **diff}

    def __str__(self) -> str:
        value = self.to_json()
        if isinstance(value, str):
            return value
        rest = ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                        for k, v in value.items() if k != "preset")
        return f"{value['preset']},{rest}"


def _plain(value: Any) -> Any:
    """An option's value for JSON: a word option's member as its plain word."""
    return value.value if isinstance(value, enum.StrEnum) else value


def _parse_value(name: str, raw: str) -> Any:
    if name in BOOL_OPTIONS:
        low = raw.lower()
        if low in ("true", "yes", "1", "on"):
            return True
        if low in ("false", "no", "0", "off"):
            return False
        raise ParseError(f"option {name} must be true or false, not {raw!r}")
    if name in INT_OPTIONS:
        try:
            return int(raw)
        except ValueError:
            raise ParseError(f"option {name} must be a non-negative integer, not {raw!r}") from None
    return raw


PRESET_OPTIONS: dict[str, dict[str, Any]] = {
    "classic": {},
    "pagat": {
        "first_dealer": FirstDealer.RANDOM,
        "next_dealer": NextDealer.WINNER,
        "false_declaration": FalseDeclaration.TWO,
        "tie_bonus": 0,
    },
    "santase": {
        "next_dealer": NextDealer.WINNER,
        "marriage_first_lead": False,
        "marriages_in_phase2": True,
        "exchange_min_stock": 4,
        "close_first_lead": False,
        "close_min_stock": 4,
        "failed_close": FailedClose.THREE,
        "tie_bonus": 0,
        "target": 11,
        "auto_declare": True,
    },
    # Austrian Schnapsen as pagat.com gives it (docs/schnapsen.md).
    "schnapsen": {
        "deck": 20,
        "first_dealer": FirstDealer.RANDOM,
        "marriages_in_phase2": True,
        "close_before_draw": False,
        "exchange_first_lead": True,
        "tie_bonus": 0,
        "last_trick_bonus": 0,
        "played_out": PlayedOut.LAST_TRICK,
        "close_scoring": CloseScoring.AT_CLOSE,
    },
    # The rules of the engine of the `schnapsen` course platform (docs/schnapsen.md,
    # S13): one deal is the game (a match to 1), no closing, 66 taken at once,
    # marriage points pending until the next trick won, the King led.
    "course": {
        "deck": 20,
        "first_dealer": FirstDealer.RANDOM,
        "marriages_in_phase2": True,
        "close_before_draw": False,
        "exchange_first_lead": True,
        "closing": False,
        "auto_declare": True,
        "target": 1,
        "tie_bonus": 0,
        "last_trick_bonus": 0,
        "played_out": PlayedOut.LAST_TRICK,
        "marriage_counts": MarriageCounts.NEXT_TRICK,
        "marriage_lead": MarriageLead.KING,
    },
}

PRESETS: dict[str, Rules] = {
    name: Rules(base=name, **opts) for name, opts in PRESET_OPTIONS.items()
}
CLASSIC = PRESETS["classic"]
