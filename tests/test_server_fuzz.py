"""Fuzzing the message handler (issue 5, bad input): whatever a client sends, it gets a
clear error or its legal action is applied; a refused message changes nothing."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import need_module

need_module("sqlalchemy", "the web extra")

from sixtysix.game.record import dumps  # noqa: E402
from sixtysix.rules import Rules  # noqa: E402
from sixtysix.server.games import Game, GameManager  # noqa: E402
from sixtysix.server.protocol import Act, ProtocolError, parse_message  # noqa: E402
from sixtysix.server.storage import Storage  # noqa: E402

STORAGE = None


def manager() -> GameManager:
    global STORAGE
    if STORAGE is None:
        STORAGE = Storage("sqlite://")
    return GameManager(STORAGE)


def person_game(m: GameManager) -> Game:
    game, _ = m.create(rules=Rules.parse("classic,target=2"), kind="person", name="A")
    m.join(game.id, "B")
    return game


def snapshot(game: Game) -> tuple[Any, ...]:
    return (dumps(game.record()), game.status, tuple(game.tokens), tuple(game.names), game.rematch,
            game.match.score)


tokens = st.sampled_from(["KH", "KH+", "QS", "X", "C", "D", "66", "66+H", "9C", "TD", "AS", "kh", "", "ZZ",
                          "66+", "+", "KH++", "10H"])
scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 20), st.floats(allow_nan=True),
                    st.text(max_size=12), tokens)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) |
                      st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(["act", "ping", "rematch", "hello", "acts", "", "ACT"])},
    optional={"action": st.one_of(tokens, values), "hand": st.one_of(st.integers(-2, 3), values),
              "index": st.one_of(st.integers(-2, 40), values), "token": values, "extra": values},
)
raw_messages = st.one_of(
    messages.map(json.dumps),
    values.map(json.dumps),
    st.text(max_size=200),
    st.binary(max_size=200),
    st.text(min_size=1025, max_size=1200),
)


@settings(max_examples=600)
@given(steps=st.lists(st.tuples(st.sampled_from([0, 1, None]), raw_messages, st.booleans()),
                      min_size=1, max_size=25))
def test_the_message_handler_refuses_bad_messages_and_changes_nothing(
        steps: list[tuple[int | None, str | bytes, bool]]) -> None:
    m = manager()
    game = person_game(m)
    for seat, raw, play_legal in steps:
        hand = game.hand
        assert hand is not None
        if play_legal and not game.over:
            # Keep the game moving, so that messages meet many states.
            mover = hand.to_act
            assert mover is not None
            legal = [str(a) for a in hand.legal_actions()]
            raw = json.dumps({"type": "act", "action": legal[len(steps) % len(legal)]})
            seat = mover
        before = snapshot(game)
        legal_before = [str(a) for a in hand.legal_actions()]
        to_act = hand.to_act
        try:
            message = parse_message(raw)
        except ProtocolError as exc:
            assert str(exc) and exc.code
            assert snapshot(game) == before
            continue
        reply = m.handle(game, seat, message)
        if reply is not None:
            assert reply["type"] in ("error", "pong")
            if reply["type"] == "error":
                assert reply["reason"] and reply["code"]
            assert snapshot(game) == before
        else:
            # Accepted: only a legal action by the seat to act (or a rematch after the end).
            if isinstance(message, Act):
                assert seat == to_act and str(message.action) in legal_before
                assert game.record().hands[-1 if hand is game.hand else -2].actions[-1] == message.action
            else:
                assert before[-1] == game.match.score and game.over


@settings(max_examples=300)
@given(raw=raw_messages)
def test_parse_message_names_what_is_wrong(raw: str | bytes) -> None:
    try:
        parse_message(raw)
    except ProtocolError as exc:
        assert exc.code in ("bad_json", "bad_message", "unknown_type", "bad_action", "too_large", "bad_token")
        assert len(str(exc)) < 200


# The same over the WebSocket, through the whole server: fuzz/targets.py (``websocket``),
# run by tests/test_fuzz.py.
