"""The rules page has one source: the package's ``data/rules.md``, shown by the
terminal game's rules screen; ``docs/rules.md`` must be the same text."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

DOCS = Path(__file__).parent.parent / "docs" / "rules.md"


def package_rules() -> str:
    return resources.files("sixtysix").joinpath("data/rules.md").read_text(encoding="utf-8")


def test_docs_rules_is_the_package_rules_page() -> None:
    assert DOCS.read_text(encoding="utf-8") == package_rules(), (
        "docs/rules.md differs from src/sixtysix/data/rules.md: edit the package file and copy it")


def test_the_rules_page_covers_every_rule_section() -> None:
    text = package_rules()
    for section in ("R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12"):
        assert f"{section})" in text or f"{section}," in text, section
