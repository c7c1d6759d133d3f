"""The ``net`` player: a learned network's move, no search (:mod:`sixtysix.net`).

``make_bot("net:weights=model.npz")`` plays the legal action with the highest
policy logit for its view (match score included), in well under a millisecond:
instant play, servers with many tables, a sparring partner for RL. It needs
numpy (the ``net`` extra) and a weights file (see :mod:`sixtysix.net`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sixtysix.actions import Action
from sixtysix.bots.base import BaseBot
from sixtysix.errors import ParseError
from sixtysix.views import View

if TYPE_CHECKING:
    from sixtysix.net import Network

__all__ = ["NetBot", "match_of"]


def match_of(view: View) -> tuple[int, int, int, int] | None:
    """The match around ``view`` as the encoding takes it: (mine, the opponent's, the
    target, the tie bonus at stake), or ``None`` for a hand outside a match."""
    if view.match_score is None:
        return None
    return (view.match_score[view.seat], view.match_score[view.opponent], view.rules.target,
            view.match_bonus)


class NetBot(BaseBot):
    """Plays the network's favourite legal action. ``weights``: a weights file, or a
    loaded :class:`~sixtysix.net.Network`; ``seed`` is accepted and unused (the
    network is deterministic)."""

    name = "net"

    def __init__(self, seed: int | None = None, *, weights: str | Path | Network | None = None) -> None:
        if weights is None:
            raise ParseError("the net player needs its weights: net:weights=FILE.npz")
        try:
            from sixtysix.net import Network  # numpy: the net extra, not the core's
        except ImportError as exc:
            raise ParseError(f"the net player needs numpy: pip install 'sixtysix[net]' ({exc})") from None
        self.network = weights if isinstance(weights, Network) else Network.load(weights)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return self.network.best(view, legal, match_of(view))
