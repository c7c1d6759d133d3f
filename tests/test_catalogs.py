"""The message catalogs (issue 18, languages): every message of the code is in the
template and translated in every catalog, with the same placeholders; the compiled
catalogs are those of the sources; a broken catalog fails here, never on a page."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from helpers import need_module
from sixtysix import i18n

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def catalogs():  # type: ignore[no-untyped-def]
    need_module("babel")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import catalogs as module
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return module


def test_every_message_is_in_the_template_and_translated_in_every_catalog(catalogs) -> None:
    assert catalogs.problems() == []
    assert set(catalogs.LANGUAGES) | {i18n.DEFAULT} == set(i18n.LANGUAGES)


def _broken(tmp_path: Path, catalogs, lang: str, edit) -> list[str]:  # type: ignore[no-untyped-def]
    locale = tmp_path / "locale"
    shutil.copytree(catalogs.LOCALE, locale)
    po = catalogs.po_path(lang, locale)
    po.write_text(edit(po.read_text(encoding="utf-8")), encoding="utf-8")
    return catalogs.problems(locale)


def test_a_missing_translation_fails(tmp_path: Path, catalogs) -> None:
    def drop_last(text: str) -> str:
        head, _, _ = text.rpartition("\n#:")
        return head + "\n"
    found = _broken(tmp_path, catalogs, "hu", drop_last)
    assert any("hu/" in line and "no translation" in line for line in found), found


def test_an_empty_translation_fails(tmp_path: Path, catalogs) -> None:
    found = _broken(tmp_path, catalogs, "de", lambda t: t.replace('msgstr "D"', 'msgstr ""'))
    assert any("untranslated" in line for line in found), found


def test_a_wrong_placeholder_fails(tmp_path: Path, catalogs) -> None:
    def rename(text: str) -> str:
        # The first translation with a placeholder gets another name in it.
        lines = text.split("\n")
        at = next(i for i, line in enumerate(lines) if line.startswith("msgstr") and "{" in line)
        start = lines[at].index("{")
        end = lines[at].index("}", start)
        lines[at] = lines[at][:start] + "{nonsense" + lines[at][end:]
        return "\n".join(lines)
    found = _broken(tmp_path, catalogs, "bg", rename)
    assert any("placeholders" in line for line in found), found


def test_a_catalog_that_cannot_be_read_fails(tmp_path: Path, catalogs) -> None:
    found = _broken(tmp_path, catalogs, "de", lambda t: t + '\nmsgid "unterminated\n')
    assert any("de: the catalog cannot be read" in line for line in found), found


def test_a_stale_compiled_catalog_fails(tmp_path: Path, catalogs) -> None:
    found = _broken(tmp_path, catalogs, "de", lambda t: t.replace('msgstr "D"', 'msgstr "Q"'))
    assert any("de/" in line and ".mo is out of date" in line for line in found), found


def test_unknown_languages_fall_back_to_english() -> None:
    for code in ("xx", "fr-FR", "", None, "en-GB", "../../etc", "C", "POSIX"):
        assert i18n.normalize(code) == "en"
    assert i18n.catalog("zz") == {"lang": "en", "messages": {}}
    with i18n.use("klingon"):
        assert i18n.language() == "en"
        assert i18n.rank_letter("Q") == "Q"


def test_the_page_catalog_holds_what_gettext_reads() -> None:
    for lang in ("de", "bg", "hu"):
        messages = i18n.catalog(lang)["messages"]
        assert isinstance(messages, dict)
        with i18n.use(lang):
            for rank in "JQKA":
                assert messages[f"card rank\x04{rank}"] == i18n.rank_letter(rank) != ""
    # The letters on the cards where they are customary (B/D/K/A in German).
    with i18n.use("de"):
        letters = [i18n.rank_letter(r) for r in ("J", "Q", "K", "A", "10", "9")]
        assert letters == ["B", "D", "K", "A", "10", "9"]


def test_system_locale_picks_the_language() -> None:
    assert i18n.system_language({"LANG": "bg_BG.UTF-8"}) == "bg"
    assert i18n.system_language({"LC_ALL": "hu_HU.UTF-8", "LANG": "de_DE.UTF-8"}) == "hu"
    assert i18n.system_language({"LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"}) == "de"
    assert i18n.system_language({"LANG": "C.UTF-8"}) == "en"
    assert i18n.system_language({}) == "en"
