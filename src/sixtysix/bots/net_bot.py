"""The ``net`` player: a learned network's move, no search (:mod:`sixtysix.search.net`).

``make_bot("net")`` plays the legal action with the highest policy logit of the
shipped network for its view (match score included), in well under a millisecond:
instant play, servers with many tables, a sparring partner for RL;
``make_bot("net:weights=model.npz")`` plays with weights of one's own. It needs
numpy (the ``net`` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sixtysix.errors import ParseError
from sixtysix.extras import install_command
from sixtysix.game.actions import Action
from sixtysix.game.player import BaseBot
from sixtysix.game.views import View, match_of

if TYPE_CHECKING:
    from sixtysix.search.net import Network

__all__ = ["SHIPPED", "NetBot", "load_network", "shipped_network"]

#: How to name the weights that ship with the package.
SHIPPED = "shipped"
_loaded: dict[tuple[str, int, int], Network] = {}


def load_network(weights: str | Path | Network) -> Network:
    """A network: ``weights`` itself, the shipped one (``"shipped"``) or read from a file
    (each file read once per process). Raises :class:`~sixtysix.errors.ParseError` without
    numpy, :class:`~sixtysix.search.net.NetworkError` for a missing or unusable file."""
    try:
        from sixtysix.search.net import Network, shipped_weights  # numpy: the net extra, not the core's
    except ImportError as exc:
        raise ParseError(f"a learned network needs numpy: {install_command('net')} ({exc})") from None
    if isinstance(weights, Network):
        return weights
    path = shipped_weights() if str(weights) == SHIPPED else Path(weights)
    try:
        stat = path.stat()
        key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError:
        return Network.load(path)  # names the missing file
    network = _loaded.get(key)
    if network is None:
        network = _loaded[key] = Network.load(path)
    return network


def shipped_network() -> Network | None:
    """The shipped network, or ``None`` when it cannot be used (no numpy, or its weights
    missing or corrupt): for what may show the network's opinion and does without it."""
    try:
        return load_network(SHIPPED)
    except ValueError:
        return None


class NetBot(BaseBot):
    """Plays the network's favourite legal action. ``weights``: a weights file, a
    loaded :class:`~sixtysix.search.net.Network` or ``"shipped"`` (the default: the network
    that ships with the package); ``seed`` is accepted and unused (the network is
    deterministic)."""

    name = "net"

    def __init__(self, seed: int | None = None, *, weights: str | Path | Network = SHIPPED) -> None:
        self.network = load_network(weights)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return self.network.best(view, legal, match_of(view))
