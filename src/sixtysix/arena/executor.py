"""Playing the games of an arena on a :class:`concurrent.futures.Executor`.

Work crosses process (or machine) boundaries as :class:`~.schedule.Game`
values: bot specs and seeds, never bot objects. :func:`play_games` is the
function the workers run; it builds fresh bots for every game.

Three kinds of executor are provided by :func:`open_executor`:

* one job: :class:`InlineExecutor` plays each chunk in the calling process
  when it is submitted (easy to debug, no pickling);
* several jobs: a :class:`~concurrent.futures.ProcessPoolExecutor`;
* ``cluster=ADDRESS``: the executor of a Dask ``distributed`` client
  connected to a scheduler (``local`` starts a cluster on this machine).

Whatever the executor, results are collected as they complete (for the
progress display) and then put back in schedule order, so the outcome never
depends on the number of workers.

>>> from sixtysix.arena.schedule import schedule
>>> games = schedule(["random", "random"], deals=1, seed=3)
>>> with open_executor(1) as executor:
...     results = run_games(games, executor)
>>> [r.game.swap for r in results], all(r.hands for r in results)
([0, 1], True)
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import importlib
import logging
import multiprocessing
import os
import signal
import socket
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any, ParamSpec, TypeVar
from urllib.parse import urlsplit

from sixtysix.arena.schedule import Game
from sixtysix.bots import Bot, make_bot
from sixtysix.bots.levels import LearnedWarning
from sixtysix.extras import install_command
from sixtysix.game.hand import FORFEIT_POINTS, Hand
from sixtysix.game.result import HandResult
from sixtysix.play.runner import play_hand, play_match
from sixtysix.protocol.client import kill_all
from sixtysix.rules import Rules

__all__ = [
    "GameResult",
    "HandOutcome",
    "InlineExecutor",
    "chunked",
    "open_executor",
    "play_game",
    "play_games",
    "run_games",
]

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

#: Seconds to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = 10.0


@dataclass(frozen=True)
class HandOutcome:
    """How one hand of a game ended; seats as in the game."""

    dealer: int
    winner: int | None
    game_points: int
    bonus: int
    reason: str
    points: tuple[int, int]

    @classmethod
    def from_result(cls, dealer: int, result: HandResult) -> HandOutcome:
        return cls(dealer, result.winner, result.game_points, result.bonus, result.reason,
                   result.points)

    @classmethod
    def from_json(cls, obj: Any) -> HandOutcome:
        """The inverse of :meth:`to_json`."""
        winner = obj["winner"]
        return cls(int(obj["dealer"]), None if winner is None else int(winner), int(obj["game_points"]),
                   int(obj["bonus"]), str(obj["reason"]), (int(obj["points"][0]), int(obj["points"][1])))

    def scored(self, seat: int) -> int:
        """Game points this hand gave ``seat`` (tie bonus included)."""
        return self.game_points + self.bonus if self.winner == seat else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "winner": self.winner,
            "game_points": self.game_points,
            "bonus": self.bonus,
            "reason": self.reason,
            "points": list(self.points),
        }


@dataclass(frozen=True)
class GameResult:
    """A played game: the winning seat (``None`` for a tie), the game points of
    each seat and every hand."""

    game: Game
    winner: int | None
    score: tuple[int, int]
    hands: tuple[HandOutcome, ...]

    @property
    def winner_bot(self) -> int | None:
        """The number of the bot that won, or ``None``."""
        return None if self.winner is None else self.game.bots[self.winner]

    @classmethod
    def from_json(cls, obj: Any, *, unit: str, rules: str) -> GameResult:
        """The inverse of :meth:`to_json` (the unit and rules are the run's)."""
        winner = obj["winner"]
        return cls(Game.from_json(obj, unit=unit, rules=rules), None if winner is None else int(winner),
                   (int(obj["score"][0]), int(obj["score"][1])),
                   tuple(HandOutcome.from_json(h) for h in obj["hands"]))

    def to_json(self) -> dict[str, Any]:
        out = self.game.to_json()
        out.update({
            "winner": self.winner,
            "winner_bot": self.winner_bot,
            "score": list(self.score),
            "hands": [h.to_json() for h in self.hands],
        })
        return out


def play_game(game: Game) -> GameResult:
    """Build the two bots of ``game`` from their specs and play it."""
    if game.engine == "schnapsen":
        return _play_on_course_engine(game)
    bots = [make_bot(spec, seed=seed) for spec, seed in zip(game.specs, game.bot_seeds, strict=True)]
    for seat, bot in enumerate(bots):
        if hasattr(bot, "opponent"):  # an external engine is told whom it plays
            bot.opponent = game.specs[1 - seat]
    try:
        return _play_game(game, bots)
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()  # an external engine's program quits


def _play_game(game: Game, bots: list[Bot]) -> GameResult:
    rules = Rules.parse(game.rules)
    if game.unit == "match":
        match = play_match(bots, seed=game.deal_seed, rules=rules)
        outcomes = tuple(HandOutcome.from_result(hand.dealer, result)
                         for hand, result in zip(match.hands, match.results(), strict=True))
        return GameResult(game, match.winner, match.score, outcomes)
    hand = play_hand(Hand.random(seed=game.deal_seed, dealer=game.board % 2, rules=rules), bots)
    result = hand.result()
    assert result is not None
    outcome = HandOutcome.from_result(hand.dealer, result)
    return GameResult(game, result.winner, (outcome.scored(0), outcome.scored(1)), (outcome,))


def _play_on_course_engine(game: Game) -> GameResult:
    """One deal on the engine of the ``schnapsen`` package: seat 0 leads the first
    trick, and our bots play through the bridge under the preset ``course``."""
    from sixtysix.compat.schnapsen import BridgeError, make_player, play_deal

    players = [make_player(spec, seed) for spec, seed in zip(game.specs, game.bot_seeds, strict=True)]
    try:
        deal = play_deal(players, game.deal_seed)
    except BridgeError as exc:
        # Our bot's game could not go on (see the message): it forfeits this deal, as
        # an external engine that fails does, and the rest of the arena is played.
        seat = next((s for s, spec in enumerate(game.specs) if not spec.startswith("schnapsen:")), 0)
        log.warning("%s forfeits deal %d (seed %d): %s", game.specs[seat], game.board, game.deal_seed, exc)
        outcome = HandOutcome(1, 1 - seat, FORFEIT_POINTS, 0, "forfeit", (0, 0))
        return GameResult(game, 1 - seat, (outcome.scored(0), outcome.scored(1)), (outcome,))
    outcome = HandOutcome(1, deal.winner, deal.game_points, 0, deal.reason, deal.points)
    return GameResult(game, deal.winner, (outcome.scored(0), outcome.scored(1)), (outcome,))


def play_games(games: Sequence[Game]) -> list[GameResult]:
    """Play a chunk of games (the unit of work sent to a worker)."""
    return [play_game(game) for game in games]


def chunked(games: Sequence[Game], jobs: int) -> list[list[Game]]:
    """Split the schedule into chunks: big enough that sending them costs
    little, small enough that the workers share the load and the progress
    display moves (about sixteen chunks per worker, at most 32 games each).
    """
    size = max(1, min(32, len(games) // (16 * max(1, jobs))))
    return [list(games[i:i + size]) for i in range(0, len(games), size)]


class InlineExecutor(concurrent.futures.Executor):
    """An executor that runs each call at once, in the calling thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._shutdown = False

    def submit(self, fn: Callable[P, T], /, *args: P.args,
               **kwargs: P.kwargs) -> concurrent.futures.Future[T]:
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot submit after shutdown")
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to whoever asks for the result
            future.set_exception(exc)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._shutdown = True


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail fast, with :class:`OSError`, when nothing listens at a TCP address.

    Addresses of other schemes are left to Dask.
    """
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme != "tcp":
        return
    try:
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise ValueError(f"bad cluster address {address!r}: {exc}") from None
    if not host or port is None:
        raise ValueError(f"bad cluster address {address!r}: expected tcp://HOST:PORT")
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        raise OSError(f"cannot reach the Dask scheduler at {address}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def _dask_executor(address: str, jobs: int) -> Iterator[concurrent.futures.Executor]:
    try:
        # Imported by name: an optional dependency whose constructors carry no annotations.
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise ValueError(f"--cluster needs Dask: {install_command('cluster')}") from None
    with contextlib.ExitStack() as stack:
        if address == "local":
            # ":0": the scheduler serves HTTP even without a dashboard; any free port will do.
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0"))
            client = stack.enter_context(distributed.Client(cluster))
        else:
            check_reachable(address)
            try:
                client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
            except (OSError, ValueError) as exc:
                raise OSError(f"cannot use the Dask scheduler at {address}: {exc}") from None
            stack.enter_context(client)
        executor = client.get_executor(pure=False)
        yield executor


@contextlib.contextmanager
def open_executor(jobs: int, cluster: str | None = None) -> Iterator[concurrent.futures.Executor]:
    """The executor for ``jobs`` workers (or a Dask cluster), shut down on exit."""
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {jobs}")
    if cluster is not None:
        with _dask_executor(cluster, jobs) as executor:
            yield executor
    elif jobs == 1:
        with InlineExecutor() as inline:
            yield inline
    else:
        # Workers are started from a clean server process (or spawned), never
        # forked from this one, which may be running a progress display thread.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                                      initializer=_worker_signals)
        try:
            yield pool
        except BaseException:
            # Interrupted (Ctrl-C, SIGTERM): stop now, not after the games being played.
            # The workers exit on SIGTERM (closing their engines); nothing waits for them.
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(OSError, ValueError):
                    process.terminate()
            raise
        pool.shutdown(wait=True)


def _worker_signals() -> None:
    """In an arena worker: SIGTERM ends the process at once, killing the engine programs
    it runs (a game half played is of no use); Ctrl-C is the parent's to handle. A
    level playing without its learned network was said once by the parent, which made
    every bot before the games: the workers do not repeat it."""
    warnings.simplefilter("ignore", LearnedWarning)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_stop)


def _worker_stop(signum: int, frame: FrameType | None) -> None:
    kill_all()
    os._exit(128 + signum)


def run_games(
    games: Sequence[Game],
    executor: concurrent.futures.Executor,
    *,
    jobs: int = 1,
    on_done: Callable[[Sequence[GameResult]], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` on ``executor``; ``on_done`` hears of each finished
    chunk. The results come back in the order of ``games``."""
    chunks = chunked(games, jobs)
    futures: list[concurrent.futures.Future[list[GameResult]]] = []
    results: dict[int, list[GameResult]] = {}
    index: dict[int, int] = {}

    def collect(future: concurrent.futures.Future[list[GameResult]]) -> None:
        done = future.result()
        results[index[id(future)]] = done
        if on_done is not None:
            on_done(done)

    try:
        for i, chunk in enumerate(chunks):
            future = executor.submit(play_games, chunk)
            futures.append(future)
            index[id(future)] = i
            if isinstance(executor, InlineExecutor):
                collect(future)  # played on submission: report it now
        pending = [f for i, f in enumerate(futures) if i not in results]
        for future in concurrent.futures.as_completed(pending):
            collect(future)
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    return [result for i in range(len(chunks)) for result in results[i]]
