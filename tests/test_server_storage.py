"""Persistence of games, records and results (issue 5), on SQLite and, when
``SIXTYSIX_TEST_POSTGRES_URL`` names one (CI starts one), on PostgreSQL.

A game manager is built on a database, games are played, and a second manager
on the same database (a restarted server) must hold the same games exactly.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from helpers import need_module
from server_support import database_for

need_module("sqlalchemy", "the web extra")
from sqlalchemy.engine import make_url  # noqa: E402

from sixtysix.game.record import dumps, replay_json  # noqa: E402
from sixtysix.rules import Rules  # noqa: E402
from sixtysix.server.fairplay import Admission, GameLimits  # noqa: E402
from sixtysix.server.games import Game, GameError, GameManager  # noqa: E402
from sixtysix.server.storage import Storage  # noqa: E402


def play(game: Game, manager: GameManager, rng: random.Random, count: int) -> None:
    for _ in range(count):
        hand = game.hand
        if game.over or hand is None:
            return
        seat = hand.to_act
        assert seat is not None
        manager.act(game, seat, rng.choice(hand.legal_actions()))


def test_a_restarted_server_holds_every_game_exactly(database_url: str) -> None:
    rng = random.Random(7)
    first = GameManager(Storage(database_url))
    games = []
    for n in range(4):
        rules = Rules.parse("pagat,target=30" if n % 2 else "santase,target=30")
        game, _ = first.create(rules=rules, kind="person", name=f"A{n}")
        first.join(game.id, f"B{n}")
        play(game, first, rng, 10 + 17 * n)
        assert not game.over
        games.append(game)
    waiting, _ = first.create(rules=Rules(), kind="person", name="Alone")
    first.storage.close()

    second = GameManager(Storage(database_url))
    assert second.resume_all() == 5
    for game in games:
        again = second.games[game.id]
        assert dumps(again.record()) == dumps(game.record())
        assert again.match.score == game.match.score and again.status == game.status
        assert again.tokens == game.tokens and again.names == game.names
        # Who is away is a matter of connections, not of the stored game: a restarted
        # server notes it as the players connect.
        assert again.away == {}
        game.away.clear()
        for seat in (0, 1, None):
            assert again.state_for(seat) == game.state_for(seat)
    assert second.games[waiting.id].status == "waiting"
    # The resumed games go on, and a finished one is stored with its results.
    game = second.games[games[0].id]
    play(game, second, rng, 10_000)
    assert game.over
    rows = second.storage.results(game.id)
    assert [(r.name, r.game_points, r.won) for r in rows] == [
        (game.names[s], game.match.score[s], game.match.winner == s) for s in (0, 1)]
    assert replay_json(game.record())["score"] == list(game.match.score)
    second.storage.close()
    third = GameManager(Storage(database_url))
    assert third.resume_all() == 4  # the finished game is not resumed
    assert third.get(game.id).over  # but it can be read back
    third.storage.close()


def test_names_are_stored_as_data_never_as_sql(database_url: str) -> None:
    manager = GameManager(Storage(database_url))
    evil = "Robert'); DROP TABLE games;--"
    game, _ = manager.create(rules=Rules(), kind="person", name=evil)
    manager.join(game.id, "x' OR '1'='1")
    manager.storage.close()
    again = GameManager(Storage(database_url)).get(game.id)
    assert again.names == [evil[:40], "x' OR '1'='1"]
    with pytest.raises(GameError):
        GameManager(Storage(database_url)).get("' OR 1=1 --")


def test_an_action_that_cannot_be_stored_is_not_applied(tmp_path: Path) -> None:
    manager = GameManager(Storage(f"sqlite:///{tmp_path / 'games.db'}"))
    game, _ = manager.create(rules=Rules(), kind="person")
    manager.join(game.id)
    hand = game.hand
    assert hand is not None and hand.to_act is not None
    before = dumps(game.record())

    def broken(*args: object) -> None:
        raise OSError("disk full")

    manager.storage.add_action = broken  # type: ignore[method-assign]
    with pytest.raises(GameError, match="could not save"):
        manager.act(game, hand.to_act, hand.legal_actions()[0])
    assert dumps(game.record()) == before


def test_processes_sharing_a_database_each_serve_only_their_own_games(database_url: str) -> None:
    """The scale-out mode of docs/web.md: game ids carry their process's number."""
    rng = random.Random(9)
    one = GameManager(Storage(database_url), shard=1)
    two = GameManager(Storage(database_url), shard=2)
    mine, _ = one.create(rules=Rules(), kind="person")
    one.join(mine.id)
    play(mine, one, rng, 5)
    theirs, _ = two.create(rules=Rules(), kind="person")
    assert mine.id.startswith("s1-") and theirs.id.startswith("s2-")
    with pytest.raises(GameError) as refused:
        two.get(mine.id)
    assert refused.value.status == 503 and refused.value.code == "misdirected"
    # Restarted, each process resumes only its own games.
    one_again = GameManager(Storage(database_url), shard=1)
    assert one_again.resume_all() == 1 and list(one_again.games) == [mine.id]
    assert dumps(one_again.games[mine.id].record()) == dumps(mine.record())
    for m in (one, two, one_again):
        m.storage.close()


