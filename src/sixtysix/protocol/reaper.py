"""Run an engine program so that every process it starts ends with it (Linux).

    python -I -S reaper.py HOST_PID COMMAND [ARGUMENT ...]

:class:`~sixtysix.protocol.client.AsyncEngine` starts an engine through this
small program, run as a script (standard library only: it imports nothing of
sixtysix, so it starts in milliseconds). It stands between the host and the
engine:

- it makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): a
  process the engine started whose parent ends is handed to it rather than to
  the system's first process, also one that left the engine's process group
  and session with ``setsid`` (which a kill of the group misses);
- it runs ``COMMAND`` with its own standard input, output and error (the
  host's pipes), and keeps none of them open itself;
- when the engine exits, when the host asks it to stop (``SIGTERM``), or when
  the host dies (``prctl(PR_SET_PDEATHSIG)``, and a look at its parent's id
  for a host that died before that was set), it kills every process below it
  (found through ``/proc``) and waits for them all; only then does it exit,
  with the engine's exit status. So once the host has seen it end, nothing the
  engine started is left.

Where this is not available (not Linux: no ``prctl`` or no ``/proc``), the
host runs the engine directly in a process group of its own, killed whole: a
process that left the group (``setsid``) can outlive the engine there. An
engine that kills this program itself (it runs as the same user) can get
away from it too: the engines are the operator's programs, not strangers'.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
from types import FrameType

#: prctl(2) options (linux/prctl.h).
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
#: The exit status when the engine cannot be started (as a shell's).
CANNOT_START = 127


def _prctl(option: int, value: int) -> bool:
    libc = ctypes.CDLL(None, use_errno=True)
    return int(libc.prctl(option, value, 0, 0, 0)) == 0


def descendants(root: int) -> list[int]:
    """The processes below ``root``, from ``/proc`` (parents before their children)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except OSError:  # gone meanwhile
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def kill_everything_below() -> None:
    """Kill every process below this one and wait for them all: a process whose parent
    was killed comes to this one (the subreaper), so the loop ends when no child is left."""
    me = os.getpid()
    while True:
        for pid in descendants(me):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def _stop(_signum: int, _frame: FrameType | None) -> None:
    kill_everything_below()
    os._exit(128 + signal.SIGTERM)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or not argv[1].isdigit():
        print("usage: reaper.py HOST_PID COMMAND [ARGUMENT ...]", file=sys.stderr)
        return 2
    host = int(argv[1])
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGTERM, _stop)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != host:  # the host died before the line above
        return 128 + signal.SIGTERM
    try:
        engine = subprocess.Popen(argv[2:])
    except OSError as exc:
        print(f"cannot start {argv[2]!r}: {exc.strerror or exc}", file=sys.stderr)
        return CANNOT_START
    with open(os.devnull, "r+b") as devnull:  # the pipes are the engine's alone now
        os.dup2(devnull.fileno(), 0)
        os.dup2(devnull.fileno(), 1)
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:  # cannot happen while the engine runs
            return 0
        if pid == engine.pid:
            break  # others were the engine's orphans, reaped
    kill_everything_below()
    code = os.waitstatus_to_exitcode(status)
    return code if code >= 0 else 128 - code  # killed by a signal: as a shell says it


if __name__ == "__main__":
    sys.exit(main(sys.argv))
