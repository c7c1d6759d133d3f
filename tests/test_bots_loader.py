"""Bots from the user's own code: ``FILE.py:ClassName`` and ``module:ClassName``
specs for make_bot, the arena and every other place that takes a bot spec."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sixtysix import Hand, ParseError
from sixtysix.bots import make_bot
from sixtysix.bots.loader import is_class_spec
from sixtysix.cli import main
from sixtysix.play.runner import play_hand

GREEDY = Path(__file__).parent.parent / "examples" / "greedy_bot.py"

CAREFUL = '''
import random
from sixtysix.bots import BaseBot

class Careful(BaseBot):
    name = "careful"

    def __init__(self, threshold=10, paranoid=False, seed=None):
        self.threshold, self.paranoid, self.seed = threshold, paranoid, seed
        self.rng = random.Random(seed)

    def choose(self, view, legal):
        return self.rng.choice(list(legal))
'''


def write(tmp_path: Path, text: str, name: str = "mybots.py") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_class_specs_are_told_apart_from_builtin_specs() -> None:
    assert is_class_spec("mybots.py:Careful")
    assert is_class_spec("pkg.mod:Careful:threshold=3")
    assert not is_class_spec("random")
    assert not is_class_spec("pimc:worlds=64,time=0.5")
    assert not is_class_spec("random:seed")  # a lower-case word is a bad option, not a class
    with pytest.raises(ParseError, match="expected key=value"):
        make_bot("random:seed")
    # A built-in name always means the built-in bot, whatever follows it.
    with pytest.raises(ParseError, match="bad bot option 'Seed'"):
        make_bot("random:Seed")


def test_a_file_spec_builds_a_bot_that_plays_a_legal_hand() -> None:
    bot = make_bot(f"{GREEDY}:GreedyBot")
    assert bot.name == "greedy"
    hand = play_hand(Hand.random(seed=4), [bot, make_bot("random", seed=1)])
    assert hand.is_over()  # play_hand raises if a bot chooses an illegal action


def test_a_relative_file_path_starts_from_the_current_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, CAREFUL)
    monkeypatch.chdir(tmp_path)
    assert make_bot("mybots.py:Careful").name == "careful"


def test_the_file_is_run_once_per_process(tmp_path: Path) -> None:
    path = write(tmp_path, CAREFUL)
    assert type(make_bot(f"{path}:Careful")) is type(make_bot(f"{path}:Careful", seed=2))


def test_options_and_the_seed_reach_the_class(tmp_path: Path) -> None:
    path = write(tmp_path, CAREFUL)
    bot = make_bot(f"{path}:Careful:threshold=20,paranoid=true", seed=7)
    assert (bot.threshold, bot.paranoid, bot.seed) == (20, True, 7)  # type: ignore[attr-defined]
    assert make_bot(f"{path}:Careful:seed=3", seed=7).seed == 3  # type: ignore[attr-defined]


def test_a_class_without_a_seed_argument_is_built_without_one() -> None:
    # GreedyBot defines no __init__: it must not be handed a seed it cannot take.
    assert make_bot(f"{GREEDY}:GreedyBot", seed=5).name == "greedy"


def test_a_module_spec_imports_the_module() -> None:
    ours = make_bot("sixtysix.bots.random_bot:RandomBot:seed=3")
    builtin = make_bot("random:seed=3")
    hand = Hand.random(seed=11)
    for _ in range(5):
        view = hand.view(hand.to_act)
        assert ours.choose(view, view.legal) == builtin.choose(view, view.legal)


@pytest.mark.parametrize(("text", "spec", "message"), [
    (None, "nowhere.py:Bot", "bot file 'nowhere.py' not found"),
    (CAREFUL, "{path}:Missing", "has no class 'Missing'"),
    ("Bot = 3\n", "{path}:Bot", "has no class 'Bot'"),
    ("class Bot:\n    pass\n", "{path}:Bot", "Bot is not a bot"),
    ("def broken(:\n", "{path}:Bot", "cannot load bot file .*SyntaxError"),
    ("raise RuntimeError('no luck')\n", "{path}:Bot", "cannot load bot file .*RuntimeError: no luck"),
    # The option that is wrong, in the spec as written, with the options there are (issue 37, item 7).
    (CAREFUL, "{path}:Careful:colour=red",
     r"the bot '.*:Careful:colour=red' has no option 'colour' \(its options: threshold, paranoid, seed\)$"),
    (CAREFUL, "{path}:Careful:threshold", r"bad bot option 'threshold' in '.*:Careful:threshold': expected"),
    (CAREFUL, "{path}:Careful:x", r"bad bot option 'x' in '.*mybots\.py:Careful:x'"),
    (CAREFUL, "{path}:careful", r"has no class 'careful'$"),  # a lower-case name is still a class
    (None, "sixtysix_no_such_package.bots:Bot", "bot module 'sixtysix_no_such_package.bots' not found"),
])
def test_bad_specs_say_what_is_wrong(tmp_path: Path, text: str | None, spec: str, message: str) -> None:
    path = write(tmp_path, text) if text is not None else tmp_path / "unused.py"
    with pytest.raises(ParseError, match=message):
        make_bot(spec.format(path=path))


def test_the_arena_refuses_a_bad_spec_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "nowhere.py:Bot", "random", "--matches", "1", "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert "bot file 'nowhere.py' not found" in err
    assert "Traceback" not in out + err and len(err.strip().splitlines()) == 1


def test_the_arena_plays_a_file_bot_the_same_in_one_process_and_in_workers(
        capsys: pytest.CaptureFixture[str]) -> None:
    results = []
    for jobs in ("1", "2"):
        assert main(["arena", f"{GREEDY}:GreedyBot", "random", "--matches", "3", "--seed", "4",
                     "--jobs", jobs, "--json", "--quiet"]) == 0
        results.append(json.loads(capsys.readouterr().out)["games"])
    assert results[0] == results[1]
    assert {g["specs"][0] for g in results[0]} == {f"{GREEDY}:GreedyBot", "random"}
