"""Every command the README, the pages of the figures and the set-up pages give is one
that runs (issue 37): a ``sixtysix`` command line is accepted by the program's own
parser, a ``python benchmarks/...`` or ``python tools/...`` line names a script that
exists and takes those options, ``python -m training`` lines are the pipeline's own
commands, and the README's test command is the one CI runs. What the commands print is
checked where it is shown (test_docs, test_envs_docs, the README's doctest); the long
measurements themselves are not played here."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from helpers import need_module
from sixtysix.cli import build_parser

ROOT = Path(__file__).parent.parent
#: The pages whose commands are checked, with the fewest commands each must give (so
#: that a change to the extraction cannot leave a page unchecked). The home page's are
#: the README's set-up, included.
PAGES = {
    "README.md": 8,
    "docs/rl.md": 1,
    "docs/strength.md": 30,
    "docs/speed.md": 4,
    "docs/schnapsen.md": 3,
    "docs/arena.md": 3,
    "docs/testing.md": 2,
    "training/README.md": 12,
    "benchmarks/results/README.md": 15,
}
PROGRAMS = ("sixtysix ", "python ")


def commands(page: str) -> list[str]:
    """The command lines of a page: the lines of its code blocks and its inline code
    that start with a program we ship (``sixtysix`` or ``python``)."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for body in re.findall(r"^```\w*\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE):
        found += [line.strip() for line in body.splitlines()]
    text = re.sub(r"^```\w*\n(.*?)^```$", "", text, flags=re.DOTALL | re.MULTILINE)
    found += re.findall(r"`([^`\n]+)`", text)
    found = [line.removeprefix("$ ") for line in found]
    return [line for line in found if line.startswith(PROGRAMS) and not synopsis(line)]


def synopsis(line: str) -> bool:
    """A usage line (``sixtysix play [--seed S] ...``) or a bare name (``sixtysix arena``)."""
    return "[" in line.split("#")[0] or "..." in line or (len(line.split()) < 3 and "--" not in line)


def words(line: str) -> list[str]:
    return shlex.split(line, comments=True)


@cache
def help_text(*program: str) -> str:
    run = subprocess.run([sys.executable, *program, "--help"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, check=False)
    assert run.returncode == 0, f"{' '.join(program)} --help: {run.stderr}"
    return run.stdout


def options(argv: list[str]) -> list[str]:
    return [word.split("=")[0] for word in argv if word.startswith("--")]


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_sixtysix_command_of_the_page_is_accepted_by_the_program(
        page: str, capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    refused = []
    for line in commands(page):
        argv = words(line)
        if argv[0] != "sixtysix":
            continue
        try:
            parser.parse_args(argv[1:])
        except SystemExit as stop:
            if stop.code == 0:  # --version, --help
                continue
            refused.append(f"{line}: {capsys.readouterr().err.strip().splitlines()[-1]}")
    assert refused == []


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_script_the_page_runs_exists_and_takes_those_options(page: str) -> None:
    wrong = []
    for line in commands(page):
        argv = words(line)
        if argv[0] != "python" or argv[1] == "-m" or not argv[1].endswith(".py"):
            continue
        if not (ROOT / argv[1]).is_file():
            wrong.append(f"{line}: no file {argv[1]}")
            continue
        shown = help_text(argv[1])
        wrong += [f"{line}: {option}?" for option in options(argv[2:]) if option not in shown]
        if argv[1] == "benchmarks/strength.py" and len(argv) > 2 and argv[2].islower():
            assert argv[2] in shown, line  # a match-up of its list
    assert wrong == []


def test_the_training_commands_are_the_pipelines_own() -> None:
    lines = [words(line) for line in commands("training/README.md") if line.startswith("python -m training")]
    assert len(lines) >= 12
    need_module("torch", "pip install torch==2.13.0 (training/README.md)")
    wrong = []
    for argv in lines:
        shown = help_text("-m", "training", argv[3])
        wrong += [f"{' '.join(argv)}: {option}?" for option in options(argv[4:]) if option not in shown]
        wrong += [f"{' '.join(argv)}: no {path}" for path in argv if path.endswith(".json")
                  and path.startswith("training/") and not (ROOT / path).is_file()]
    assert wrong == []


def test_each_page_gives_the_commands_it_is_known_for() -> None:
    found = {page: len(commands(page)) for page in PAGES}
    assert all(found[page] >= least for page, least in PAGES.items()), found


def test_the_readme_keeps_the_two_set_up_commands_and_ci_runs_the_test_one() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("<!-- --8<-- [start:setup] -->", 1)[1].split("<!-- --8<-- [end:setup] -->", 1)[0]
    play, test = re.findall(r"^```sh\n(.*?)\n```$", setup, flags=re.MULTILINE)
    assert play == "python3 -m venv .venv && .venv/bin/pip install '.[tui]' && .venv/bin/sixtysix play"
    assert test == "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/pytest"
    assert test in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert len(readme.splitlines()) <= 250


@pytest.mark.slow
def test_the_readmes_simulation_gives_the_figures_it_states() -> None:
    """The one measurement the README states in words is quick to play again: its
    command, seeded, gives the same matches, hands and game points."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("[start:simulate] -->", 1)[1].split("<!-- --8<-- [end:simulate]")[0]
    (command,) = [line for line in commands("README.md")
                  if line in section and line.startswith("sixtysix simulate")]
    run = subprocess.run([sys.executable, "-m", "sixtysix", *words(command)[1:], "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    said = " ".join(section.split())
    assert f"{result['games']:,} matches, {result['hands']:,} hands" in said
    assert f"wins **{result['wins'][0]:,} of {result['games']:,} matches**" in said
    points = [f"{value:.2f}" for value in result["game_points_per_hand"]]
    assert f"{points[0]} game points per hand against {points[1]}" in said
