"""The work of iterated self-play that runs on the arena's executors (worker processes
or a Dask cluster, :func:`sixtysix.arena.executor.open_executor`): a generation's
self-play chunks and the games of its gate. No torch here.

A task carries the networks it needs as bytes (:class:`Weights`), never as a path of
the machine that sent it: a worker writes each network once to its own temporary
directory, named by its digest, and gives the search that file. So a Dask worker on
another machine needs the package and this module, not the run directory.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import importlib
import json
import os
import pickle
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import training.config
import training.generate
from sixtysix.arena.executor import GameResult, play_games
from sixtysix.arena.schedule import Game
from training.config import GenerateConfig
from training.generate import make_chunk

__all__ = ["Deadline", "Weights", "Workers", "play_gate", "run_tasks", "search_spec", "selfplay_chunk"]

#: The network name of the package's own weights (no bytes to send).
SHIPPED = "shipped"


@dataclass(frozen=True)
class Weights:
    """A network a task needs: its name in the run (``gen-03``, ``shipped``, ``start``)
    and the bytes of its weights file (``None`` for the shipped network)."""

    name: str
    data: bytes | None = None

    @classmethod
    def read(cls, name: str, path: Path) -> Weights:
        return cls(name, path.read_bytes())

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest() if self.data is not None else SHIPPED

    def local(self) -> str:
        """What the search's ``network=`` takes on this machine: ``shipped``, or a file in
        this machine's temporary directory written once (whole, then renamed)."""
        if self.data is None:
            return SHIPPED
        folder = Path(tempfile.gettempdir()) / "sixtysix-training-nets"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.digest}.npz"
        if not path.exists():
            partial = folder / f"{self.digest}.partial-{os.getpid()}-{threading.get_ident()}.npz"
            partial.write_bytes(self.data)
            os.replace(partial, path)
        return str(path)


def search_spec(bot: str, net_options: str, network: str | None) -> str:
    """The search ``bot`` guided by ``network`` (a name or a file) with ``net_options``;
    ``bot`` itself without a network."""
    if network is None:
        return bot
    extra = ",".join(part for part in (net_options, f"network={network}") if part)
    return f"{bot}{',' if ':' in bot else ':'}{extra}"


def selfplay_chunk(config: GenerateConfig, net_options: str, network: Weights | None, seed: int,
                   index: int) -> dict[str, npt.NDArray[Any]]:
    """Chunk ``index`` of a generation seeded ``seed``: :func:`training.generate.make_chunk`
    with the search guided by ``network``. Its ``meta`` names the network by its name and
    digest (not by the worker's file)."""
    local = search_spec(config.bot, net_options, network.local() if network else None)
    arrays = make_chunk(replace(config, bot=local), seed, index)
    meta = json.loads(str(arrays["meta"]))
    meta["generate"]["bot"] = search_spec(config.bot, net_options, network.name if network else None)
    meta["network"] = None if network is None else {"name": network.name, "sha256": network.digest}
    arrays["meta"] = np.array(json.dumps(meta))
    return arrays


def play_gate(games: Sequence[Game], networks: Sequence[Weights]) -> list[GameResult]:
    """Play gate games whose specs name ``networks`` (``network=NAME``) with the files
    this worker holds; the results keep the games as scheduled."""
    files = {f"network={w.name}": f"network={w.local()}" for w in networks}

    def localize(spec: str) -> str:
        parts = [files.get(part, part) for part in spec.split(",")]
        head, _, first = parts[0].partition(":")
        if first:
            parts[0] = f"{head}:{files.get(first, first)}"
        return ",".join(parts)

    local = [replace(g, specs=(localize(g.specs[0]), localize(g.specs[1]))) for g in games]
    return [replace(result, game=game) for result, game in zip(play_games(local), games, strict=True)]


class Deadline:
    """``--stop-after``: the time after which no new work starts (``None``: never)."""

    def __init__(self, seconds: float | None) -> None:
        self.at = None if seconds is None else time.monotonic() + seconds

    def passed(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def left(self) -> float | None:
        return None if self.at is None else max(0.0, self.at - time.monotonic())


#: A task: a function and its arguments.
Task = tuple[Callable[..., Any], tuple[Any, ...]]


def run_tasks(executor: concurrent.futures.Executor, tasks: Sequence[Task],
              on_result: Callable[[int, Any], None], *, window: int, deadline: Deadline) -> int:
    """Run ``tasks`` (function, arguments) on ``executor``, at most ``window`` at a time,
    handing each result to ``on_result(number, result)`` as it comes; once ``deadline``
    has passed no task starts (the first always does) and those waiting are cancelled.
    Returns how many were done."""
    pending: dict[concurrent.futures.Future[Any], int] = {}
    done = 0
    queue = list(enumerate(tasks))
    while queue or pending:
        while queue and len(pending) < window and not (deadline.passed() and (done or pending)):
            number, (function, args) = queue.pop(0)
            pending[executor.submit(function, *args)] = number
        if deadline.passed():
            queue.clear()
            for future in list(pending):
                if future.cancel():
                    del pending[future]
        if not pending:
            break
        ready, _ = concurrent.futures.wait(list(pending), return_when=concurrent.futures.FIRST_COMPLETED)
        for future in ready:
            on_result(pending.pop(future), future.result())
            done += 1
    return done



class _Call:
    """Pickles as the call ``function(*args)``: unpickling it runs the task."""

    def __init__(self, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.function, self.args = function, args

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        return self.function, self.args


def portable(task: Task) -> Task:
    """``task`` as ``pickle.loads`` of bytes whose unpickling runs it, the code of
    ``training/`` inside them: a Dask worker (and its scheduler) needs only the package
    installed, not this repository (Dask pickles a module's functions by reference)."""
    # Imported by name: Dask's pickler, an optional dependency (the cluster extra).
    cloudpickle: Any = importlib.import_module("cloudpickle")
    for module in (training.config, training.generate, importlib.import_module(__name__)):
        cloudpickle.register_pickle_by_value(module)
    return pickle.loads, (cloudpickle.dumps(_Call(*task)),)


@dataclass(frozen=True)
class Workers:
    """Where tasks run: an executor of :func:`sixtysix.arena.executor.open_executor`
    for ``jobs`` workers, or (``cluster``) of a Dask cluster, which takes every task at
    once and is sent the code with them."""

    executor: concurrent.futures.Executor
    jobs: int
    cluster: bool = False

    def run(self, tasks: Sequence[Task], on_result: Callable[[int, Any], None], deadline: Deadline) -> int:
        """:func:`run_tasks` on these workers."""
        if self.cluster:
            return run_tasks(self.executor, [portable(t) for t in tasks], on_result,
                             window=max(1, len(tasks)), deadline=deadline)
        return run_tasks(self.executor, tasks, on_result, window=2 * self.jobs, deadline=deadline)
