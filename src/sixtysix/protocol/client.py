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
import contextlib
import logging
import threading
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

from sixtysix.actions import Action
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

__all__ = ["AsyncEngine", "Engine", "EngineDied", "EngineError", "EngineStartError", "EngineTimeout",
           "IllegalReply"]

log = logging.getLogger("sixtysix.protocol")
T = TypeVar("T")

#: Seconds an engine has to answer the handshake or a ping.
START_TIMEOUT = 10.0
#: Seconds an engine has to exit after ``quit``.
QUIT_TIMEOUT = 2.0
#: Longest line accepted from an engine (a view line from the host is about 2 kB).
LINE_LIMIT = 1 << 16


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


class AsyncEngine:
    """An engine program spoken to over its standard input and output.

    ``command`` is the program and its arguments (no shell). The engine's
    standard error is passed through to ours.
    """

    def __init__(self, command: Sequence[str], *, label: str | None = None) -> None:
        if not command:
            raise ValueError("an engine needs a command")
        self.command = list(command)
        self.label = label or " ".join(command)
        self.name = self.label
        self.ids: dict[str, str] = {}
        self.options: dict[str, str] = {}
        self._process: asyncio.subprocess.Process | None = None

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.returncode is None

    async def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the program and shake hands (``sixtysix 1`` ... ``ready``)."""
        try:
            self._process = await asyncio.create_subprocess_exec(
                *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                limit=LINE_LIMIT)
        except OSError as exc:
            raise EngineDied(f"cannot start {self.label!r}: {exc.strerror or exc}") from None
        await self.send(Hello())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
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

    async def send(self, message: Message) -> None:
        """Write one message; a dead engine raises :class:`EngineDied`."""
        process = self._process
        if process is None or process.stdin is None or process.returncode is not None:
            raise EngineDied(f"{self.label!r} is not running")
        try:
            process.stdin.write(message.format().encode() + b"\n")
            await process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise EngineDied(f"{self.label!r} stopped reading (exit status "
                             f"{process.returncode})") from None

    async def receive(self, timeout: float | None) -> Message | ProtocolError:
        """The next line as a message, or the :class:`ProtocolError` it raised (the
        caller decides what a bad line costs). Raises :class:`EngineDied` at the end
        of the output and :class:`EngineTimeout` after ``timeout`` seconds."""
        process = self._process
        if process is None or process.stdout is None:
            raise EngineDied(f"{self.label!r} is not running")
        while True:
            try:
                raw = await asyncio.wait_for(process.stdout.readline(), timeout)
            except TimeoutError:
                raise EngineTimeout(f"no answer within {timeout:.3g} s") from None
            except ValueError:  # a line over the limit
                return ProtocolError("bad-message", f"a line longer than {LINE_LIMIT} bytes")
            if not raw:
                try:
                    status = await asyncio.wait_for(process.wait(), QUIT_TIMEOUT)
                except TimeoutError:
                    status = None
                raise EngineDied(f"it closed its output (exit status {status})")
            line = raw.decode(errors="replace")
            if not line.strip():
                continue  # blank lines are ignored
            try:
                return parse(line)
            except ProtocolError as exc:
                return exc

    async def _receive_until(self, deadline: float, what: str) -> Message:
        loop = asyncio.get_running_loop()
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise EngineTimeout(f"no answer to {what} in time")
            message = await self.receive(left)
            if isinstance(message, ProtocolError):
                await self._refuse(message)
                continue
            return message

    async def _refuse(self, error: ProtocolError) -> None:
        """The host's answer to a line it cannot use: ``error CODE TEXT``; the line is ignored."""
        log.info("engine %r: %s", self.name, error)
        await self.send(Error(error.code, error.text))

    async def _unexpected(self, message: Message) -> None:
        if isinstance(message, Info):
            log.info("engine %r: %s", self.name, message.text)
        elif isinstance(message, Error):
            log.warning("engine %r reports an error: %s %s", self.name, message.code, message.text)
        else:
            await self._refuse(ProtocolError("unexpected", f"{message.command!r} is not expected now"))

    async def ping(self, timeout: float = START_TIMEOUT) -> None:
        """``isready`` / ``readyok``: check that the engine is alive and idle."""
        await self.send(IsReady())
        deadline = asyncio.get_running_loop().time() + timeout
        while not isinstance(await self._receive_until(deadline, "isready"), ReadyOk):
            pass

    async def go(self, legal: Sequence[Action], *, time_ms: int | None = None,
                 timeout: float | None = None) -> Action:
        """Ask for an action among ``legal``; wait at most ``timeout`` seconds.

        A malformed or illegal ``action`` line raises :class:`IllegalReply`;
        other lines are answered with ``error`` (or logged) and waited past.
        """
        await self.send(Go(tuple(legal), time_ms))
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - loop.time())
            message = await self.receive(left)
            if isinstance(message, ProtocolError):
                if message.code == "bad-action":
                    raise IllegalReply(f"a malformed action ({message.text}); legal: "
                                       f"{' '.join(str(a) for a in legal)}")
                await self._refuse(message)
                continue
            if isinstance(message, ActionReply):
                if message.action not in legal:
                    raise IllegalReply(f"the illegal action {message.action}; legal: "
                                       f"{' '.join(str(a) for a in legal)}")
                return message.action
            await self._unexpected(message)

    async def quit(self, timeout: float = QUIT_TIMEOUT) -> None:
        """Send ``quit`` and wait for the program to exit (killing it if it does not)."""
        process = self._process
        if process is None:
            return
        if process.returncode is None:
            try:
                await self.send(Quit())
                await asyncio.wait_for(process.wait(), timeout)
            except (TimeoutError, EngineDied):
                pass
        await self.kill()

    async def kill(self) -> None:
        """Stop the program at once (after a time-out, or when it misbehaved)."""
        process = self._process
        self._process = None
        if process is None:
            return
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(process.wait(), QUIT_TIMEOUT)
        if process.stdin is not None:
            process.stdin.close()


class Engine:
    """:class:`AsyncEngine` for synchronous callers: every method waits for its result.

    The asyncio side runs in a daemon thread with its own event loop, so an
    :class:`Engine` can be used from any thread, also one whose own event loop
    is running. Call :meth:`close` when done.
    """

    def __init__(self, command: Sequence[str], *, label: str | None = None) -> None:
        self._async = AsyncEngine(command, label=label)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="sixtysix-engine",
                                        daemon=True)
        self._thread.start()
        self._closed = False

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._closed or threading.current_thread() is self._thread:
            coroutine.close()  # waiting in the loop's own thread would never end
            raise EngineDied(f"{self.label!r} was closed")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

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
