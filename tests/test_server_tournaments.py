"""Tournaments (sixtysix.server.tournaments, docs/web.md "Tournaments"): an arena scores
2 a match won within its window, a round robin pairs everyone once and ends, computer
entrants play people, called-off matches count nothing. Time is the test's own."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from helpers import need_module
from server_support import ManualTime

need_module("sqlalchemy", "the web extra")
need_module("fastapi", "the web extra")

from sixtysix.rules import Rules  # noqa: E402
from sixtysix.server.games import Game, GameError, GameManager  # noqa: E402
from sixtysix.server.storage import Storage  # noqa: E402
from sixtysix.server.tournaments import POINTS_FOR_A_WIN, Tournaments  # noqa: E402

ANNA, BOB, CLEO = (1, "Anna"), (2, "Bob"), (3, "Cleo")



def setup() -> tuple[GameManager, Tournaments, ManualTime]:
    clock = ManualTime()
    storage = Storage("sqlite://")
    manager = GameManager(storage, rng=random.Random(8), now=clock)
    return manager, Tournaments(storage.engine, manager, now=clock), clock


def play_out(manager: GameManager, game: Game, rng: random.Random) -> None:
    """Both seats of a game between people play random legal actions to the match's end."""
    while game.status == "playing":
        hand = game.hand
        assert hand is not None and hand.to_act is not None
        manager.act(game, hand.to_act, rng.choice(hand.legal_actions()))


async def pair_up(t: Tournaments, tid: str) -> tuple[Any, Any]:
    """Anna asks for her next match and waits; Bob asks: the two are paired (Anna's, Bob's)."""
    first = asyncio.create_task(t.next_match(tid, ANNA, wait=60))
    await asyncio.sleep(0)  # Anna waits
    second = await t.next_match(tid, BOB, wait=60)
    return await first, second


def standings(t: Tournaments, tid: str) -> dict[str, tuple[int, int, int]]:
    return {e["name"]: (e["points"], e["played"], e["won"]) for e in t.to_json(tid)["standings"]}


def test_an_arena_pairs_waiting_players_and_scores_matches_won_in_its_window() -> None:
    manager, t, clock = setup()
    tid = t.create(name="Friday arena", kind="arena", rules=Rules.parse("classic,target=1"), clock=None,
                   rated=False, starts_in=5, minutes=30, creator=ANNA, computers=[])
    assert t.to_json(tid)["status"] == "upcoming"
    for who in (ANNA, BOB):
        t.join(tid, who)

    with pytest.raises(GameError) as early:
        asyncio.run(t.next_match(tid, ANNA, wait=1))
    assert early.value.code == "not_running"
    clock.t += 5 * 60
    assert t.to_json(tid)["status"] == "running"

    rng = random.Random(2)
    for _ in range(3):
        anna, bob = asyncio.run(pair_up(t, tid))
        assert anna.game is bob.game and {anna.seat, bob.seat} == {0, 1}
        play_out(manager, anna.game, rng)
    table = standings(t, tid)
    assert table["Anna"][1] == table["Bob"][1] == 3
    assert table["Anna"][0] + table["Bob"][0] == 3 * POINTS_FOR_A_WIN
    assert table["Anna"][0] == POINTS_FOR_A_WIN * table["Anna"][2]
    # The window closes: no new match, and the tournament is finished.
    clock.t += 30 * 60
    assert t.to_json(tid)["status"] == "finished"
    with pytest.raises(GameError):
        asyncio.run(t.next_match(tid, ANNA, wait=0))


def test_a_stopping_server_tells_players_waiting_for_their_next_match_to_ask_again_elsewhere() -> None:
    _, t, _ = setup()
    tid = t.create(name="Arena", kind="arena", rules=Rules.parse("classic,target=1"), clock=None,
                   rated=False, starts_in=0, minutes=30, creator=ANNA, computers=[])
    for who in (ANNA, BOB):
        t.join(tid, who)

    async def scenario() -> None:
        waiting = asyncio.create_task(t.next_match(tid, ANNA, wait=600))
        await asyncio.sleep(0)  # Anna waits
        t.stop()
        with pytest.raises(GameError) as told:
            await waiting
        assert (told.value.code, told.value.status) == ("stopping", 503)  # nginx asks another process
        with pytest.raises(GameError) as late:
            await t.next_match(tid, BOB, wait=600)
        assert late.value.code == "stopping"

    asyncio.run(scenario())
    assert standings(t, tid)["Anna"][1] == standings(t, tid)["Bob"][1] == 0  # no match made


def test_a_round_robin_takes_no_entrant_once_started() -> None:
    _, t, clock = setup()
    tid = t.create(name="Closed", kind="round_robin", rules=Rules(), clock=None, rated=False, starts_in=1,
                   minutes=None, creator=ANNA, computers=[])
    t.join(tid, ANNA)
    clock.t += 60
    with pytest.raises(GameError) as late:
        t.join(tid, BOB)
    assert late.value.code == "started"


