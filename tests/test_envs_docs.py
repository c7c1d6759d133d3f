"""docs/rl.md: its examples run, and its observation table is the encoding's layout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rl_support import require

require("gymnasium")
require("pettingzoo")
require("pyspiel")  # the OpenSpiel example (the openspiel extra)

import gymnasium as gym  # noqa: E402

import sixtysix.envs  # noqa: E402, F401  (registers the environment)
from sixtysix.envs.observation import LAYOUT, OBSERVATION_SIZE, block  # noqa: E402
from sixtysix.states import Reason  # noqa: E402

DOC = (Path(__file__).parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
# Each Python example, and the output the page shows right after it (None when it shows none).
BLOCKS = re.findall(r"^```(\w*)\n(.*?)^```$", DOC, flags=re.DOTALL | re.MULTILINE)
EXAMPLES = [(body, BLOCKS[i + 1][1] if i + 1 < len(BLOCKS) and BLOCKS[i + 1][0] == "text" else None)
            for i, (lang, body) in enumerate(BLOCKS) if lang == "python"]


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_the_examples_run_and_print_what_the_page_shows(index: int,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The examples are seeded: what one prints is what the page shows below it."""
    code, shown = EXAMPLES[index]
    exec(compile(code, f"docs/rl.md example {index + 1}", "exec"), {})
    assert capsys.readouterr().out == (shown or "")


def test_the_random_loop_figure_is_explained_by_false_declarations() -> None:
    """The page says why uniform sampling over the mask loses: it declares falsely (R8.3).
    Counted here from the hands' results, not from the page's loop."""
    env = gym.make("sixtysix/SixtySix-v0", opponent="random")
    env.action_space.seed(0)
    false = 0
    for episode in range(200):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            _, _, terminated, truncated, info = env.step(env.action_space.sample(mask=info["action_mask"]))
            done = terminated or truncated
        result = info["result"]
        false += result.reason == Reason.FALSE_DECLARATION and result.winner != env.unwrapped.seat
    assert f"{false} of these 200 hands end in the agent's false" in DOC.replace("\n", " ")


def test_the_observation_table_is_the_layout() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\d+)(?:–(\d+))? \| (.+) \|$", DOC, flags=re.MULTILINE)
    assert [(name, int(a), int(b or a), meaning) for name, a, b, meaning in rows] == [
        (name, block(name).start, block(name).stop - 1, meaning) for name, _, meaning in LAYOUT]
    assert f"vector of {OBSERVATION_SIZE} entries" in DOC