def test_a_game_nobody_is_connected_to_leaves_memory_and_comes_back_the_same(tmp_path: Path) -> None:
    from sixtysix.server.games import Connection

    async def nowhere(message: object) -> None:
        return None

    manager = GameManager(Storage(f"sqlite:///{tmp_path / 'games.db'}"))
    game, _ = manager.create(rules=Rules(), kind="person")
    manager.join(game.id)
    play(game, manager, random.Random(3), 9)
    watcher, player = Connection(nowhere, None), Connection(nowhere, 0)
    manager.attach(game, watcher)
    manager.attach(game, player)
    manager.detach(game, watcher)
    assert manager.games[game.id] is game  # a player is still there
    manager.detach(game, player)
    assert game.id not in manager.games
    again = manager.get(game.id)
    assert again is not game and dumps(again.record()) == dumps(game.record())
    assert again.state_for(0) == game.state_for(0)


def test_commits_do_not_wait_for_the_disk_but_a_killed_server_loses_nothing(database_url: str) -> None:
    """The durability trade documented in storage.py: WAL with normal syncing on SQLite,
    asynchronous commit on PostgreSQL (the restart tests show a killed server loses nothing)."""
    storage = Storage(database_url)
    with storage.engine.connect() as conn:
        if database_url.startswith("sqlite"):
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        else:
            assert conn.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
    storage.close()


def test_options_in_a_postgresql_url_are_kept_beside_the_servers_own(tmp_path: Path) -> None:
    """``?options=-csearch_path%3D...`` (a schema of the operator's choosing, as the tests'
    parallel workers use) reaches the connection together with asynchronous commit."""
    url = make_url(next(database_for("postgresql", tmp_path)))
    plain = url.difference_update_query(["options"]).render_as_string(hide_password=False)
    with Storage(plain).engine.begin() as conn:
        conn.exec_driver_sql("CREATE SCHEMA IF NOT EXISTS options_kept")
    given = url.update_query_dict({"options": "-csearch_path=options_kept"})
    storage = Storage(given.render_as_string(hide_password=False))
    with storage.engine.connect() as conn:
        assert conn.exec_driver_sql("SHOW search_path").scalar() == "options_kept"
        assert conn.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
        assert conn.exec_driver_sql("SELECT to_regclass('options_kept.games')").scalar() is not None
    storage.close()


