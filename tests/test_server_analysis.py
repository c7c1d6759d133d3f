"""The analysis board of a finished game (issue 18, item 3): every action of a hand rated
for the player who took it. Checked against facts outside the rating code: which actions
were forced (the rules kernel's legal actions), and the value of each hand's last action,
which is the game points the hand actually gave (the hand ends with it)."""

from __future__ import annotations

import random
from contextlib import contextmanager

from helpers import need_module

need_module("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from server_support import connect, finished  # noqa: E402
from sixtysix.game.hand import Hand  # noqa: E402
from sixtysix.game.record import loads, replay  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402


def test_every_action_of_a_finished_hand_is_rated() -> None:
    rng = random.Random(5)
    with TestClient(create_app(Settings(database_url="sqlite://", message_rate=1e6,
                                        message_burst=1e6))) as client:
        game = client.post("/api/games", json={"kind": "computer", "level": "random",
                                               "rules": "classic,target=1"}).json()
        refused = client.get(f"/api/games/{game['id']}/analysis/1")
        assert refused.status_code == 409 and refused.json()["code"] == "not_finished"
        with contextmanager(connect)(client, game["id"], game["token"], 0) as me:
            while not finished(me.until(lambda s: finished(s) or s["view"]["to_act"] == 0)):
                me.act_random(rng)
                me.sync()
        record = loads(client.get(f"/api/games/{game['id']}/record").text)
        replayed = replay(record)
        hands = replayed.hands  # type: ignore[union-attr]
        for number, played in enumerate(hands, start=1):
            board = client.get(f"/api/games/{game['id']}/analysis/{number}").json()
            final = played.hand
            assert board["hand"] == number and len(board["actions"]) == len(final.actions)
            position = Hand.deal(final.deck, final.dealer, final.rules)
            for index, (rated, action) in enumerate(zip(board["actions"], final.actions, strict=True)):
                assert rated["index"] == index and rated["action"] == str(action)
                assert rated["seat"] == position.to_act
                assert rated.get("forced", False) == (len(position.legal_actions()) == 1)
                if not rated.get("forced"):
                    assert rated["loss"] >= 0
                    assert abs(rated["best_value"] - rated["value"] - rated["loss"]) < 1e-2
                    assert (rated["loss"] < 1e-6) == (rated["action"] in rated["best"])
                position.push(action)
        missing = client.get(f"/api/games/{game['id']}/analysis/{len(hands) + 1}")
        assert missing.status_code == 404 and missing.json()["code"] == "no_hand"


def test_the_last_choice_of_a_hand_is_worth_what_the_hand_gave() -> None:
    """After a hand's last choice every action was forced: the hand's outcome was settled by
    it, so its exact value is the game points the hand actually gave the player who chose."""
    from sixtysix.bots import RandomBot
    from sixtysix.play.runner import play_hand
    from sixtysix.server.app import analyse_hand

    checked = 0
    for seed in range(12):
        played = play_hand(Hand.random(seed=seed), [RandomBot(seed=seed), RandomBot(seed=seed + 100)])
        result = played.result()
        assert result is not None
        choices = [rated for rated in analyse_hand(played, 1)["actions"] if not rated.get("forced")]
        if choices and choices[-1]["exact"]:
            last = choices[-1]
            gave = 0 if result.winner is None else (
                result.game_points if result.winner == last["seat"] else -result.game_points)
            assert abs(last["value"] - gave) < 1e-6, (seed, last, result)
            checked += 1
    assert checked >= 3
