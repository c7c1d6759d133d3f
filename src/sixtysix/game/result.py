"""How a finished hand ended: :class:`HandResult`, the result object of the records and
of ``sixtysix replay --json`` (docs/design.md §5), and :func:`result_of`, which reads it
from a finished kernel state. A module of its own: views and records use it without the
hand's state machine.

>>> from sixtysix.kernel import State, config
>>> from sixtysix.rules import CLASSIC
>>> state = State.deal(list(range(24)), 0, config(CLASSIC))
>>> state.forfeit(1)
>>> result_of(state, state.history()).describe()
"Player 0 wins 3 game points (the opponent's program failed and forfeited); points 0-0, tricks 0-0."
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sixtysix.errors import ParseError
from sixtysix.game.cards import Suit
from sixtysix.kernel.tables import (
    DECLARE_MARRIAGE,
    EXCHANGE,
    MARRIAGE,
    MEASURED_AT_CLOSE,
    REASONS,
    SUIT_OF,
    Scoring,
    marriage_value,
)
from sixtysix.states import Reason

if TYPE_CHECKING:
    from sixtysix.kernel import State

__all__ = ["HandResult", "Scored", "result_of"]


@dataclass(frozen=True)
class Scored:
    """How the rules kernel scored a finished hand (:meth:`State.scoring
    <sixtysix.kernel.State.scoring>`): the rule that gave the game points, the loser's
    total and tricks it measured, and who earned the last-trick bonus (R7.3)."""

    #: The rule (``Scoring.NONE`` for a tie).
    scoring: Scoring
    #: The loser's total and tricks the rule was measured on: at the end of the hand, or
    #: when the stock was closed (:attr:`at_close`; -1 if that was before the kernel
    #: state's history, a world built from a view); 0 when nobody lost.
    loser_points: int
    loser_tricks: int
    #: The seat that earned the last-trick bonus, if one did.
    last_trick_seat: int | None = None

    @property
    def at_close(self) -> bool:
        """Whether the loser was measured when the stock was closed (S5.3)."""
        return self.scoring in MEASURED_AT_CLOSE


@dataclass(frozen=True)
class HandResult:
    """How a finished hand ended (docs/design.md §5)."""

    winner: int | None
    game_points: int
    reason: Reason
    points: tuple[int, int]
    tricks: tuple[int, int]
    marriages: tuple[tuple[tuple[Suit, int], ...], tuple[tuple[Suit, int], ...]]
    closed_by: int | None
    bonus: int = 0
    #: How the kernel scored the hand (what :mod:`sixtysix.present.explain` explains it by). Not
    #: part of the result object of the records: a result read from JSON has none.
    scored: Scored | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The result object that ``sixtysix replay --json`` prints."""
        return {
            "winner": self.winner,
            "game_points": self.game_points,
            "reason": self.reason,
            "points": list(self.points),
            "tricks": list(self.tricks),
            "marriages": [[[s.letter, v] for s, v in seat] for seat in self.marriages],
            "closed_by": self.closed_by,
            "bonus": self.bonus,
        }

    @classmethod
    def from_json(cls, obj: Any) -> HandResult:
        """The inverse of :meth:`to_json` (raises :class:`ParseError` on a wrong shape)."""
        def seat(shown: Any) -> tuple[tuple[Suit, int], ...]:
            return tuple((Suit.parse(m[0]), int(m[1])) for m in shown)

        try:
            if len(obj["marriages"]) != 2:
                raise ValueError("marriages: one list for each of the two seats")
            return cls(
                winner=None if obj["winner"] is None else int(obj["winner"]),
                game_points=int(obj["game_points"]),
                reason=Reason(str(obj["reason"])),
                points=(int(obj["points"][0]), int(obj["points"][1])),
                tricks=(int(obj["tricks"][0]), int(obj["tricks"][1])),
                marriages=(seat(obj["marriages"][0]), seat(obj["marriages"][1])),
                closed_by=None if obj["closed_by"] is None else int(obj["closed_by"]),
                bonus=int(obj.get("bonus", 0)),
            )
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise ParseError(f"not a hand result: {exc}") from None

    def describe(self, names: Sequence[str] | None = None) -> str:
        """A sentence for people; ``names`` (one per seat) name the players, else
        they are "Player 0" and "Player 1", the seats of the record and JSON."""
        if self.winner is None:
            return f"Tied hand ({self.points[0]}-{self.points[1]}): nobody scores."
        why = {
            "declared": "declared 66",
            "false_declaration": "the opponent declared 66 falsely",
            "closed_failed": "the closer did not make 66",
            "closed_succeeded": "closed and made 66",
            "played_out": "all cards were played",
            "revoke": "the opponent revoked",
            "forfeit": "the opponent's program failed and forfeited",
        }[self.reason]
        gp = self.game_points
        who = f"Player {self.winner}" if names is None else names[self.winner]
        return (f"{who} wins {gp} game point{'s' if gp != 1 else ''} "
                f"({why}); points {self.points[0]}-{self.points[1]}, "
                f"tricks {self.tricks[0]}-{self.tricks[1]}.")


def result_of(state: State, log: Iterable[tuple[int, int]]) -> HandResult:
    """The result of a finished kernel state whose actions, as ``(code, seat)``, were
    ``log`` (the marriages shown come from it)."""
    trump = state.trump
    marriages: tuple[list[tuple[Suit, int]], list[tuple[Suit, int]]] = ([], [])
    for code, seat in log:
        if MARRIAGE <= code < EXCHANGE or code >= DECLARE_MARRIAGE:
            suit = SUIT_OF[code - MARRIAGE] if code < EXCHANGE else code - DECLARE_MARRIAGE
            marriages[seat].append((Suit(suit), marriage_value(suit, trump)))
    closer = state.closed_by
    scoring, loser_points, loser_tricks = state.scoring()
    # R7.3: the bonus of the last trick, when the rules give one.
    bonus_seat = state.bonus_seat if state.config.last_trick_bonus else -1
    return HandResult(
        winner=None if state.winner < 0 else state.winner,
        game_points=state.game_points,
        reason=Reason(REASONS[state.reason]),
        points=(state.score(0), state.score(1)),
        tricks=(state.tricks_won(0), state.tricks_won(1)),
        marriages=(tuple(marriages[0]), tuple(marriages[1])),
        closed_by=None if closer < 0 else closer,
        scored=Scored(Scoring(scoring), loser_points, loser_tricks, None if bonus_seat < 0 else bonus_seat),
    )
