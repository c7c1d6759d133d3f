"""Several server processes starting at once on a new database (docs/web.md, "Running
several server processes"): they race to create the tables; the loser of the race
looks again and comes up. The race is made to happen, not hoped for: another
connection holds the new tables in a transaction until the server's own creation
waits on them (PostgreSQL's lock), then commits."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import need, need_module

need_module("sqlalchemy", "the web extra")
need_module("psycopg", "the postgres extra")

from server_support import database_for  # noqa: E402


@pytest.fixture
def postgres_url(tmp_path: Path) -> Iterator[str]:
    need(bool(os.environ.get("SIXTYSIX_TEST_POSTGRES_URL")),
         "no PostgreSQL server: set SIXTYSIX_TEST_POSTGRES_URL (.ci/run starts one)")
    yield from database_for("postgresql", tmp_path)


def test_a_process_that_loses_the_race_to_create_the_tables_comes_up(postgres_url: str) -> None:
    import sqlalchemy

    from sixtysix.server.accounts import Base as AccountTables
    from sixtysix.server.storage import Base as GameTables
    from sixtysix.server.storage import Storage

    other = sqlalchemy.create_engine(postgres_url)
    winner = other.connect()
    transaction = winner.begin()
    GameTables.metadata.create_all(winner)  # "another process", not committed yet
    AccountTables.metadata.create_all(winner)
    started: list[Storage] = []
    failed: list[BaseException] = []

    def start() -> None:
        try:
            started.append(Storage(postgres_url))
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=start)
    thread.start()
    # Wait (bounded) until the server's CREATE TABLE waits on the other transaction's lock.
    watcher = other.connect()
    for _ in range(600):
        waiting = watcher.execute(sqlalchemy.text(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query ILIKE '%CREATE TABLE%'")).scalar()
        watcher.rollback()  # a new snapshot of the activity at each look
        if waiting:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the server's creation of the tables never waited on the other's")
    transaction.commit()
    winner.close()
    watcher.close()
    thread.join(timeout=60)
    other.dispose()
    assert not failed, failed
    assert started and started[0].listing(status=("waiting",)) == []
    started[0].close()
