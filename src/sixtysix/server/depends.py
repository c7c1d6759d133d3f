"""What the routes share, and how a route asks for it: the application's
:class:`Services`, kept as ``app.state.services``, and one FastAPI dependency for each
of them (``manager: Manager`` in a route's parameters).

A route module never builds what it uses: :func:`sixtysix.server.app.create_app` makes
each service once per application and puts them here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection

from sixtysix.server.accounts import Accounts
from sixtysix.server.boards import Analyses
from sixtysix.server.feed import LobbyFeed
from sixtysix.server.games import GameManager
from sixtysix.server.limits import ConnectionCounter
from sixtysix.server.opponents import Opponents
from sixtysix.server.pairing import Pairing
from sixtysix.server.relay import Relay
from sixtysix.server.settings import Settings
from sixtysix.server.storage import Storage

__all__ = ["Analysed", "Client", "Feed", "Manager", "Served", "Services", "client_address", "services_of"]


@dataclass(frozen=True)
class Services:
    """One application's services, made by ``create_app``."""

    settings: Settings
    storage: Storage
    manager: GameManager
    accounts: Accounts
    opponents: Opponents
    feed: LobbyFeed
    pairing: Pairing
    #: Open WebSocket connections and lobby streams per client address.
    connections: ConnectionCounter
    #: The analysis board's hands worked out so far.
    analyses: Analyses
    #: The pub/sub between server processes (``None``: one process, or no Redis).
    relay: Relay | None = None


def services_of(connection: HTTPConnection) -> Services:
    """The application's services (of a request or a WebSocket alike)."""
    services = connection.app.state.services
    assert isinstance(services, Services)
    return services


def client_address(host: Any) -> str:
    """A client's address as the limits count it (``unknown`` when the server is not told).

    >>> client_address(None)
    'unknown'
    """
    return str(getattr(host, "host", None) or "unknown")


def _client(connection: HTTPConnection) -> str:
    return client_address(connection.client)


def _manager(services: Served) -> GameManager:
    return services.manager


def _feed(services: Served) -> LobbyFeed:
    return services.feed


def _analyses(services: Served) -> Analyses:
    return services.analyses


#: A route's parameter ``services: Served`` is the application's :class:`Services`.
Served = Annotated[Services, Depends(services_of)]
#: The game manager (``manager: Manager``).
Manager = Annotated[GameManager, Depends(_manager)]
#: The lobby's live feed.
Feed = Annotated[LobbyFeed, Depends(_feed)]
#: The analysis board's hands.
Analysed = Annotated[Analyses, Depends(_analyses)]
#: The client's address (``client: Client``).
Client = Annotated[str, Depends(_client)]
