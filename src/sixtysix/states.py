"""Names of a hand's states and of the ways it can end, as enums that are also the
strings the records, the protocol and the JSON have always carried (``StrEnum``: a
``HandState.DRAW`` is ``"draw"``, written and compared as such).

>>> HandState.DRAW == "draw", str(Reason.CLOSED_FAILED)
(True, 'closed_failed')
>>> import json; json.dumps({"state": HandState.LEAD})
'{"state": "lead"}'
"""

from __future__ import annotations

import enum

__all__ = ["HandState", "Reason"]


class HandState(enum.StrEnum):
    """Whose turn it is to do what (docs/design.md §2)."""

    #: The leader leads (or announces, exchanges, closes, declares first).
    LEAD = "lead"
    #: The follower plays to the trick.
    FOLLOW = "follow"
    #: The trick's winner draws, closes or declares.
    DRAW = "draw"
    #: The hand is over.
    OVER = "over"


class Reason(enum.StrEnum):
    """How a hand ended (a hand result's ``reason``, docs/design.md §5)."""

    DECLARED = "declared"
    FALSE_DECLARATION = "false_declaration"
    CLOSED_FAILED = "closed_failed"
    CLOSED_SUCCEEDED = "closed_succeeded"
    PLAYED_OUT = "played_out"
    TIE = "tie"
    REVOKE = "revoke"
    FORFEIT = "forfeit"
