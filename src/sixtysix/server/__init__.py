"""The game server: ``sixtysix serve`` (FastAPI, uvicorn, WebSockets, SQLAlchemy).

Needs the ``web`` extra: ``pip install -e '.[web]'``. The server holds the
games in memory and writes every action to the database as it is applied;
clients get only their seat's view (docs/design.md §6). See ``docs/web.md``.
"""

from __future__ import annotations

from sixtysix.server.app import Settings, create_app, default_database_url

__all__ = ["Settings", "create_app", "default_database_url"]
