"""The bot protocol (docs/protocol.md): messages, the engine side, the client,
EngineBot in matches and arenas, forfeits, and the hidden-information boundary."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import shutil
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import need
from sixtysix import CARDS, Hand
from sixtysix.bots import Event, RandomBot, make_bot, parse_spec
from sixtysix.cli import main
from sixtysix.game.actions import ACTIONS, Action
from sixtysix.game.match import Match
from sixtysix.game.record import dumps, loads, record_from_match, replay
from sixtysix.game.views import view_from_json
from sixtysix.play.runner import play_hand, play_match
from sixtysix.protocol import (
    AsyncEngine,
    Engine,
    EngineBot,
    EngineDied,
    ProtocolError,
    parse,
    serve,
    split_command,
)
from sixtysix.protocol import messages as m

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
FAULTY = Path(__file__).resolve().parent / "engines" / "faulty_engine.py"
OUR_ENGINE = f"{sys.executable} -m sixtysix engine"
BASH_ENGINE = f"bash {EXAMPLES / 'random_engine.sh'}"
CARD_TOKEN = re.compile(r"\b[9JQKTA][CDHS]\b")

# Messages -----------------------------------------------------------------------------

actions = st.sampled_from([a for a in ACTIONS if a is not None])
cards = st.sampled_from(CARDS)
seats = st.integers(0, 1)
winners = st.one_of(st.none(), seats)
words = st.text(st.characters(categories=("L", "N", "P", "S")), min_size=1, max_size=12)
phrases = st.lists(words, min_size=1, max_size=4).map(" ".join)
counts = st.integers(0, 10_000)
pairs = st.tuples(counts, counts)

messages = st.one_of(
    st.builds(m.Hello, st.integers(0, 99)),
    st.builds(m.SetOption, words, phrases),
    st.just(m.IsReady()),
    st.builds(m.NewMatch, seats, counts, words, st.one_of(st.none(), phrases)),
    st.builds(m.NewHand, seats, seats, cards, st.integers(0, 12), st.lists(cards, max_size=6).map(tuple)),
    st.builds(m.EventMessage, seats, actions),
    st.builds(m.Drew, cards),
    st.builds(m.Go, st.lists(actions, min_size=1, max_size=8).map(tuple), st.one_of(st.none(), counts)),
    st.builds(m.Result, winners, st.integers(0, 3), st.sampled_from(("declared", "tie", "forfeit")), pairs),
    st.builds(m.MatchResult, winners, pairs),
    st.just(m.Quit()),
    st.builds(m.Id, words, phrases),
    st.builds(m.Option, words, phrases),
    st.just(m.Ready()),
    st.just(m.ReadyOk()),
    st.builds(m.ActionReply, actions),
    st.builds(m.Info, phrases),
    st.builds(m.Error, words, phrases),
)


@settings(max_examples=300, deadline=None)
@given(messages)
def test_every_message_reads_back_as_it_was_written(message: m.Message) -> None:
    line = message.format()
    assert "\n" not in line
    assert parse(line + "\n") == message


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), seats)
def test_view_lines_carry_the_whole_view(seed: int, steps: int, seat: int) -> None:
    hand = Hand.random(seed=seed)
    for _ in range(steps):
        if hand.is_over():
            break
        legal = hand.legal_actions()
        hand.push(legal[seed % len(legal)])
    view = hand.view(seat)
    line = m.ViewMessage(view.to_json()).format()
    message = parse(line)
    assert isinstance(message, m.ViewMessage)
    assert view_from_json(message.view) == view


@pytest.mark.parametrize(("line", "code"), [
    ("hello", "unknown-command"),
    ("", "bad-message"),
    ("go", "bad-message"),
    ("go time soon legal KH", "bad-message"),
    ("go legal KX", "bad-action"),
    ("action 10h", "bad-action"),  # lenient spellings are for people, not engines
    ("action KH QH", "bad-action"),
    ("event 2 KH", "bad-message"),
    ("newhand seat 0 dealer 1 trump KH stock 12", "bad-message"),
    ("newmatch seat 0 rules classic target 7", "bad-message"),
    ("result 0 2 declared points 70", "bad-message"),
    ("view [1, 2]", "bad-message"),
    ("view {", "bad-message"),
    ("isready now", "bad-message"),
])
def test_a_bad_line_raises_an_error_with_its_code(line: str, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse(line)
    assert caught.value.code == code


def test_engine_specs_take_a_command_with_spaces_commas_and_colons() -> None:
    assert parse_spec("engine:python mybot.py") == ("engine", {"cmd": "python mybot.py"})
    assert parse_spec('engine:"python -c \'print(1)\'"') == ("engine", {"cmd": '"python -c \'print(1)\'"'})
    assert parse_spec("engine:cmd='a b,c:d',time=0.5,grace=2") == \
        ("engine", {"cmd": "'a b,c:d'", "time": 0.5, "grace": 2})
    assert split_command("'a b,c:d'") == ["a", "b,c:d"]
    assert split_command('"python mybot.py"') == ["python", "mybot.py"]
    with pytest.raises(ValueError, match="needs a command"):
        split_command("  ")
    with pytest.raises(ValueError, match="bad engine command"):
        split_command("python 'unclosed")


# The engine side -----------------------------------------------------------------------

def _serve(spec: str, lines: list[str]) -> list[str]:
    out = io.StringIO()
    assert serve(spec, io.StringIO("".join(line + "\n" for line in lines)), out) == 0
    return out.getvalue().splitlines()


def test_the_engine_answers_bad_host_lines_with_errors_and_goes_on() -> None:
    hand = Hand.random(seed=4)
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat)
    newhand = m.NewHand(seat, hand.dealer, hand.dealt_trump_card, hand.stock_size,
                        tuple(sorted(view.hand, key=lambda c: c.index)))
    out = _serve("heuristic", [
        "sixtysix 1", "go legal KH", "bogus words", "event 7 KH", "setoption depth 3",
        "setoption seed x", "setoption seed 9", "newmatch seat 0 target 7 rules classic",
        newhand.format(), "view {}", m.ViewMessage(view.to_json()).format(),
        m.Go(view.legal, 1000).format(), "quit", "isready",
    ])
    assert out[:4] == ["id name heuristic", f"id version {out[1].split()[2]}", "option seed none", "ready"]
    codes = [line.split()[1] for line in out if line.startswith("error")]
    assert codes == ["no-view", "unknown-command", "bad-message", "unknown-option", "bad-message",
                     "bad-message"]
    reply = parse(out[-1])
    assert isinstance(reply, m.ActionReply) and reply.action in view.legal
    # Nothing after quit is answered.
    assert "readyok" not in out


def test_the_engine_answers_a_view_it_cannot_use_with_an_error() -> None:
    hand = Hand.random(seed=2)
    view = hand.view(0).to_json()
    view["legal"] = ["KX"]
    out = _serve("heuristic", ["sixtysix 1", "newmatch seat 0 target 7 rules classic",
                               "newhand seat 0 dealer 1 trump KH stock 12 hand AC",
                               "view " + json.dumps(view), "go legal AC", "isready"])
    assert [line.split()[:2] for line in out[4:]] == [["error", "bad-message"], ["error", "no-view"],
                                                      ["readyok"]]


def test_a_bot_that_fails_inside_the_engine_is_an_error_line_not_a_crash(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Confused(RandomBot):
        def observe(self, event: Event) -> None:
            raise KeyError(str(event.action))

    monkeypatch.setattr("sixtysix.protocol.engine.make_bot", lambda spec, seed=None: Confused(seed=seed))
    out = _serve("random", ["sixtysix 1", "newmatch seat 0 target 7 rules classic", "event 1 KH",
                            "isready"])
    assert out[-2:] == ["error internal KeyError: 'KH'", "readyok"]


def test_the_engine_refuses_another_protocol_version_but_still_identifies() -> None:
    out = _serve("random", ["sixtysix 2"])
    assert out[0].startswith("error version") and out[-1] == "ready"


def test_sixtysix_engine_refuses_an_unknown_bot() -> None:
    assert main(["engine", "nosuchbot"]) == 2


def test_the_asyncio_client_shakes_hands_pings_and_quits() -> None:
    async def run() -> tuple[str, dict[str, str], bool]:
        engine = AsyncEngine([*split_command(OUR_ENGINE), "random"])
        await engine.start()
        await engine.ping()
        await engine.quit()
        return engine.name, engine.options, engine.alive
    assert asyncio.run(run()) == ("random", {"seed": "none"}, False)


# Whole matches ------------------------------------------------------------------------

def test_our_engine_over_the_protocol_plays_as_the_bot_in_process() -> None:
    for seed in (1, 2):
        engine = make_bot(f"engine:{OUR_ENGINE} heuristic", seed=10 + seed)
        try:
            over_pipe = play_match([make_bot("random", seed=seed), engine], seed=seed)
        finally:
            engine.close()
        in_process = play_match([make_bot("random", seed=seed), make_bot("heuristic", seed=10 + seed)],
                                seed=seed)
        assert [h.actions for h in over_pipe.hands] == [h.actions for h in in_process.hands]
        assert over_pipe.score == in_process.score and over_pipe.is_over()


def test_the_bash_example_plays_a_full_match_against_our_bot() -> None:
    need(shutil.which("bash") is not None, "bash is not installed")
    engine = EngineBot(BASH_ENGINE)
    try:
        match = play_match([engine, make_bot("heuristic", seed=3)], seed=8)
    finally:
        engine.close()
    assert match.is_over() and engine.forfeits == []
    assert all(r.reason != "forfeit" for r in match.results())
    assert engine._engine is None  # closed


def test_the_javascript_example_plays_a_full_match_and_beats_random() -> None:
    need(shutil.which("node") is not None, "Node.js is not installed (the JavaScript example)")
    engine = make_bot(f"engine:node {EXAMPLES / 'simple_engine.js'}")
    wins = 0
    try:
        for seed in range(4):
            match = play_match([engine, make_bot("random", seed=seed)], seed=seed)
            assert match.is_over()
            wins += match.winner == 0
    finally:
        engine.close()
    assert engine.forfeits == []
    assert wins >= 3


def test_a_match_against_an_engine_makes_a_valid_record() -> None:
    need(shutil.which("bash") is not None, "bash is not installed")
    engine = EngineBot(BASH_ENGINE)
    try:
        match = play_match([make_bot("random", seed=1), engine], seed=5)
    finally:
        engine.close()
    record = record_from_match(match, players=["random", "bash"])
    assert replay(loads(dumps(record))).score == match.score


# Forfeits -----------------------------------------------------------------------------

def _faulty(mode: str, tmp_path: Path, go: int = 2, **options: object) -> EngineBot:
    command = f"{sys.executable} {FAULTY} {mode} {go} {tmp_path / 'done'} {tmp_path / 'log'}"
    return EngineBot(command, **options)  # type: ignore[arg-type]


def _forfeit_match(engine: EngineBot, seat: int = 1) -> Match:
    bots = [make_bot("random", seed=2), make_bot("random", seed=2)]
    bots[seat] = engine  # type: ignore[call-overload]
    try:
        return play_match(bots, seed=6)
    finally:
        engine.close()


# The hang's budget holds for every go of the match, not only the one that hangs: it is
# kept well above what a healthy answer takes on a loaded machine (one late answer
# would be a second forfeit), the hang costing those few seconds once.
@pytest.mark.parametrize(("mode", "options", "why"), [
    ("crash", {}, "it died"),
    ("hang", {"time": 0.5, "grace": 2.5}, "it timed out"),
    ("illegal", {}, "the illegal action"),
    ("malformed", {}, "a malformed action"),
])
def test_a_failing_engine_forfeits_that_hand_and_the_match_goes_on(
        mode: str, options: dict[str, object], why: str, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    engine = _faulty(mode, tmp_path, **options)
    with caplog.at_level(logging.WARNING):
        match = _forfeit_match(engine)
    results = match.results()
    assert match.is_over() and len(results) >= 2
    first = results[0]
    # The forfeit: the hand stops, the opponent scores 3 game points.
    assert (first.reason, first.winner, first.game_points) == ("forfeit", 0, 3)
    assert [r.reason for r in results].count("forfeit") == 1
    # Later hands were played by the engine (restarted after a crash or a hang).
    assert any(seat == 1 for h in match.hands[1:] for seat in h.actors())
    assert engine.forfeits == [(1, engine.forfeits[0][1])] and why in engine.forfeits[0][1]
    lines = [r.getMessage() for r in caplog.records if "forfeits" in r.getMessage()]
    assert len(lines) == 1 and "forfeits hand 1 of the match" in lines[0] and "seat 1" in lines[0]
    assert why in lines[0]
    if mode == "illegal":
        assert "legal:" in lines[0]
        # The engine kept running, was told, and heard the result.
        log = (tmp_path / "log").read_text()
        assert "error illegal-action" in log and "result 0 3 forfeit" in log


class _AllowsASecondCrash(RandomBot):
    """Seat 0: told of the hand after the engine's first forfeit (before the engine, which
    sits after it), it removes the faulty engine's marker, so that the engine, started anew
    for that hand, crashes once more at its first ``go``."""

    def __init__(self, engine: EngineBot, marker: Path) -> None:
        super().__init__(seed=2)
        self.engine, self.marker = engine, marker

    def new_hand(self, view):  # type: ignore[no-untyped-def]
        if len(self.engine.forfeits) == 1:
            self.marker.unlink(missing_ok=True)


def test_forfeits_are_numbered_as_the_matchs_hands_from_1(tmp_path: Path,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    """Issue 34, item 12: the engine crashes in the match's first hand and, started anew,
    once more in a later one; both forfeits (and their log lines) name the hands as the
    match counts them, from 1 (they said "hand 0" twice: the count began again with the
    new program)."""
    engine = _faulty("crash", tmp_path, go=1)
    with caplog.at_level(logging.WARNING):
        try:
            match = play_match([_AllowsASecondCrash(engine, tmp_path / "done"), engine], seed=6)
        finally:
            engine.close()
    forfeited = [n for n, r in enumerate(match.results(), start=1) if r.reason == "forfeit"]
    assert len(forfeited) == 2 and forfeited[0] == 1
    assert [hand for hand, _ in engine.forfeits] == forfeited
    lines = [r.getMessage() for r in caplog.records if "forfeits" in r.getMessage()]
    assert [re.findall(r"hand (\d+)", line) for line in lines] == [[str(n)] for n in forfeited]


def test_a_forfeit_is_in_the_record_and_replays(tmp_path: Path) -> None:
    match = _forfeit_match(_faulty("crash", tmp_path))
    text = dumps(record_from_match(match))
    obj = json.loads(text)
    assert obj["hands"][0]["forfeit"] == 1
    assert all("forfeit" not in h for h in obj["hands"][1:])
    replayed = replay(loads(text))
    assert replayed.score == match.score
    assert replayed.to_json()["hands"][0]["reason"] == "forfeit"
    obj["hands"][0]["forfeit"] = 2
    with pytest.raises(ValueError, match="forfeit must be seat 0 or 1"):
        replay(obj)


def test_lines_that_are_no_message_get_an_error_and_are_ignored(tmp_path: Path) -> None:
    engine = _faulty("noise", tmp_path)
    match = _forfeit_match(engine)
    assert engine.forfeits == [] and "forfeit" not in [r.reason for r in match.results()]
    assert "error unknown-command" in (tmp_path / "log").read_text()


def test_an_engine_that_cannot_start_is_an_error_at_once() -> None:
    engine = EngineBot("no-such-engine-program --x")
    with pytest.raises(OSError, match="cannot start"):
        play_match([engine, make_bot("random")], seed=1)


# Hidden information -------------------------------------------------------------------

def _visible(hand: Hand, seat: int) -> set[str]:
    view = hand.view(seat)
    seen = set(view.hand) | set(view.played) | set(view.known_opponent_cards()) | {view.dealt_trump_card}
    seen |= {c for marriage in view.marriages for c in marriage.cards}
    if view.exchange is not None:
        seen.add(view.exchange[1])
    if view.stock_bottom is not None:
        seen.add(view.stock_bottom)
    return {str(c) for c in seen}


def test_no_line_to_an_engine_names_a_card_its_seat_cannot_see(monkeypatch: pytest.MonkeyPatch) -> None:
    need(shutil.which("bash") is not None, "bash is not installed")
    live: list[Hand] = []
    checked = [0]
    send = EngineBot._send

    def spying(self: EngineBot, message: m.Message) -> None:
        line = message.format()
        hidden = set(CARD_TOKEN.findall(line)) - _visible(live[-1], self._seat)
        assert not hidden, f"{line!r} shows {hidden} to seat {self._seat}"
        checked[0] += 1
        send(self, message)

    monkeypatch.setattr(EngineBot, "_send", spying)
    engines = [EngineBot(BASH_ENGINE), EngineBot(BASH_ENGINE)]
    try:
        for seed in range(12):
            match = Match(seed=seed)
            while not match.is_over():
                live.append(match.deal())
                play_hand(live[-1], engines)
    finally:
        for engine in engines:
            engine.close()
    assert len(live) > 40 and checked[0] > 1000


# The arena and play ---------------------------------------------------------------------

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_arena_takes_an_engine_spec(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    need(shutil.which("bash") is not None, "bash is not installed")
    spec = f"engine:{BASH_ENGINE}"
    assert main(["arena", spec, "random", "--matches", "2", "--jobs", jobs, "--json",
                 "--quiet", "--bootstrap", "0"]) == 0
    report = json.loads(capsys.readouterr().out)
    games = report["games"]
    assert len(games) == 4 and {tuple(g["specs"]) for g in games} == {(spec, "random"), ("random", spec)}
    assert all(g["winner"] is not None for g in games)
    assert all(h["reason"] != "forfeit" for g in games for h in g["hands"])


def test_the_arena_reports_forfeits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"engine:{sys.executable} {FAULTY} crash 1 {tmp_path / 'done'} {tmp_path / 'log'}"
    assert main(["arena", spec, "random", "--matches", "1", "--jobs", "1", "--quiet",
                 "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    assert f"Forfeits: {spec} lost 1 hand by forfeit" in out
    log = (tmp_path / "log").read_text()
    assert "target 7 rules classic opponent random\n" in log


def test_play_against_an_engine_in_plain_lines(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    need(shutil.which("bash") is not None, "bash is not installed")
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert main(["play", "--plain", "--no-color", "--seed", "4", "--opponent", f"engine:{BASH_ENGINE}"]) == 0
    out = capsys.readouterr().out
    assert "wins the match" in out or "win the match" in out


def test_actions_the_engine_sends_are_strict() -> None:
    assert m.ActionReply.parse_line("action KH+").action == Action.parse("KH+")
    with pytest.raises(ProtocolError):
        m.ActionReply.parse_line("go legal KH")


def test_a_healthy_engine_is_kept_for_the_next_game_of_the_process(tmp_path: Path) -> None:
    for seed in (1, 2):
        engine = _faulty("noise", tmp_path, go=10_000, seed=seed)  # never misbehaves
        play_match([engine, make_bot("random", seed=seed)], seed=seed)
        engine.close()
    _faulty("noise", tmp_path, go=10_000, limit=5.0).close()  # never started: nothing to keep
    log = (tmp_path / "log").read_text().splitlines()
    assert log.count("sixtysix 1") == 1
    assert sum(line.startswith("newmatch") for line in log) == 2
    assert not any(line.startswith("setoption") for line in log)  # it offers no option


def test_closing_an_engine_from_its_own_thread_does_not_deadlock() -> None:
    # What a finalizer run by the garbage collector in the engine's thread does.
    engine = Engine([*split_command(OUR_ENGINE), "random"])
    engine.start()
    closed = threading.Event()
    engine._loop.call_soon_threadsafe(lambda: (engine.close(), closed.set()))
    assert closed.wait(30)
    engine._thread.join(30)
    assert not engine._thread.is_alive() and not engine.alive
    with pytest.raises(EngineDied):
        engine.ping()


def test_play_goes_on_after_the_engine_forfeits_and_saves_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    spec = f"engine:{sys.executable} {FAULTY} crash 2 {tmp_path / 'done'}"
    saved = tmp_path / "game.json"
    assert main(["play", "--plain", "--no-color", "--seed", "4", "--opponent", spec,
                 "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "Computer forfeited (the program failed). You win the hand: 3 game points." in out
    assert "win the match" in out
    record = json.loads(saved.read_text())
    assert [h.get("forfeit") for h in record["hands"]].count(1) == 1
    assert replay(record).finished
