"""The rules, twice: ``docs/rules.md`` for developers (the rule numbers the code and the
tests cite), and "How to play" for players, one page (``server/static/rules.html``,
messages of the catalogs) shown by the web game and, as Markdown, by the terminal game,
in the player's language."""

from __future__ import annotations

import re
import sys
from importlib import resources
from pathlib import Path

import pytest

from helpers import need_module
from sixtysix.i18n import LANGUAGES, _, use

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs" / "rules.md"


def test_the_developers_rules_cover_every_rule_section() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for section in ("R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12"):
        assert f"{section})" in text or f"{section}," in text, section


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_terminal_shows_every_text_of_the_players_rules_page(lang: str) -> None:
    """Every message of the web page's rules (read by the catalogs' own extractor, not by
    the terminal's renderer) is in the terminal's text, translated; no placeholder is left."""
    need_module("babel")
    need_module("textual")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from catalogs import _Marked
    finally:
        sys.path.remove(str(ROOT / "tools"))
    from sixtysix.tui.rules import rules_markdown

    page = resources.files("sixtysix").joinpath("server/static/rules.html").read_text(encoding="utf-8")
    main = page[page.index("<main"):page.index("</main>")]
    contents = main[main.index("<nav"):main.index("</nav>")]
    marked = _Marked()
    marked.feed(main.replace(contents, ""))
    with use(lang):
        text = rules_markdown()
        for _line, english in marked.found:
            if english.startswith("Back to the games") or "{" in english or "of " in english:
                continue  # a link out; sentences filled with cards; pictures' names
            assert _(english) in text, (lang, english)
    assert not re.search(r"\{\w+\}", text)
