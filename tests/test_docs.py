"""The documentation site's own code: the tutorial's examples and arena run
give what the pages show, the home page's example runs, and the Griffe
extension turns our docstrings into Markdown (CI builds the site itself with
``mkdocs build --strict``)."""

from __future__ import annotations

import ast
import html
import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from helpers import need_module
from sixtysix.extras import install_command
from sixtysix.game.record import load, replay
from sixtysix.rules import PRESETS

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
TUTORIAL = (DOCS / "tutorial.md").read_text(encoding="utf-8")


def fenced(text: str) -> list[tuple[str, str]]:
    """Every fenced block of a page as (language, body), in order."""
    return re.findall(r"^```(\w*)\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)


def test_the_tutorial_bot_is_the_example_file_and_about_twenty_lines() -> None:
    assert '--8<-- "examples/greedy_bot.py"' in TUTORIAL
    code = [line for line in (ROOT / "examples" / "greedy_bot.py").read_text().splitlines()
            if line.strip() and not line.strip().startswith("#")]
    class_start = next(i for i, line in enumerate(code) if line.startswith("class "))
    assert len(code[class_start:]) <= 20


def test_the_tutorial_python_examples_print_what_the_page_shows(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = fenced(TUTORIAL)
    examples = [(body, blocks[i + 1][1]) for i, (lang, body) in enumerate(blocks)
                if lang == "python" and "--8<--" not in body]
    assert examples
    monkeypatch.chdir(ROOT)  # the page's paths are relative to a copy of the repository
    for code, shown in examples:
        exec(compile(code, "docs/tutorial.md", "exec"), {})
        assert capsys.readouterr().out == shown


def test_the_tutorial_arena_run_prints_what_the_page_shows() -> None:
    blocks = fenced(TUTORIAL)
    index = next(i for i, (lang, body) in enumerate(blocks) if lang == "sh" and "sixtysix arena" in body)
    command, shown = blocks[index][1].split(), blocks[index + 1][1]
    assert command[:2] == ["sixtysix", "arena"]
    run = subprocess.run([sys.executable, "-m", "sixtysix", *command[1:]], cwd=ROOT,
                         capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr
    *body, timing = run.stdout.rstrip("\n").split("\n")
    *shown_body, shown_timing = shown.rstrip("\n").split("\n")
    # Everything but the speed, which depends on the machine, is the same for the same seed.
    assert body == shown_body
    pattern = r"600 matches \(2,675 hands\) in [\d.]+ s on (1 process|\d+ worker processes): [\d,]+ hands/s"
    assert re.fullmatch(pattern, timing) and re.fullmatch(pattern, shown_timing)


def test_the_home_page_example_prints_what_the_page_shows(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = fenced((DOCS / "index.md").read_text(encoding="utf-8"))
    ((index, code),) = [(i, body) for i, (lang, body) in enumerate(blocks) if lang == "python"]
    exec(compile(code, "docs/index.md", "exec"), {})
    assert capsys.readouterr().out == blocks[index + 1][1]


def griffe_rst() -> ModuleType:
    need_module("griffe", "pip install -e '.[docs]'")
    spec = importlib.util.spec_from_file_location("griffe_rst", DOCS / "griffe_rst.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_inline_markup_becomes_markdown_code_and_package_roles_become_optional_links() -> None:
    convert = griffe_rst().rst_to_markdown
    assert convert("Use ``x + 1`` and :meth:`choose()` of :class:`BaseBot`.") == (
        "Use `x + 1` and `choose` of `BaseBot`.")
    link = '<autoref identifier="{}" optional><code>{}</code></autoref>'
    assert convert("A :class:`~sixtysix.game.views.View` and :func:`sixtysix.analyse`.") == (
        f"A {link.format('sixtysix.game.views.View', 'View')} and "
        f"{link.format('sixtysix.analyse', 'sixtysix.analyse')}.")
    assert convert("with :meth:`Hand.from_view\n<sixtysix.game.hand.Hand.from_view>`") == (
        "with " + link.format("sixtysix.game.hand.Hand.from_view", "Hand.from_view"))
    assert convert("See :class:`Constraints`.", "sixtysix.game.worlds") == (
        f"See {link.format('sixtysix.game.worlds.Constraints', 'Constraints')}.")


def test_doctests_literal_blocks_and_tables_are_fenced() -> None:
    convert = griffe_rst().rst_to_markdown
    assert convert("Look:\n>>> 1 + 1\n2\n\nDone.") == "Look:\n\n```pycon\n>>> 1 + 1\n2\n```\n\nDone."
    assert convert("Run it::\n\n    import x\n    x.go()\n\nAfter.") == (
        "Run it:\n\n```\nimport x\nx.go()\n```\n\nAfter.")
    table = "====  =====\ncode  what\n====  =====\n0     ``A``\n12    twelve\n====  =====\nAfter."
    assert convert(table) == "| code | what |\n| --- | --- |\n| 0 | `A` |\n| 12 | twelve |\nAfter."


def test_no_docstring_of_the_package_keeps_markup_the_site_would_show_raw() -> None:
    convert = griffe_rst().rst_to_markdown
    leftovers = []
    for path in sorted((ROOT / "src" / "sixtysix").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node)
                prose = re.sub(r"^ *```.*?^ *```$", "", convert(doc or ""), flags=re.DOTALL | re.MULTILINE)
                if re.search(r"``|:\w+:`|^\s*=====", prose, flags=re.MULTILINE):
                    leftovers.append(f"{path.name}:{getattr(node, 'name', '(module)')}")
    assert not leftovers


def test_the_kernel_page_example_prints_what_the_page_shows() -> None:
    """docs/kernel.md: the custom playout runs and prints the figure shown (the kernels'
    random numbers and rules are the same, so both kernels print it)."""
    page = (DOCS / "kernel.md").read_text(encoding="utf-8")
    blocks = fenced(page)
    index = next(i for i, (_, body) in enumerate(blocks) if "examples/kernel_playout.py" in body)
    shown = blocks[index + 1][1]
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "kernel_playout.py")],
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout == shown
    function = ast.parse((ROOT / "examples" / "kernel_playout.py").read_text()).body
    playout = next(node for node in function if isinstance(node, ast.FunctionDef))
    assert playout.end_lineno is not None and playout.end_lineno - playout.lineno <= 12


DESIGN_SECTION = re.compile(r"^## §(\d+) ", flags=re.MULTILINE)
# "docs/design.md §3" in code and tests, "design.md#s3" in a page's link.
DESIGN_CITATION = re.compile(r"docs/design\.md §(\d+)|design\.md#s(\d+)")
# A citation of the design notes that used to live outside the repository: their file
# name in capitals, with or without the extension, before a section number.
OUTSIDE_CITATION = re.compile(r"\bDESIGN(?:\.md\b| *§)")


def cited_files() -> list[Path]:
    """The files that may cite docs/design.md: the package, the tests, the pages, the README."""
    files = [ROOT / "README.md", *sorted(DOCS.rglob("*.md")), *sorted(DOCS.rglob("*.py"))]
    for folder in ("src", "tests"):
        files += sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".c", ".h", ".md"))
    return files


def test_design_page_sections_are_numbered_in_order_with_stable_anchors() -> None:
    page = (DOCS / "design.md").read_text(encoding="utf-8")
    numbers = [int(n) for n in DESIGN_SECTION.findall(page)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 9
    for n in numbers:  # the anchor #sN is what other pages link to
        assert re.search(rf"^## §{n} .*\{{ #s{n} \}}$", page, flags=re.MULTILINE), n


def test_every_design_citation_names_a_section_that_exists() -> None:
    sections = {int(n) for n in DESIGN_SECTION.findall((DOCS / "design.md").read_text(encoding="utf-8"))}
    cited: dict[str, set[int]] = {}
    for path in cited_files():
        for section, anchor in DESIGN_CITATION.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(str(path.relative_to(ROOT)), set()).add(int(section or anchor))
    assert cited, "nothing cites docs/design.md"
    missing = {name: sorted(ns - sections) for name, ns in cited.items() if ns - sections}
    assert not missing


def test_no_citation_of_the_outside_design_notes_remains() -> None:
    left = [f"{path.relative_to(ROOT)}:{i}" for path in cited_files()
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if OUTSIDE_CITATION.search(line)]
    assert not left


def test_the_design_page_replay_example_is_what_replay_prints() -> None:
    """docs/design.md §5 shows a record's result in words and as JSON: both are today's."""
    blocks = fenced((DOCS / "design.md").read_text(encoding="utf-8"))
    words = next(body for _, body in blocks if body.startswith("$ sixtysix replay "))
    command, shown = words.rstrip("\n").split("\n")
    path = ROOT / command.split()[-1]
    assert replay(load(path)).describe() == shown
    ((_, as_json),) = [(lang, body) for lang, body in blocks if lang == "json"]
    expected = (path.parent / f"{path.stem}.expected.json").read_text(encoding="utf-8")
    assert as_json.strip() == expected.strip()


# Install lines and hints (issue 37, item 12) -----------------------------------------

#: Where people read how to install something: the pages, the READMEs, the code's messages.
INSTALL_TEXTS = ["README.md", "training/README.md", "benchmarks/results/README.md", "docs/*.md",
                 "src/sixtysix/**/*.py", "benchmarks/*.py", "training/*.py", "examples/*", "fuzz/*.py"]
#: ``pip install`` of the package, published or not, with its extras.
PACKAGE_INSTALL = re.compile(r"pip install (-e )?['\"]?(sixtysix|\.)\[([\w,]*)\]")


def extras() -> set[str]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return set(tomllib.load(file)["project"]["optional-dependencies"])


def install_lines() -> list[tuple[str, str, str, str]]:
    """(file, editable flag, package, extras) of every install line of the package."""
    found = []
    for pattern in INSTALL_TEXTS:
        for path in sorted(ROOT.glob(pattern)):
            for editable, package, names in PACKAGE_INSTALL.findall(path.read_text(encoding="utf-8")):
                found.append((str(path.relative_to(ROOT)), editable, package, names))
    return found


def test_every_install_line_installs_from_a_copy_of_the_repository() -> None:
    """The package is not published: ``pip install 'sixtysix[rl]'`` finds nothing, while
    ``pip install -e '.[rl]'`` works in a copy of the repository. Every page and hint says that."""
    lines = install_lines()
    assert len(lines) >= 20
    assert [line for line in lines if line[2] == "sixtysix"] == []
    unknown = [line for line in lines if not set(line[3].split(",")) <= extras()]
    assert unknown == []


def test_the_hints_of_the_code_name_extras_that_exist_through_one_function() -> None:
    assert install_command("rl") == "pip install -e '.[rl]'"
    assert PACKAGE_INSTALL.match(install_command("cluster", "net"))
    named = set()
    for path in sorted((ROOT / "src" / "sixtysix").rglob("*.py")):
        named |= set(re.findall(r"install_command\(((?:['\"]\w+['\"](?:, )?)+)\)", path.read_text()))
    assert named, "no hint calls install_command"
    for call in named:
        assert set(re.findall(r"\w+", call)) <= extras(), call


# The training pipeline's README (issue 37, item 15) -----------------------------------

def third_party_imports(folder: Path) -> set[str]:
    """The top-level modules the folder's code imports outside the standard library and ours."""
    found = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"sixtysix", "training"}


def extra_requirements(extra: str) -> set[str]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        wanted = tomllib.load(file)["project"]["optional-dependencies"][extra]
    return {re.split(r"[\[<>=!~ ]", requirement)[0].lower() for requirement in wanted}


def test_the_training_setup_installs_what_training_needs_and_no_more() -> None:
    page = (ROOT / "training" / "README.md").read_text(encoding="utf-8")
    setup = fenced(page)[0][1]
    installed = re.findall(r"pip install -e '\.\[([\w,]+)\]' (\S+)", setup)
    assert installed == [("rl", "torch==2.13.0")]  # not the test extra's browsers, servers and Dask
    # The package's RL encoding imports gymnasium (sixtysix.envs); numpy and torch are training's own.
    assert third_party_imports(ROOT / "training") == {"numpy", "torch"}
    assert {"numpy", "gymnasium"} <= extra_requirements("rl")
    assert "import gymnasium" in (ROOT / "src" / "sixtysix" / "envs" / "gym.py").read_text(encoding="utf-8")


def test_the_training_commands_all_run_in_the_activated_environment() -> None:
    page = (ROOT / "training" / "README.md").read_text(encoding="utf-8")
    lines = [line for lang, body in fenced(page) if lang == "sh" for line in body.splitlines() if line]
    assert ". .venv/bin/activate" in lines[0]
    assert [line for line in lines[1:] if ".venv/bin/" in line] == []
    assert all(line.startswith(("pip install ", "python -m training ")) for line in lines[1:]), lines


# The home page, the figures' pages and the terminal's picture (issue 37, items 16-17) --

def test_the_home_page_names_every_preset_extra_and_rl_interface() -> None:
    page = (DOCS / "index.md").read_text(encoding="utf-8")
    presets = page.split("**presets**", 1)[1].split(";", 1)[0]
    assert set(re.findall(r"`(\w+)`", presets)) == set(PRESETS)
    assert f"- {NUMBERS[len(PRESETS)]} **presets**" in page
    table = page.split("| extra | what it adds |", 1)[1].split("\n\n", 1)[0]
    assert sorted(re.findall(r"^\| `(\w+)` \|", table, flags=re.MULTILINE)) == sorted(extras())
    interfaces = {"Gymnasium": "gym.py", "PettingZoo": "pettingzoo.py", "OpenSpiel": "openspiel.py"}
    assert all((ROOT / "src" / "sixtysix" / "envs" / module).is_file() for module in interfaces.values())
    named = f"{NUMBERS[len(interfaces)]} reinforcement-learning interfaces\n  ({', '.join(interfaces)})"
    assert named.replace(", OpenSpiel", " and OpenSpiel") in page


NUMBERS = {3: "three", 4: "four", 5: "five", 6: "six"}


def svg_text(path: Path) -> list[str]:
    """The characters of each line of a terminal screenshot, as drawn."""
    drawn = re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text(encoding="utf-8"))
    return [html.unescape(text).replace("\xa0", " ") for text in drawn]


