"""The fuzzing harness (``fuzz/``, issue 17): its corpus replays clean, and each fuzzer
runs clean over a fixed number of inputs drawn from a fixed seed.

Every file of ``fuzz/corpus/TARGET/`` is an input that once broke something (or
was written down from a report): each is a regression test. The fuzzers' runs
here are short and repeatable (the same inputs every time); longer runs, by
time or coverage-guided with atheris, are ``python fuzz/run.py --seconds N``.
``SIXTYSIX_FUZZ_SCALE`` multiplies the inputs (default 1).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import need_module

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "fuzz"))

from run import CORPUS, corpus_files, fuzz, keep, main, read_input, shown  # noqa: E402
from targets import TARGETS, Target  # noqa: E402

#: Inputs per target in a test run: each target's share of about a minute on 2 cores.
INPUTS = {"records": 1500, "rest": 800, "websocket": 300, "engine": 6000, "host": 200}


def needs(target: Target) -> None:
    if target.needs == "web":
        need_module("fastapi", "the web extra is not installed")
        need_module("sqlalchemy", "the web extra is not installed")


CASES = [(path.parent.name, path) for name in TARGETS for path in corpus_files(name)]


def test_every_target_has_a_corpus_and_every_corpus_a_target() -> None:
    assert {p.name for p in CORPUS.iterdir() if p.is_dir()} <= set(TARGETS)
    assert {name for name, _ in CASES} == set(TARGETS)


@pytest.mark.parametrize(("name", "path"), CASES, ids=[f"{n}/{p.stem}" for n, p in CASES])
def test_the_corpus_replays_clean(name: str, path: Path) -> None:
    target = TARGETS[name]
    needs(target)
    target.check(read_input(path))


#: The fuzzers of the server (its REST and WebSocket faces) and of an engine's host: which
#: rules kernel plays is incidental to them, so they run once in CI.
ONE_PASS = {"rest", "websocket", "host"}


@pytest.mark.slow
@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.one_pass) if name in ONE_PASS else name
                                  for name in TARGETS])
def test_each_fuzzer_runs_clean(name: str) -> None:
    target = TARGETS[name]
    needs(target)
    count = round(INPUTS[name] * float(os.environ.get("SIXTYSIX_FUZZ_SCALE", "1")))
    tried, found = fuzz(target, None, seed=0, inputs=count)
    if found is not None:
        path = keep(name, found.value, found.error)
        pytest.fail(f"input {tried} of {name} failed: {found}; kept in {shown(path)}")
    assert tried == count


def test_a_failing_input_is_kept_in_the_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    import run

    def check(text: Any) -> None:
        assert "9" not in text, "a nine"

    from hypothesis import strategies as st

    monkeypatch.setattr(run, "CORPUS", tmp_path)
    monkeypatch.setitem(run.TARGETS, "records", Target("records", st.text(alphabet="89", min_size=1), check))
    assert main(["records", "--inputs", "500"]) == 1
    out = capsys.readouterr().out
    assert "records: input" in out and "AssertionError: a nine" in out
    kept = list((tmp_path / "records").glob("*.json"))
    assert len(kept) == 1 and "9" in read_input(kept[0])
