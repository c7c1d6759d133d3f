"""Every refusal of the server carries a code, a sentence and its arguments, and every
sentence is in every catalog (issue 36, item 3): a page says it in its reader's language,
never in the server's English."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from helpers import need_module

need_module("fastapi", "the server extra")

from fastapi.testclient import TestClient  # noqa: E402

from server_support import Client, connect  # noqa: E402
from sixtysix import i18n  # noqa: E402
from sixtysix.game.cards import CARDS  # noqa: E402
from sixtysix.game.refusal import NOT_HELD, REASONS  # noqa: E402
from sixtysix.present.lessons import REFUSALS as LESSON_REFUSALS  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402
from sixtysix.server.errors import GameError, Reason  # noqa: E402

SERVER = Path(__file__).resolve().parent.parent / "src" / "sixtysix" / "server"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: The arguments a page knows how to show (common.js: refusalArgs, refusalNode).
PERSON = {"kind": "person", "name": "Anna", "rules": "classic,target=1"}
KNOWN_ARGS = {"number", "hands", "kinds", "problem", "level", "levels", "n", "minutes", "game"}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6))) as c:
        yield c


@pytest.mark.parametrize("lang", ["de", "bg", "hu"])
def test_every_refusal_sentence_is_translated_with_the_same_blanks(lang: str) -> None:
    """Walks every refusal the server gives, a lesson's and every rule's refusal the kernel gives."""
    page = i18n.catalog(lang)["messages"]
    assert isinstance(page, dict)
    sentences = [r.sentence for r in Reason] + list(REASONS) + list(LESSON_REFUSALS)
    lacking = [s for s in sentences if not isinstance(page.get(s), str) or not page[s]]
    assert lacking == []
    for sentence in sentences:
        assert set(PLACEHOLDER.findall(page[sentence])) == set(PLACEHOLDER.findall(sentence)), sentence


def test_a_sentence_has_only_blanks_a_page_can_fill_and_each_refusal_one_of_its_own() -> None:
    for reason in Reason:
        assert set(PLACEHOLDER.findall(reason.sentence)) <= KNOWN_ARGS, reason
        assert reason.sentence[0].isupper() or reason.sentence[0] == "{", reason
    assert len({r.sentence for r in Reason}) == len(Reason)  # no two members alias


@contextmanager
def player(client: TestClient, game_id: str, token: str | None, seat: int | None) -> Iterator[Client]:
    yield from connect(client, game_id, token, seat)


def _first_argument_is_a_reason(call: ast.Call) -> bool:
    if not call.args:
        return False
    first = call.args[0]
    choices = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
    return all(isinstance(c, ast.Attribute) and isinstance(c.value, ast.Name)
               and c.value.id in ("Reason", "Refusal") for c in choices)


def test_no_refusal_of_the_server_is_written_outside_the_table() -> None:
    """A refusal made from words of its own would reach a page in English only."""
    loose = []
    for path in sorted(SERVER.glob("*.py")):
        if path.name == "errors.py":  # where a refusal is made from its reason
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("GameError", "LimitError", "error") and \
                    not _first_argument_is_a_reason(node):
                loose.append(f"{path.name}:{node.lineno}")
    assert loose == []


def test_a_rest_refusal_carries_its_code_sentence_and_arguments(client: TestClient) -> None:
    missing = client.get("/api/games/nosuchgame")
    assert missing.status_code == 404
    assert missing.json() == {"error": "There is no such game.", "code": "no_game",
                              "text": Reason.NO_GAME.sentence, "args": {}}
    game = client.post("/api/games", json=PERSON).json()
    not_finished = client.get(f"/api/games/{game['id']}/record")
    assert not_finished.status_code == 409 and not_finished.json()["text"] == Reason.NOT_FINISHED.sentence
    bad_level = client.post("/api/games", json={"kind": "computer", "level": "godlike"})
    body = bad_level.json()
    assert bad_level.status_code == 400 and body["text"] == Reason.BAD_LEVEL.sentence
    assert body["args"]["level"] == "godlike" and "random" in body["args"]["levels"].split(", ")


def test_a_rule_refusal_over_the_websocket_carries_the_kernels_reason_and_its_card(client: TestClient
                                                                                  ) -> None:
    game = client.post("/api/games", json=PERSON).json()
    joined = client.post(f"/api/games/{game['id']}/join", json={"name": "Bob"}).json()
    with player(client, game["id"], game["token"], 0) as a, \
            player(client, game["id"], joined["token"], 1) as b:
        a.sync()
        b.sync()
        mover = a if a.my_turn else b
        absent = next(str(c) for c in CARDS if str(c) not in mover.view["hand"])
        reply = mover.request({"type": "act", "action": absent})
        # R2: a player plays only a card he holds; the kernel names the card and the seat.
        assert reply["code"] == "illegal" and reply["text"] == NOT_HELD
        assert reply["args"] == {"card": absent, "seat": mover.seat}
        wrong_turn = (b if mover is a else a).request({"type": "act", "action": "D"})
        assert wrong_turn["code"] == "not_your_turn" and wrong_turn["text"] == Reason.NOT_YOUR_TURN.sentence
        assert wrong_turn["args"] == {} and wrong_turn["reason"] == "It is not your turn."


def test_a_refusal_fills_its_sentence_in_english_for_programs() -> None:
    exc = GameError(Reason.UNFINISHED_ACCOUNT, n=5)
    assert (exc.code, exc.status, str(exc)) == ("too_many_games", 429,
                                                "You have 5 unfinished games: finish or abandon one first.")
    assert exc.args_shown == {"n": 5}
