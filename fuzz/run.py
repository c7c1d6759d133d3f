"""Run the fuzzers for a bounded time; keep what fails in the corpus.

    python fuzz/run.py [TARGET ...] [--seconds 60 | --inputs N] [--seed N] [--atheris]

Targets (``fuzz/targets.py``): records, rest, websocket, engine, host (all by
default). Each runs for ``--seconds`` (or ``--inputs``): inputs are drawn by Hypothesis from
random bytes (``fuzz_one_input``), from a seed, so that a run is repeatable;
with ``--atheris`` (``pip install atheris``) the bytes come from atheris'
coverage-guided mutation instead, which finds deeper paths in long runs.

An input that fails its check is written to ``fuzz/corpus/TARGET/`` (named by
its hash) and the run stops with exit status 1 and the error. Every file of
the corpus is replayed by ``tests/test_fuzz.py``: commit it with the fix.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import platform
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for extra in (HERE, ROOT / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from targets import TARGETS, Target  # noqa: E402

CORPUS = HERE / "corpus"


class Found(Exception):
    """An input failed its check (the input and the error are kept)."""

    def __init__(self, value: Any, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.value = value
        self.error = error


def shown(path: Path) -> str:
    """``path`` as a message shows it: from the repository's root when inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def corpus_files(target: str) -> list[Path]:
    return sorted((CORPUS / target).glob("*.json"))


def read_input(path: Path) -> Any:
    """A corpus file's input (``{"input": ...}``, with a note of what it found)."""
    return json.loads(path.read_text(encoding="utf-8"))["input"]


def keep(target: str, value: Any, error: BaseException) -> Path:
    """Write a failing input to the corpus; returns its path."""
    text = json.dumps({"input": value, "found": f"{type(error).__name__}: {error}"[:300]},
                      ensure_ascii=True, indent=1)
    name = hashlib.sha1(json.dumps(value, ensure_ascii=True).encode()).hexdigest()[:16]
    path = CORPUS / target / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def harness(target: Target) -> Any:
    """A Hypothesis test of ``target`` whose failures raise :class:`Found` with the input."""

    @settings(database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(target.inputs)
    def run(value: Any) -> None:
        try:
            target.check(value)
        except Exception as exc:
            raise Found(value, exc) from exc

    return run


def fuzz(target: Target, seconds: float | None, seed: int,
         inputs: int | None = None) -> tuple[int, Found | None]:
    """Feed ``target`` random inputs for ``seconds`` (or until ``inputs`` were tried):
    the inputs tried and the failure, if any. The same seed gives the same inputs."""
    one = harness(target).hypothesis.fuzz_one_input
    rng = random.Random(f"{target.name}-{seed}")
    deadline = None if seconds is None else time.monotonic() + seconds
    tried = 0
    while (deadline is None or time.monotonic() < deadline) and (inputs is None or tried < inputs):
        buffer = rng.randbytes(rng.choice((64, 256, 1024, 4096)))
        try:
            one(buffer)
        except Found as found:
            return tried + 1, found
        tried += 1
    return tried, None


def fuzz_atheris(target: Target, seconds: float) -> None:  # pragma: no cover - needs atheris
    import atheris  # type: ignore[import-untyped,import-not-found,unused-ignore]

    one = harness(target).hypothesis.fuzz_one_input

    def test_one(data: bytes) -> None:
        try:
            one(data)
        except Found as found:
            path = keep(target.name, found.value, found.error)
            print(f"{target.name}: kept in {shown(path)}", file=sys.stderr)
            raise

    atheris.instrument_all()
    atheris.Setup([sys.argv[0], f"-max_total_time={int(seconds)}"], test_one)
    atheris.Fuzz()


def available(target: Target) -> bool:
    if target.needs == "web":
        try:
            import fastapi  # noqa: F401
            import sqlalchemy  # noqa: F401
        except ImportError:
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", choices=[[], *TARGETS], metavar="TARGET",
                        help=f"what to fuzz: {', '.join(TARGETS)} (default all)")
    parser.add_argument("--seconds", type=float, default=None, help="per target (default 60)")
    parser.add_argument("--inputs", type=int, default=None, help="per target, instead of a time")
    parser.add_argument("--seed", type=int, default=0, help="the random bytes' seed (default 0)")
    parser.add_argument("--atheris", action="store_true", help="coverage-guided, with atheris")
    args = parser.parse_args(argv)
    if args.seconds is None and args.inputs is None:
        args.seconds = 60.0
    # What the code under test logs about bad input is expected, and would drown the report.
    logger = logging.getLogger("sixtysix")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        return _run(args)
    finally:
        logger.setLevel(level)


def _run(args: argparse.Namespace) -> int:
    names = args.targets or list(TARGETS)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"CPython {platform.python_version()}", flush=True)
    status = 0
    for name in names:
        target = TARGETS[name]
        if not available(target):
            print(f"{name}: skipped (needs the {target.needs} extra)")
            continue
        if args.atheris:
            fuzz_atheris(target, args.seconds or 60.0)
            continue
        began = time.monotonic()
        tried, found = fuzz(target, args.seconds, args.seed, args.inputs)
        if found is None:
            print(f"{name}: {tried:,} inputs in {time.monotonic() - began:.1f} s, none failed", flush=True)
            continue
        path = keep(name, found.value, found.error)
        print(f"{name}: input {tried:,} failed: {found}\n  kept in {shown(path)}", flush=True)
        traceback.print_exception(found.error)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
