"""Root-parallel search: helper processes that search the same decision.

Python runs one thread of bytecode at a time, so a search bot uses a second
core only through a second process. :class:`SearchPool` keeps helper
processes alive between decisions (starting one costs far more than a
decision); for each decision the bot sends its view to every helper, searches
itself meanwhile, and adds the helpers' root statistics (visits and summed
rewards of each root action) to its own before it picks an action. Each
helper has its own random generator, so the searches sample different worlds
and their union is a larger sample (root parallelisation; Chaslot, Winands
and van den Herik, 2008).

A helper is a fresh interpreter running :func:`serve` and talking over its
standard input and output (length-prefixed pickles): it needs nothing of
the parent's state, is safe to start from a program that runs threads,
and also from a daemonic worker of a process pool, which
:mod:`multiprocessing` would refuse. If a helper cannot be started or
dies, the bot searches on without it.
"""

from __future__ import annotations

import pickle
import random
import struct
import subprocess
import sys
from typing import IO, Any

from sixtysix.bots.search_config import SearchConfig
from sixtysix.game.views import View

__all__ = ["SearchPool", "Stats"]

#: Root statistics: action code -> (visits, summed rewards, summed squared rewards).
Stats = dict[int, tuple[int, float, float]]

_HEADER = struct.Struct("!I")
#: What a helper process runs (:mod:`sixtysix.bots.parallel_worker`).
_HELPER = ("import sys; from sixtysix.bots.parallel_worker import serve; "
           "serve(sys.stdin.buffer, sys.stdout.buffer)")


def _send(stream: IO[bytes], obj: object) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("the other side closed the pipe")
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the other side closed the pipe")
    return pickle.loads(data)


class SearchPool:
    """``count`` helper processes, each running an ISMCTS bot with ``config`` (on one
    process: its ``workers`` is set to 1)."""

    def __init__(self, count: int, config: SearchConfig, rng: random.Random) -> None:
        helper = config.replace(workers=1)
        self._processes: list[subprocess.Popen[bytes]] = []
        for _ in range(count):
            try:
                process = subprocess.Popen(
                    [sys.executable, "-c", _HELPER],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                assert process.stdin is not None
                _send(process.stdin, (helper, rng.getrandbits(64)))
            except OSError:
                continue
            self._processes.append(process)

    def __len__(self) -> int:
        return len(self._processes)

    def start(self, view: View, until: float | None = None) -> None:
        """Send the decision to every helper (they search while the caller does), until
        the wall clock (:func:`time.time`) reads ``until``, or for their own budget."""
        for process in list(self._processes):
            try:
                assert process.stdin is not None
                _send(process.stdin, (view, until))
            except OSError:
                self._drop(process)

    def collect(self) -> list[Stats]:
        """The helpers' root statistics for the decision sent by :meth:`start`."""
        out: list[Stats] = []
        for process in list(self._processes):
            try:
                assert process.stdout is not None
                out.append(_receive(process.stdout))
            except (EOFError, OSError, pickle.UnpicklingError):
                self._drop(process)
        return out

    def _drop(self, process: subprocess.Popen[bytes]) -> None:
        self._processes.remove(process)
        process.kill()
        process.wait()

    def close(self) -> None:
        """Stop the helpers."""
        for process in self._processes:
            try:
                assert process.stdin is not None
                _send(process.stdin, None)
                process.stdin.close()
            except OSError:
                pass
        for process in self._processes:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
        self._processes.clear()

    def __del__(self) -> None:
        self.close()
