"""The benchmark scripts run as their docstrings say (issue 37, item 11): ``bots.py`` with
its default list, ``solver.py`` timing and naming both kernels, ``strength.py`` leaving the
repository as it was. Their figures are not checked here: speed is no test's business."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import need
from sixtysix import kernel
from sixtysix.bots import BOTS

ROOT = Path(__file__).parent.parent
pytestmark = pytest.mark.one_pass  # each script chooses its kernels itself


def bench(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python benchmarks/...`` from the repository's root, as the docstrings write it."""
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          check=False, env={**os.environ, **(env or {})})


@pytest.mark.slow
def test_bots_measures_every_registered_bot_or_says_why_not() -> None:
    run = bench("benchmarks/bots.py", "--seconds", "0.01")
    assert run.returncode == 0, run.stderr
    rows = {line.split()[0].split(":")[0]: line for line in run.stdout.splitlines()[3:]}
    assert set(rows) == set(BOTS)
    skipped = {name for name, line in rows.items() if " skipped: " in line}
    assert skipped == {"engine"}  # the one bot that needs a program to run
    assert "--bot" in rows["engine"]


def test_solver_times_both_kernels_and_labels_each_line() -> None:
    need(kernel.NAME == "c", "the compiled kernel (pip install -e '.[test]' with a C compiler)")
    run = bench("benchmarks/solver.py", "--positions", "20", "--stock", "2")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert all(re.match(r"kernel (c|python)[:,]", line) for line in lines), lines
    for name in ("c", "python"):
        assert sum(line.startswith(f"kernel {name}, ") for line in lines) == 2
    assert "pure Python" not in (ROOT / "benchmarks" / "solver.py").read_text().splitlines()[0]


def repository_files() -> set[str]:
    """Every file git sees in the repository, tracked or not (the ignored ones left out)."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    need(listed.returncode == 0, "a git checkout of the repository")
    return set(listed.stdout.splitlines())


@pytest.mark.slow
def test_strength_saves_its_run_outside_the_repository_unless_asked(tmp_path: Path) -> None:
    before = repository_files()
    run = bench("benchmarks/strength.py", "santase-heuristic", "--deals", "1", env={"TMPDIR": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    assert repository_files() == before
    (saved,) = (tmp_path / "sixtysix-strength").glob("santase-heuristic-*.json")
    recorded = sorted((ROOT / "benchmarks" / "results").glob("santase-heuristic-*.json"))
    assert recorded and saved.name not in {p.name for p in recorded}  # the next seed, not one recorded
    assert f"{len(recorded) + 1} runs merged" in run.stdout and str(saved) in run.stdout