def test_a_round_robin_with_a_computer_entrant_plays_every_pair_once_and_ends() -> None:
    manager, t, clock = setup()
    tid = t.create(name="Club round robin", kind="round_robin", rules=Rules.parse("classic,target=1"),
                   clock=None, rated=False, starts_in=1, minutes=None, creator=ANNA, computers=["random"])
    for who in (ANNA, BOB):
        t.join(tid, who)
    clock.t += 60
    rng = random.Random(4)

    async def scenario() -> None:
        # Anna asks first: nobody waits, so the computer entrant plays her.
        vs_computer = await t.next_match(tid, ANNA, wait=0)
        assert vs_computer is not None and vs_computer.game.kind == "computer"
        with pytest.raises(GameError) as busy:
            await t.next_match(tid, ANNA, wait=0)
        # The refusal names the match to finish, for the page to link it.
        assert busy.value.code == "in_a_match" and busy.value.args_shown == {"game": vs_computer.game.id}
        entrants = {e["name"]: e for e in t.to_json(tid)["standings"]}
        assert [(e["computer"], e["level"]) for e in entrants.values() if e["computer"]] == [(True, "random")]
        assert entrants["Anna"]["level"] is None and entrants["Bob"]["level"] is None
        listed = t.to_json(tid)["games"]
        assert [g["levels"] for g in listed if g["id"] == vs_computer.game.id] == [[None, "random"]]
        # Bob too; then Anna and Bob meet.
        bob_vs_computer = await t.next_match(tid, BOB, wait=0)
        assert bob_vs_computer is not None and bob_vs_computer.game.kind == "computer"
        for found in (vs_computer, bob_vs_computer):
            game = found.game
            # The person plays his seat; the computer plays its own, in its worker thread.
            while game.status == "playing":
                hand = game.hand
                assert hand is not None and hand.to_act is not None
                if hand.to_act == found.seat:
                    manager.act(game, found.seat, rng.choice(hand.legal_actions()))
                else:
                    manager.wake_bot(game)
                    assert game.bot_task is not None
                    await game.bot_task
        first = asyncio.create_task(t.next_match(tid, ANNA, wait=60))
        await asyncio.sleep(0)
        second = await t.next_match(tid, BOB, wait=60)
        anna = await first
        assert anna is not None and second is not None and anna.game is second.game
        play_out(manager, anna.game, rng)
        # Every pair has played: nothing left for Anna, and the tournament is over.
        assert t.to_json(tid)["status"] == "finished"

    asyncio.run(scenario())
    table = standings(t, tid)
    assert table["Anna"][1] == table["Bob"][1] == 2 and table["Computer (random)"][1] == 2
    assert sum(points for points, _, _ in table.values()) == 3 * POINTS_FOR_A_WIN


def test_a_called_off_match_counts_nothing_and_bad_tournaments_are_refused() -> None:
    manager, t, _ = setup()
    tid = t.create(name="A", kind="arena", rules=Rules(), clock=None, rated=False, starts_in=0, minutes=10,
                   creator=ANNA, computers=["easy"])
    t.join(tid, ANNA)
    found = asyncio.run(t.next_match(tid, ANNA, wait=0))
    assert found is not None
    manager.abort(found.game, 0)
    assert standings(t, tid)["Anna"] == (0, 0, 0) and t.to_json(tid)["games"][0]["result"] == "aborted"
    with pytest.raises(GameError) as entered:
        asyncio.run(t.next_match(tid, CLEO, wait=0))
    assert entered.value.code == "not_entered"
    for bad in ({"name": "  "}, {"kind": "swiss"}, {"minutes": None}, {"computers": ["mybot"]},
                {"starts_in": -1}, {"rated": True, "rules": Rules.parse("classic,tie_bonus=0")}):
        args: dict[str, Any] = {"name": "B", "kind": "arena", "rules": Rules(), "clock": None, "rated": False,
                                "starts_in": 0, "minutes": 10, "creator": ANNA, "computers": [], **bad}
        with pytest.raises(GameError):
            t.create(**args)


def test_a_match_resigned_before_its_first_trick_counts_nothing_one_resigned_after_counts() -> None:
    """Issue 34: a second account that enters and resigns at once would hand its owner a
    tournament win a match; a match ended before its first trick is complete scores as
    called off. The control: the same resignation after the first trick scores the win."""
    manager, t, _ = setup()
    tid = t.create(name="Farm", kind="arena", rules=Rules.parse("classic,target=1"), clock=None,
                   rated=False, starts_in=0, minutes=30, creator=ANNA, computers=[])
    for who in (ANNA, BOB):
        t.join(tid, who)

    early = asyncio.run(pair_up(t, tid))[0]
    manager.resign(early.game, 1 - early.seat)  # Bob resigns before any card is played
    assert standings(t, tid)["Anna"] == standings(t, tid)["Bob"] == (0, 0, 0)
    assert t.to_json(tid)["games"][0]["result"] == "aborted"

    later = asyncio.run(pair_up(t, tid))[0]
    game, rng = later.game, random.Random(5)
    hand = game.hand
    assert hand is not None
    while hand.tricks_won(0) + hand.tricks_won(1) == 0:  # both play until a trick is complete
        assert hand.to_act is not None
        manager.act(game, hand.to_act, rng.choice([a for a in hand.legal_actions() if a.card is not None]))
    manager.resign(game, 1 - later.seat)
    assert standings(t, tid)["Anna"] == (POINTS_FOR_A_WIN, 1, 1)
    assert standings(t, tid)["Bob"] == (0, 1, 0)
