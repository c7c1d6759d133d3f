"""docs/rl.md: its examples run, and its observation table is the encoding's layout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rl_support import require

require("gymnasium")
require("pettingzoo")
require("pyspiel")  # the OpenSpiel example (the openspiel extra)

from sixtysix.envs.observation import LAYOUT, OBSERVATION_SIZE, block  # noqa: E402

DOC = (Path(__file__).parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC, flags=re.DOTALL)


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_the_examples_run(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(EXAMPLES[index], f"docs/rl.md example {index + 1}", "exec"), {})
    if "mean game points per hand" in EXAMPLES[index]:
        assert re.match(r"mean game points per hand: [+-]\d\.\d\d$", capsys.readouterr().out.strip())


def test_the_observation_table_is_the_layout() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\d+)(?:–(\d+))? \| (.+) \|$", DOC, flags=re.MULTILINE)
    assert [(name, int(a), int(b or a), meaning) for name, a, b, meaning in rows] == [
        (name, block(name).start, block(name).stop - 1, meaning) for name, _, meaning in LAYOUT]
    assert f"vector of {OBSERVATION_SIZE} entries" in DOC
