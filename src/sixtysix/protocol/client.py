"""The host's side: run an engine program and talk to it.

:class:`AsyncEngine` (asyncio) starts the program, shakes hands and exchanges
messages with time limits; :class:`Engine` is the same for synchronous code
(it runs the asyncio side in a thread of its own).

>>> import sys
>>> engine = Engine([sys.executable, "-m", "sixtysix", "engine", "random"])
>>> engine.start()
>>> engine.name, "seed" in engine.options
('random', True)
>>> engine.ping()
>>> engine.close()
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import queue
import shutil
import signal
import sys
import threading
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

from sixtysix.game.actions import Action
from sixtysix.protocol.messages import (
    ActionReply,
    Error,
    Go,
    Hello,
    Id,
    Info,
    IsReady,
    Message,
    Option,
    ProtocolError,
    Quit,
    Ready,
    ReadyOk,
    parse,
)

__all__ = ["AsyncEngine", "Engine", "EngineBlocked", "EngineDied", "EngineError", "EngineFlooded",
           "EngineStartError", "EngineTimeout", "IllegalReply", "kill_all"]

log = logging.getLogger("sixtysix.protocol")
T = TypeVar("T")

#: Seconds an engine has to answer the handshake or a ping.
START_TIMEOUT = 10.0
#: Seconds an engine has to exit after ``quit``.
QUIT_TIMEOUT = 2.0
#: Longest line accepted from an engine (a view line from the host is about 2 kB).
LINE_LIMIT = 1 << 16
#: The most lines an engine may write in one turn (from one ``go`` to the next:
#: its answer, ``info`` lines, debugging output), and the most bytes.
TURN_LINES = 1000
TURN_BYTES = 1 << 20
#: Seconds a line to an engine may wait for the engine to read it (its input full).
SEND_TIMEOUT = 5.0
#: Bad lines of one turn answered with ``error``; later ones are ignored unanswered.
REFUSALS = 8
#: Seconds between two looks at a signal while a synchronous call waits for an engine.
_WAIT_STEP = 0.25
#: Engines run in a process group of their own, killed whole (POSIX).
_GROUPS = sys.platform != "win32"
#: The program that runs an engine so that every process it starts ends with it
#: (:mod:`sixtysix.protocol.reaper`: Linux, with ``/proc``).
REAPER = Path(__file__).with_name("reaper.py")
_REAPED = sys.platform == "linux" and Path("/proc/self/stat").exists()


class EngineError(RuntimeError):
    """Something went wrong with an engine program."""


class EngineDied(EngineError):
    """The engine exited, closed its output or could not be started."""


class EngineStartError(EngineError, OSError):
    """An engine that could not be started at all (a wrong command, say)."""


class EngineTimeout(EngineError):
    """The engine did not answer in time."""


class IllegalReply(EngineError):
    """The engine answered ``go`` with a malformed or illegal action."""


class EngineFlooded(EngineError):
    """The engine wrote more in one turn than a host takes (:data:`TURN_LINES`, :data:`TURN_BYTES`)."""


class EngineBlocked(EngineError):
    """The engine stopped reading: a line to it could not be written within :data:`SEND_TIMEOUT`."""


#: The end of the engine's output, as the reader task hands it on.
_END = object()

#: The engine programs this process runs and has not stopped yet (see :func:`kill_all`).
_RUNNING: set[asyncio.subprocess.Process] = set()


@atexit.register
def kill_all() -> None:
    """Kill every engine program of this process, with what each started, at once;
    safe in a signal handler (an arena worker told to stop). Run at exit too: no
    program outlives its host, whatever stopped the host mid-call."""
    for process in list(_RUNNING):
        AsyncEngine._kill_group(process)


class AsyncEngine:
    """An engine program spoken to over its standard input and output.

    ``command`` is the program and its arguments (no shell). The engine's
    standard error is passed through to ours.

    Nothing an engine does can hold its host for longer than the deadline of
    the call being made: its output is read as it comes by a task of its own,
    at most ``turn_lines`` lines and ``turn_bytes`` bytes from one ``go`` to
    the next (:class:`EngineFlooded` past that); a line to it that cannot be
    written within ``send_timeout`` seconds raises :class:`EngineBlocked`. In
    either case the program is killed with every process it started (it runs
    in a process group of its own), and so is one that does not exit after
    ``quit``.
    """

    def __init__(self, command: Sequence[str], *, label: str | None = None,
                 turn_lines: int = TURN_LINES, turn_bytes: int = TURN_BYTES,
                 send_timeout: float = SEND_TIMEOUT) -> None:
        if not command:
            raise ValueError("an engine needs a command")
        if turn_lines < 1 or turn_bytes < 1 or send_timeout <= 0:
            raise ValueError("an engine's output limits and send time-out must be positive")
        self.command = list(command)
        self.label = label or " ".join(command)
        self.name = self.label
        self.ids: dict[str, str] = {}
        self.options: dict[str, str] = {}
        self.turn_lines = turn_lines
        self.turn_bytes = turn_bytes
        self.send_timeout = send_timeout
        self._process: asyncio.subprocess.Process | None = None
        self._lines: asyncio.Queue[object] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None
        #: Why the engine's output ended early (it flooded), if it did.
        self._failure: EngineError | None = None
        #: Lines and bytes read since the turn began, and the bad lines answered in it.
        self._turn = [0, 0, 0]
        #: An ``isready`` was sent after an answer and its ``readyok`` has not come yet:
        #: what comes before it belongs to an earlier ``go``.
        self._syncing = False

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.returncode is None \
            and self._failure is None

    async def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the program and shake hands (``sixtysix 1`` ... ``ready``)."""
        command = self.command
        if _REAPED:
            if shutil.which(command[0]) is None:  # the reaper would say so only on its standard error
                raise EngineDied(f"cannot start {self.label!r}: no program {command[0]!r} to run")
            command = [sys.executable, "-I", "-S", str(REAPER), str(os.getpid()), *command]
        try:
            self._process = await asyncio.create_subprocess_exec(
                *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                limit=LINE_LIMIT, start_new_session=_GROUPS)
        except OSError as exc:
            raise EngineDied(f"cannot start {self.label!r}: {exc.strerror or exc}") from None
        _RUNNING.add(self._process)
        self._reader = asyncio.create_task(self._read(self._process))
        self._new_turn()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        await self.send(Hello(), timeout)
        while True:
            message = await self._receive_until(deadline, "the handshake")
            if isinstance(message, Id):
                self.ids[message.key] = message.value
                if message.key == "name":
                    self.name = message.value
            elif isinstance(message, Option):
                self.options[message.name] = message.default
            elif isinstance(message, Ready):
                return
            elif isinstance(message, Error):
                raise EngineDied(f"{self.label!r} refused the handshake: {message.code} {message.text}")
            else:
                await self._unexpected(message)

    def _new_turn(self) -> None:
        self._turn = [0, 0, 0]

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        """Read the engine's output as it comes (so it never blocks on a full pipe while
        the host writes to it), line by line into the queue, up to the turn's limits."""
        assert process.stdout is not None
        while True:
            size = LINE_LIMIT
            try:
                raw = await process.stdout.readline()
            except ValueError:  # a line over the limit (its first LINE_LIMIT bytes are dropped)
                item: object = ProtocolError("bad-message", f"a line longer than {LINE_LIMIT} bytes")
            except (ConnectionError, OSError):
                item = _END
            else:
                item, size = (raw, len(raw)) if raw else (_END, 0)
            if item is _END:
                self._lines.put_nowait(_END)
                return
            self._turn[0] += 1
            self._turn[1] += size
            if self._turn[0] > self.turn_lines or self._turn[1] > self.turn_bytes:
                self._failure = EngineFlooded(
                    f"it wrote more than {self.turn_lines:,} lines or {self.turn_bytes:,} bytes "
                    f"in one turn")
                log.warning("engine %r: %s; stopped", self.name, self._failure)
                self._kill_group(process)
                self._lines.put_nowait(_END)
                await self._drain(process.stdout)
                return
            self._lines.put_nowait(item)

    @staticmethod
    async def _drain(stdout: asyncio.StreamReader) -> None:
        """Read what a killed engine wrote before it died, to the end of the pipe, and drop
        it: the pipe then closes with the process (its transport is not left open)."""
        chunk = b"\0"
        with contextlib.suppress(ConnectionError, OSError):
            while chunk:
                chunk = await stdout.read(LINE_LIMIT)

    async def send(self, message: Message, timeout: float | None = None) -> None:
        """Write one message; a dead engine raises :class:`EngineDied`, one that does not
        take the line within ``timeout`` seconds (``send_timeout`` by default)
        :class:`EngineBlocked`."""
        process = self._process
        if self._failure is not None:  # first: the kill that followed may have ended it too
            raise self._failure
        if process is None or process.stdin is None or process.returncode is not None:
            raise EngineDied(f"{self.label!r} is not running")
        try:
            process.stdin.write(message.format().encode() + b"\n")
            await asyncio.wait_for(process.stdin.drain(),
                                   self.send_timeout if timeout is None else max(timeout, 0.001))
        except (BrokenPipeError, ConnectionResetError):
            raise EngineDied(f"{self.label!r} stopped reading (exit status "
                             f"{process.returncode})") from None
        except TimeoutError:
            self._failure = EngineBlocked(
                f"it stopped reading: a line to it waited more than "
                f"{self.send_timeout if timeout is None else timeout:.3g} s")
            log.warning("engine %r: %s; stopped", self.name, self._failure)
            self._kill_group(process)
            raise self._failure from None

    async def receive(self, timeout: float | None) -> Message | ProtocolError:
        """The next line as a message, or the :class:`ProtocolError` it raised (the
        caller decides what a bad line costs). Raises :class:`EngineDied` at the end
        of the output, :class:`EngineFlooded` when the engine wrote more than a turn
        allows and :class:`EngineTimeout` after ``timeout`` seconds."""
        process = self._process
        if process is None:
            raise EngineDied(f"{self.label!r} is not running")
        while True:
            try:
                item = await asyncio.wait_for(self._lines.get(), timeout)
            except TimeoutError:
                raise EngineTimeout(f"no answer within {timeout:.3g} s") from None
            if item is _END:
                self._lines.put_nowait(_END)  # every later call ends here too
                if self._failure is not None:
                    raise self._failure
                try:
                    status = await asyncio.wait_for(process.wait(), QUIT_TIMEOUT)
                except TimeoutError:
                    status = None
                raise EngineDied(f"it closed its output (exit status {status})")
            if isinstance(item, ProtocolError):
                return item
            assert isinstance(item, bytes)
            line = item.decode(errors="replace")
            if not line.strip():
                continue  # blank lines are ignored
            try:
                return parse(line)
            except ProtocolError as exc:
                return exc

    async def _receive_until(self, deadline: float | None, what: str) -> Message:
        """The next message that is no bad line (those are refused) before ``deadline``
        (a time of the event loop's clock, or none)."""
        loop = asyncio.get_running_loop()
        while True:
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                raise EngineTimeout(f"no answer to {what} in time")
            message = await self.receive(left)
            if isinstance(message, ProtocolError):
                await self._refuse(message)
                continue
            return message

    async def _refuse(self, error: ProtocolError) -> None:
        """The host's answer to a line it cannot use: ``error CODE TEXT``; the line is
        ignored. Only the first :data:`REFUSALS` bad lines of a turn are answered: an
        engine that writes junk and reads nothing must not have its input filled."""
        self._turn[2] += 1
        if self._turn[2] > REFUSALS:
            return
        log.info("engine %r: %s", self.name, error)
        if self._turn[2] == REFUSALS:
            log.info("engine %r: its further bad lines this turn are ignored unanswered", self.name)
        await self.send(Error(error.code, error.text))

    async def _unexpected(self, message: Message) -> None:
        if isinstance(message, Info):
            log.info("engine %r: %s", self.name, message.text)
        elif isinstance(message, Error):
            log.warning("engine %r reports an error: %s %s", self.name, message.code, message.text)
        else:
            await self._refuse(ProtocolError("unexpected", f"{message.command!r} is not expected now"))

    async def _sync(self, deadline: float | None) -> None:
        """Wait for the ``readyok`` of the ``isready`` sent after the last answer,
        dropping what came before it: an ``action`` there answered no ``go`` of now."""
        while self._syncing:
            message = await self._receive_until(deadline, "isready")
            if isinstance(message, ReadyOk):
                self._syncing = False
            elif isinstance(message, ActionReply):
                log.info("engine %r: %r after its answer; ignored", self.name, message.format())
            else:
                await self._unexpected(message)

    async def ping(self, timeout: float = START_TIMEOUT) -> None:
        """``isready`` / ``readyok``: check that the engine is alive and idle."""
        deadline = asyncio.get_running_loop().time() + timeout
        await self._sync(deadline)
        await self.send(IsReady(), timeout)
        while not isinstance(await self._receive_until(deadline, "isready"), ReadyOk):
            pass

    async def go(self, legal: Sequence[Action], *, time_ms: int | None = None,
                 timeout: float | None = None) -> Action:
        """Ask for an action among ``legal``; wait at most ``timeout`` seconds.

        A malformed or illegal ``action`` line raises :class:`IllegalReply`;
        other lines are answered with ``error`` (or logged) and waited past.
        After the answer the host sends ``isready``; what the engine writes
        before its ``readyok`` is not taken for the answer to the next ``go``.
        """
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        await self._sync(deadline)
        self._new_turn()
        await self.send(Go(tuple(legal), time_ms), None if deadline is None else deadline - loop.time())
        while True:
            left = None if deadline is None else max(0.0, deadline - loop.time())
            message = await self.receive(left)
            if isinstance(message, ProtocolError):
                if message.code == "bad-action":
                    await self._answered()
                    raise IllegalReply(f"a malformed action ({message.text}); legal: "
                                       f"{' '.join(str(a) for a in legal)}")
                await self._refuse(message)
                continue
            if isinstance(message, ActionReply):
                await self._answered()
                if message.action not in legal:
                    raise IllegalReply(f"the illegal action {message.action}; legal: "
                                       f"{' '.join(str(a) for a in legal)}")
                return message.action
            await self._unexpected(message)

    async def _answered(self) -> None:
        await self.send(IsReady())
        self._syncing = True

    async def quit(self, timeout: float = QUIT_TIMEOUT) -> None:
        """Send ``quit`` and wait for the program to exit (killing it if it does not).
        One that failed (flooded, stopped reading) is killed at once."""
        process = self._process
        if process is None:
            return
        if process.returncode is None and self._failure is None:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            try:
                await self.send(Quit(), timeout)
                await asyncio.wait_for(process.wait(), max(0.001, deadline - loop.time()))
            except (TimeoutError, EngineError):
                pass
        await self.kill()

    def interrupt(self) -> None:
        """Kill the program now, from any thread (a host shutting down): a call waiting
        for it ends at once with :class:`EngineDied`."""
        process = self._process
        if process is not None:
            self._kill_group(process)

    @staticmethod
    def _kill_group(process: asyncio.subprocess.Process, *, hard: bool = False) -> None:
        """Kill the program and every process it started: its reaper is told to (it exits
        once they are all gone), or, without one (or ``hard``), its process group is killed."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if _REAPED and not hard:
                if process.returncode is None:
                    os.kill(process.pid, signal.SIGTERM)
            elif _GROUPS:
                os.killpg(process.pid, signal.SIGKILL)
            elif process.returncode is None:
                process.kill()

    async def kill(self) -> None:
        """Stop the program at once (after a time-out, or when it misbehaved)."""
        process = self._process
        self._process = None
        if process is None:
            return
        self._kill_group(process)
        _RUNNING.discard(process)
        try:
            await asyncio.wait_for(process.wait(), QUIT_TIMEOUT)
        except TimeoutError:  # a reaper that does not end: its whole group goes
            self._kill_group(process, hard=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), QUIT_TIMEOUT)
        if process.stdin is not None:
            process.stdin.close()
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
        # The pipes close with the transport (also when a process the engine started
        # outside its group still holds its output open).
        transport = getattr(process, "_transport", None)
        if transport is not None:
            transport.close()


class Engine:
    """:class:`AsyncEngine` for synchronous callers: every method waits for its result.

    The asyncio side runs in a daemon thread with its own event loop, so an
    :class:`Engine` can be used from any thread, also one whose own event loop
    is running. Call :meth:`close` when done.
    """

    def __init__(self, command: Sequence[str], *, label: str | None = None,
                 turn_lines: int = TURN_LINES, turn_bytes: int = TURN_BYTES,
                 send_timeout: float = SEND_TIMEOUT) -> None:
        self._async = AsyncEngine(command, label=label, turn_lines=turn_lines, turn_bytes=turn_bytes,
                                  send_timeout=send_timeout)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="sixtysix-engine",
                                        daemon=True)
        self._thread.start()
        self._closed = False

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._closed or threading.current_thread() is self._thread:
            coroutine.close()  # waiting in the loop's own thread would never end
            raise EngineDied(f"{self.label!r} was closed")
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        # Waited for in short steps: a signal (SIGTERM) that the system hands to another
        # thread runs its Python handler only when this one runs Python code again. The
        # wait is on a queue of C code, which an exception raised by that handler never
        # leaves locked (concurrent.futures.wait may leave the future's lock held, and the
        # loop's thread would then hang setting the result).
        done: queue.SimpleQueue[None] = queue.SimpleQueue()
        future.add_done_callback(lambda _: done.put(None))
        while True:
            try:
                done.get(timeout=_WAIT_STEP)
                break
            except queue.Empty:
                continue
        return future.result()

    async def _shut_down(self) -> None:
        try:
            await self._async.quit()
        finally:
            self._loop.stop()

    @property
    def label(self) -> str:
        return self._async.label

    @property
    def name(self) -> str:
        return self._async.name

    @property
    def options(self) -> dict[str, str]:
        return self._async.options

    @property
    def alive(self) -> bool:
        return self._async.alive

    def start(self, timeout: float = START_TIMEOUT) -> None:
        self._run(self._async.start(timeout))

    def send(self, message: Message) -> None:
        self._run(self._async.send(message))

    def receive(self, timeout: float | None) -> Message | ProtocolError:
        return self._run(self._async.receive(timeout))

    def ping(self, timeout: float = START_TIMEOUT) -> None:
        self._run(self._async.ping(timeout))

    def go(self, legal: Sequence[Action], *, time_ms: int | None = None,
           timeout: float | None = None) -> Action:
        return self._run(self._async.go(legal, time_ms=time_ms, timeout=timeout))

    def kill(self) -> None:
        self._run(self._async.kill())

    def interrupt(self) -> None:
        """Kill the program now; safe from any thread, also while another waits for it."""
        self._async.interrupt()

    def quit(self, timeout: float = QUIT_TIMEOUT) -> None:
        self._run(self._async.quit(timeout))

    def close(self) -> None:
        """Quit the engine and stop the thread (safe to call twice)."""
        if self._closed:
            return
        if threading.current_thread() is self._thread:
            # From the engine's own thread (a finalizer run by the garbage
            # collector there): quit without waiting, then stop the loop.
            self._closed = True
            self._loop.create_task(self._shut_down())
            return
        try:
            self._run(self._async.quit())
        finally:
            self._closed = True
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()
