"""Hints against the computer in the web game (issue 18, item 3): the analysis the
terminal game gives, worked out by the server from the player's own view and sent to
that player only; refused against a person and to spectators."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from helpers import need_module

need_module("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from server_support import connect  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402


def test_a_hint_values_every_legal_action_best_first() -> None:
    with TestClient(create_app(Settings(database_url="sqlite://"))) as client:
        game = client.post("/api/games", json={"kind": "computer", "level": "random"}).json()
        with contextmanager(connect)(client, game["id"], game["token"], 0) as me:
            state = me.until(lambda s: s["view"] is not None and s["view"]["to_act"] == 0)
            me.send({"type": "hint"})
            answer: dict[str, Any] = me.recv()
            while answer["type"] != "hint":
                assert answer["type"] != "error", answer
                answer = me.recv()
        assert (answer["hand"], answer["index"]) == (state["game"]["hand_number"], state["game"]["actions"])
        lines = answer["lines"]
        assert sorted(line["action"] for line in lines) == sorted(state["view"]["legal"])
        values = [line["value"] for line in lines]
        assert values == sorted(values, reverse=True)
        # Game points of one hand for the seat: from -3 to +3 (R9.1), with a margin.
        assert all(-3 <= v <= 3 and line["error"] >= 0 and line["samples"] >= 1
                   for v, line in zip(values, lines, strict=True))
        # Where value ± error would reach past 3, the interval as far as it is possible.
        for line in lines:
            reaches_past = line["value"] + line["error"] > 3 or line["value"] - line["error"] < -3
            if line["interval"] is None:
                assert not reaches_past or abs(abs(line["value"]) + line["error"] - 3) < 2e-3, line
            else:
                low, high = line["interval"]
                assert reaches_past and -3 <= low <= line["value"] <= high <= 3, line
        # How sure the best value is, for the page's sentence (issue 37, item 4): exact only
        # when the best line is, else by its margin; a rival is an action within it.
        best = lines[0]
        if best["exact"]:
            assert answer["certainty"] == "exact"
        else:
            assert answer["certainty"] == ("sure" if best["error"] <= 0.15 else
                                           "likely" if best["error"] <= 0.4 else "rough")
        if len(lines) > 1:
            second = lines[1]
            within = best["value"] - second["value"] <= max(best["error"], second["error"])
            # (the values are rounded on the wire: a gap right at the margin is left alone)
            if abs(best["value"] - second["value"] - max(best["error"], second["error"])) > 2e-3:
                assert answer["rival"] == (second["action"] if within else None)


def test_hints_are_refused_against_a_person_and_to_spectators() -> None:
    with TestClient(create_app(Settings(database_url="sqlite://"))) as client:
        game = client.post("/api/games", json={"kind": "person", "name": "Ann"}).json()
        client.post(f"/api/games/{game['id']}/join", json={"name": "Bob"})
        with contextmanager(connect)(client, game["id"], game["token"], 0) as ann:
            assert ann.request({"type": "hint"})["code"] == "no_hints"
        computer = client.post("/api/games", json={"kind": "computer", "level": "random"}).json()
        with contextmanager(connect)(client, computer["id"], None, None) as watcher:
            assert watcher.request({"type": "hint"})["code"] == "spectator"