def test_the_terminal_games_picture_is_what_the_game_draws_today(tmp_path: Path) -> None:
    """The README and the home page show the terminal game as tools/screenshot.py draws it
    with Textual now: after a change to the game's screen, run the tool again."""
    need_module("textual", "pip install -e '.[tui]'")
    picture = DOCS / "images" / "terminal-game.svg"
    assert "(docs/images/terminal-game.svg)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(images/terminal-game.svg)" in (DOCS / "index.md").read_text(encoding="utf-8")
    run = subprocess.run([sys.executable, "tools/screenshot.py", "--out", str(tmp_path / "now.svg")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    now = svg_text(tmp_path / "now.svg")
    assert any("Your lead" in line for line in now) and any("Marry" in line for line in now)
    assert svg_text(picture) == now, "the picture is out of date: python tools/screenshot.py"


def test_the_figures_pages_are_in_the_site_and_take_the_readmes_tables() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "  - Strength: strength.md\n" in nav and "  - Speed: speed.md\n" in nav
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    markers = re.findall(r"<!-- --8<-- \[start:(\w+)\] -->", readme)
    assert sorted(markers) == sorted(re.findall(r"<!-- --8<-- \[end:(\w+)\] -->", readme))
    included = {name for page in DOCS.glob("*.md") for name in
                re.findall(r'^--8<-- "README\.md:(\w+)"$', page.read_text("utf-8"), flags=re.MULTILINE)}
    assert included == set(markers)  # every section the pages take exists, and every marker is used
    for page, name in (("strength.md", "strength"), ("speed.md", "speed")):
        assert f'--8<-- "README.md:{name}"' in (DOCS / page).read_text(encoding="utf-8")


def dates(row: str) -> list[int]:
    """The days of December 2026 a table row names ("2026-12-06 and 07" is two)."""
    days = []
    for first, second in re.findall(r"2026-12-(\d\d)(?: and (\d\d))?", row):
        days += [int(first)] + ([int(second)] if second else [])
    return days


def test_the_strength_page_gives_the_latest_first() -> None:
    page = (DOCS / "strength.md").read_text(encoding="utf-8")
    assert page.index("## The levels today") < page.index("## History")
    for heading in ("### Whole matches", "### On the schnapsen course platform"):
        section = page.split(heading, 1)[1]
        table = [line for line in section.split("\n\n| ", 1)[1].split("\n\n", 1)[0].splitlines()[2:]]
        latest = [max(dates(row), default=0) for row in table]
        assert latest == sorted(latest, reverse=True), heading
    today = page.split("## The levels today", 1)[1].split("## History", 1)[0]
    history = page.split("## History", 1)[1]
    for won in re.findall(r"\*\*(\d[\d,]* of [\d,]+ \([^)]*\))\*\*", today):
        assert won in history, won  # each latest figure is one of the runs below


def test_the_schnapsen_page_gives_the_ratio_measured_last() -> None:
    speed = (DOCS / "speed.md").read_text(encoding="utf-8")
    head = "| machine | schnapsen 0.0.5 games/s | sixtysix games/s | ratio |"
    rows = speed.split(head, 1)[1].splitlines()[2:]
    theirs, ours, ratio = (cell.strip(" *") for cell in rows[0].split("|")[2:5])
    assert f"{int(ours.replace(',', '')) / int(theirs.replace(',', '')):.1f}×" == ratio
    page = (DOCS / "schnapsen.md").read_text(encoding="utf-8")
    assert f"{ours} against {theirs}, **{ratio[:-1]} times**" in page
    assert "`python benchmarks/course_engines.py --seconds 3 --rounds 2`" in page