def test_games_untouched_for_too_long_are_abandoned_at_start_up(database_url: str) -> None:
    """4,000 spam games were once loaded at every start: now a game nobody has moved in
    for ``abandoned_after`` seconds is marked abandoned, kept, not loaded, and refuses
    actions; live ones are resumed as before."""
    import datetime as dt

    from sqlalchemy import update

    from sixtysix.server.storage import GameRow

    rng = random.Random(3)
    first = GameManager(Storage(database_url))
    old, _ = first.create(rules=Rules(), kind="person", name="Gone")
    first.join(old.id, "Also gone")
    play(old, first, rng, 5)
    live, _ = first.create(rules=Rules(), kind="computer", level="random", name="Here")
    with first.storage.engine.begin() as conn:
        conn.execute(update(GameRow).where(GameRow.id == old.id)
                     .values(updated=dt.datetime(2020, 1, 1)))
    first.storage.close()

    second = GameManager(Storage(database_url))
    assert second.resume_all(abandoned_after=3600) == 1
    assert set(second.games) == {live.id}
    again = second.get(old.id)  # still readable, as it was
    assert again.status == "abandoned" and dumps(again.record()) == dumps(old.record())
    hand = again.hand
    assert hand is not None and hand.to_act is not None
    with pytest.raises(GameError) as refused:
        second.act(again, hand.to_act, hand.legal_actions()[0])
    assert refused.value.code == "abandoned"
    second.storage.close()


def test_an_address_may_have_only_so_many_unfinished_games(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'games.db'}")
    manager = GameManager(storage, admission=Admission(storage, GameLimits(per_address=3)))
    rng = random.Random(4)
    made = [manager.create(rules=Rules.parse("classic,target=1"), kind="person", creator="10.0.0.1")[0]
            for _ in range(3)]
    with pytest.raises(GameError) as refused:
        manager.create(rules=Rules(), kind="person", creator="10.0.0.1")
    assert refused.value.code == "too_many_games" and refused.value.status == 429
    manager.create(rules=Rules(), kind="person", creator="10.0.0.2")  # another address
    # A finished game no longer counts.
    manager.join(made[0].id, "B", address="10.0.0.3")
    play(made[0], manager, rng, 10_000)
    assert made[0].over
    manager.create(rules=Rules(), kind="person", creator="10.0.0.1")
    manager.storage.close()


def test_a_database_from_before_the_creator_column_is_brought_up_to_date(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    Storage(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as db:  # as an earlier version made it
        db.execute("DROP INDEX ix_games_creator")
        db.execute("ALTER TABLE games DROP COLUMN creator")
        assert "creator" not in {row[1] for row in db.execute("PRAGMA table_info(games)")}
    manager = GameManager(Storage(f"sqlite:///{path}"))
    manager.create(rules=Rules(), kind="person", creator="10.0.0.1")
    assert manager.storage.unfinished_by("10.0.0.1") == 1
    manager.storage.close()
    with sqlite3.connect(path) as db:
        assert "ix_games_creator" in {row[1] for row in db.execute("PRAGMA index_list(games)")}


def test_games_nobody_moves_in_are_abandoned_while_the_server_runs(database_url: str) -> None:
    """Issue 18, item 6: the check also runs while the server runs. A game whose last action
    is older than the setting is marked abandoned in storage and in memory, where its
    players are told; a game played a moment ago is not, even if the time stored for it
    (written when hands start and end) is old: its last action counts."""
    import datetime as dt

    from sqlalchemy import update

    from sixtysix.server.storage import GameRow

    rng = random.Random(5)
    manager = GameManager(Storage(database_url))
    idle, _ = manager.create(rules=Rules(), kind="person", name="Idle")
    manager.join(idle.id, "Also idle")
    busy, _ = manager.create(rules=Rules(), kind="person", name="Busy")
    manager.join(busy.id, "Also busy")
    play(busy, manager, rng, 3)  # actions taken now
    with manager.storage.engine.begin() as conn:
        conn.execute(update(GameRow).where(GameRow.id.in_([idle.id, busy.id]))
                     .values(updated=dt.datetime(2020, 1, 1)))
    assert manager.expire_idle(3600) == [idle.id]
    assert idle.status == "abandoned" and busy.status == "playing"
    hand = idle.hand
    assert hand is not None and hand.to_act is not None
    with pytest.raises(GameError) as refused:
        manager.act(idle, hand.to_act, hand.legal_actions()[0])
    assert refused.value.code == "abandoned"
    listed = {row.id: row.status for row in manager.storage.listing(status=("abandoned", "playing"))}
    assert listed == {idle.id: "abandoned", busy.id: "playing"}
    manager.storage.close()
