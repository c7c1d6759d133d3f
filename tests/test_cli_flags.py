"""One meaning per option across the subcommands of ``sixtysix`` (issue 19, item 7).

``--json`` is a switch (JSON on standard output), ``--hands N`` a number of
single hands, ``--seed S`` a number, ``--engine`` an external program; the
old spellings of the arena and the report are tested in test_arena.py and
test_arena_report.py.
"""

from __future__ import annotations

import argparse
import warnings

import pytest

from sixtysix.cli import build_parser
from sixtysix.cli.options import DeprecatedOptionWarning


def parse(*argv: str) -> argparse.Namespace:
    """The namespace of a command line that must not warn (an old spelling would)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return build_parser().parse_args(list(argv))


def help_of(capsys: pytest.CaptureFixture[str], command: str) -> str:
    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["simulate", "a", "b"], ["replay", "game.json"], ["arena", "a", "b"], ["report", "run.json"],
])
def test_json_is_a_switch_everywhere(argv: list[str]) -> None:
    assert parse(*argv).json is False
    assert parse(*argv, "--json").json is True
    if argv[0] in ("simulate", "replay"):
        assert parse(argv[0], "--json", *argv[1:]).json is True
    else:
        # While the old spelling --json OUT lasts, a word after --json is its file (and it warns).
        with pytest.warns(DeprecatedOptionWarning, match="--save"):
            assert build_parser().parse_args([argv[0], "--json", *argv[1:], "x"]).save == argv[1]


@pytest.mark.parametrize("command", ["simulate", "arena"])
def test_hands_is_a_number_everywhere(command: str) -> None:
    args = parse(command, "a", "b", "--hands", "5")
    assert args.hands == 5 and args.bots == ["a", "b"]


@pytest.mark.parametrize(("argv", "seed"), [
    (["play"], None), (["simulate", "a", "b"], 0), (["arena", "a", "b"], 0),
])
def test_seeds_are_numbers_everywhere(argv: list[str], seed: int | None) -> None:
    assert parse(*argv).seed == seed
    assert parse(*argv, "--seed", "12").seed == 12


def test_the_same_option_is_shown_the_same_way(capsys: pytest.CaptureFixture[str]) -> None:
    helps = {command: help_of(capsys, command) for command in ("play", "simulate", "arena", "report",
                                                               "replay", "serve")}
    for command in ("play", "simulate", "arena"):
        assert "[--seed S]" in helps[command] and "[--rules RULES]" in helps[command], command
    for command in ("simulate", "arena", "report", "replay"):
        assert "[--json]" in helps[command], command
    for command in ("simulate", "arena"):
        assert "--hands N" in helps[command], command
    # --engine names an external program: only serve shows it (arena's old name is hidden).
    assert [command for command, text in helps.items() if "--engine" in text] == ["serve"]
    assert "--engine NAME=COMMAND" in helps["serve"]
