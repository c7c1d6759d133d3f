"""Engines that flood, stop reading or answer twice never hold their host (issue 17, item 1).

Every test here is bounded in time: the host runs in a child process or a
thread given a deadline, so a host that hangs fails the test instead of
hanging the run. The engines are ``tests/engines/flooding_engine.py``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from helpers import started, wait_until_gone
from sixtysix.bots import RandomBot
from sixtysix.game.actions import Action
from sixtysix.game.match import Match
from sixtysix.game.record import replay
from sixtysix.game.views import View
from sixtysix.play.runner import play_match
from sixtysix.protocol import AsyncEngine, EngineBlocked, EngineBot, EngineFlooded
from sixtysix.protocol.messages import Error

FLOODING = Path(__file__).resolve().parent / "engines" / "flooding_engine.py"
#: Seconds a host gets for what should take a few: past this it hung.
BOUND = 120


def command(mode: str, go: int, pids: Path | None = None) -> list[str]:
    return [sys.executable, str(FLOODING), mode, str(go), *([str(pids)] if pids is not None else [])]


def spec(mode: str, go: int, pids: Path | None = None, **options: object) -> str:
    extra = "".join(f",{k}={v}" for k, v in options.items())
    return f"engine:cmd={shlex.quote(shlex.join(command(mode, go, pids)))}{extra}"


def bounded(call: Callable[[], Any]) -> Any:
    """``call()`` in a thread that must end within :data:`BOUND` seconds."""
    box: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            box.append(call())
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(BOUND)
    assert not thread.is_alive(), f"the host hung for {BOUND} s"
    if errors:
        raise errors[0]
    return box[0]


def terminate_when_started(args: list[str], pids: Path, count: int) -> None:
    """Run ``args``; once ``count`` process ids are in ``pids``, send SIGTERM: the command
    must exit with status 143 within 10 seconds."""
    process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        deadline = time.monotonic() + BOUND
        while len(started(pids)) < count:
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        sent = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=BOUND)
        stopped = time.monotonic() - sent
    finally:
        process.kill()
    assert process.returncode == 143
    assert stopped < 10, f"stopping took {stopped:.1f} s"


def run_cli(args: Sequence[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sixtysix", *args], capture_output=True, text=True,
                          timeout=BOUND, **kwargs)


# The engine floods ---------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["junk", "longline", "chatty-10000"])
def test_an_engine_that_floods_forfeits_the_hand_and_is_killed_with_its_children(
        mode: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    pids = tmp_path / "pids"
    engine = EngineBot(shlex.join(command(mode, 2, pids)), time=0.5, grace=2.0)
    with caplog.at_level(logging.WARNING):
        match: Match = bounded(lambda: play_match([engine, RandomBot(seed=1)], seed=3))
    engine.close(keep=False)
    assert match.is_over()
    # Each program floods at its second go: every hand it plays that far is forfeited,
    # and it is started again for the next.
    reasons = [r.reason for r in match.results()]
    assert reasons.count("forfeit") == len(engine.forfeits) >= 1
    assert all("it was stopped (it wrote more than 1,000 lines or 1,048,576 bytes in one turn)" in why
               for _, why in engine.forfeits)
    assert [r.getMessage() for r in caplog.records if "forfeits hand" in r.getMessage()]
    # Every program and the child each started are gone (the whole process group).
    running = started(pids)
    assert len(running) >= 4
    wait_until_gone(running)


@pytest.mark.parametrize(("mode", "limits"), [
    ("junk", {"turn_lines": 50}), ("longline", {"turn_bytes": 5000}), ("chatty-100", {"turn_lines": 99})])
def test_the_client_stops_reading_at_the_turns_limit(
        mode: str, limits: dict[str, int], tmp_path: Path) -> None:
    pids = tmp_path / "pids"

    async def scenario() -> None:
        engine = AsyncEngine(command(mode, 1, pids), **limits)
        await engine.start()
        with pytest.raises(EngineFlooded, match="in one turn"):
            await engine.go([Action.parse("9C")], timeout=BOUND / 2)
        assert not engine.alive
        with pytest.raises(EngineFlooded):  # and so on, every later call
            await engine.ping()
        await engine.quit()

    asyncio.run(asyncio.wait_for(scenario(), BOUND))
    wait_until_gone(started(pids))


def test_debugging_output_under_the_limit_costs_nothing(tmp_path: Path) -> None:
    engine = EngineBot(shlex.join(command("chatty-900", 1)), time=0.5, grace=2.0)
    match: Match = bounded(lambda: play_match([engine, RandomBot(seed=1)], seed=3))
    engine.close(keep=False)
    assert match.is_over() and engine.forfeits == []


def test_the_limits_are_options_of_the_engine_spec(tmp_path: Path) -> None:
    engine = EngineBot(shlex.join(command("chatty-20", 1)), time=0.5, grace=2.0, turn_lines=10)
    match: Match = bounded(lambda: play_match([engine, RandomBot(seed=1)], seed=3))
    engine.close(keep=False)
    assert match.results()[0].reason == "forfeit"
    assert "more than 10 lines" in engine.forfeits[0][1]
    with pytest.raises(ValueError, match="must be positive"):
        EngineBot("x", turn_bytes=0)


# The engine stops reading ----------------------------------------------------------------

def test_a_line_the_engine_does_not_read_is_given_up_on_in_time(tmp_path: Path) -> None:
    pids = tmp_path / "pids"

    async def scenario() -> float:
        engine = AsyncEngine(command("deaf", 1, pids), send_timeout=0.5)
        await engine.start()
        await engine.go([Action.parse("9C")], timeout=5)  # answered; it reads no more
        began = time.monotonic()
        with pytest.raises(EngineBlocked, match="stopped reading"):
            for _ in range(1000):  # 10 MB: more than any pipe holds
                await engine.send(Error("x", "y" * 10_000))
        took = time.monotonic() - began
        assert not engine.alive
        await engine.quit()
        return took

    took = asyncio.run(asyncio.wait_for(scenario(), BOUND))
    assert took < BOUND / 2
    wait_until_gone(started(pids))


def test_an_engine_that_stops_reading_forfeits_and_the_match_goes_on(tmp_path: Path) -> None:
    engine = EngineBot(shlex.join(command("deaf", 3)), time=0.3, grace=1.0)
    match: Match = bounded(lambda: play_match([engine, RandomBot(seed=2)], seed=5))
    engine.close(keep=False)
    assert match.is_over() and len(engine.forfeits) >= 1
    assert all("it timed out" in why or "stopped reading" in why for _, why in engine.forfeits)


# Answers are matched to the go they answer ------------------------------------------------

class Checked:
    """Seat 0: the engine, asked to play; records what it answered and the legal actions."""

    def __init__(self, bot: EngineBot) -> None:
        self.bot = bot
        self.answers: list[tuple[Action, tuple[Action, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        action = self.bot.choose(view, legal)
        self.answers.append((action, tuple(legal)))
        return action


def test_a_line_after_the_answer_is_not_taken_for_the_next_answer(caplog: pytest.LogCaptureFixture) -> None:
    checked = Checked(EngineBot(shlex.join(command("extra", 0)), time=0.5, grace=2.0))
    with caplog.at_level(logging.INFO, logger="sixtysix.protocol"):
        match: Match = bounded(lambda: play_match([checked, RandomBot(seed=1)], seed=8))
    checked.bot.close(keep=False)
    assert match.is_over() and checked.bot.forfeits == []
    # The engine answers every go with its last legal action, then writes the first:
    # had that extra line been taken as the next answer, some action would be another.
    assert all(action == legal[-1] for action, legal in checked.answers)
    ignored = [r for r in caplog.records if "after its answer; ignored" in r.getMessage()]
    assert len(ignored) >= len(checked.answers) - 1 >= 5


# The commands: they finish, save, and stop on SIGTERM -------------------------------------

def test_the_arena_finishes_against_a_flooding_engine(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    pids = tmp_path / "pids"
    done = run_cli(["arena", spec("junk", 1, pids, time=0.5), "random", "--matches", "1", "--seed", "2",
                    "--jobs", "1", "--quiet", "--bootstrap", "0", "--save", str(out)])
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    hands = [h for g in report["games"] for h in g["hands"]]
    # The program floods at its first go: it forfeits every hand, started anew for each.
    assert hands and all(h["reason"] == "forfeit" for h in hands)
    assert "lost" in done.stdout and "by forfeit" in done.stdout
    wait_until_gone(started(pids))


def test_play_finishes_and_saves_against_a_flooding_engine(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    done = run_cli(["play", "--plain", "--no-color", "--seed", "4", "--opponent", spec("junk", 1, time=0.5),
                    "--save", str(saved)], input="1\n" * 400)
    assert done.returncode == 0, done.stderr
    assert "Computer forfeited" in done.stdout
    record = json.loads(saved.read_text())
    assert all(h.get("forfeit") == 1 for h in record["hands"])
    assert replay(record).finished


def test_sigterm_stops_play_within_seconds_and_the_record_is_saved(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    pids = tmp_path / "pids"
    # The engine hangs at its first go with no time budget: only the signal ends the wait.
    hang = f"engine:cmd={shlex.quote(shlex.join(command('deaf', 1, pids)))}"
    terminate_when_started(
        [sys.executable, "-m", "sixtysix", "play", "--plain", "--no-color", "--seed", "4", "--seat", "1",
         "--opponent", hang, "--save", str(saved)], pids, 2)  # the program and its child
    record = json.loads(saved.read_text())
    assert len(record["hands"]) == 1
    wait_until_gone(started(pids))


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_stops_the_arena_within_seconds_and_its_engines_with_it(jobs: str, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    hang = f"engine:cmd={shlex.quote(shlex.join(command('deaf', 1, pids)))}"  # no budget: a minute
    terminate_when_started(
        [sys.executable, "-m", "sixtysix", "arena", hang, "random", "--matches", "4", "--jobs", jobs,
         "--quiet"],
        pids, 2 * int(jobs))  # as many programs (and children) as workers
    wait_until_gone(started(pids))
