"""The message catalogs: extract, update, compile and check them (needs Babel).

    python tools/catalogs.py extract    # the code's messages -> locale/sixtysix.pot
    python tools/catalogs.py update     # the template's new messages into each .po
    python tools/catalogs.py compile    # each .po -> .mo (what gettext reads)
    python tools/catalogs.py check      # what the tests check; exit 1 on a problem

Messages come from three kinds of file: Python (``_``, ``N_``, ``ngettext``,
``pgettext`` of :mod:`sixtysix.i18n`), the page's scripts (``t``, ``nt``, ``pt``
of common.js) and the page's HTML (the text of every element marked
``data-i18n``, and the attributes it names in ``data-i18n-attr``). A translator
edits ``locale/<lang>/LC_MESSAGES/sixtysix.po`` and runs ``compile``.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract, extract_javascript, extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "sixtysix"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "sixtysix.pot"
LANGUAGES = ("de", "bg", "hu")

PY_KEYWORDS: dict[str, Any] = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
JS_KEYWORDS: dict[str, Any] = {"t": None, "nt": (1, 2), "pt": ((1, "c"), 2)}
HEADER = """\
# Messages of sixtysix, the card game Sixty-six, to the people who play it.
# Made by tools/catalogs.py from the code; translations in <lang>/LC_MESSAGES/.
# Placeholders are {name}, the same in the code and in every translation."""
#: ``{name}`` placeholders, the same in Python's str.format and the page's t().
PLACEHOLDER = re.compile(r"\{(\w*)\}")


class _Marked(HTMLParser):
    """The texts of an HTML page marked for translation."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []  # marked elements being read
        self._depth: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        line = self.getpos()[0]
        for name in (values.get("data-i18n-attr") or "").split():
            if values.get(name):
                self.found.append((line, str(values[name])))
        if "data-i18n" in values:
            self._open.append((tag, line, []))
        elif tag not in ("input", "img", "br", "meta", "link") and self._open:
            self._depth.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._depth and self._depth[-1] == tag:
            self._depth.pop()
            return
        if self._open and self._open[-1][0] == tag:
            _, line, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            if text:
                self.found.append((line, text))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)


def extract_html(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[Any]:
    """A Babel extraction method for our pages' ``data-i18n`` markup."""
    parser = _Marked()
    parser.feed(fileobj.read().decode("utf-8"))
    for line, text in parser.found:
        yield line, "_", text, []


def _sources() -> Iterator[tuple[Path, Any, dict[str, Any]]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path, extract_python, PY_KEYWORDS
    for path in sorted((PACKAGE / "server" / "static").glob("*.js")):
        yield path, extract_javascript, JS_KEYWORDS
    for path in sorted((PACKAGE / "server" / "static").glob("*.html")):
        yield path, extract_html, {"_": None}


def template() -> Catalog:
    """Every message of the code, with where it is used."""
    catalog = Catalog(project="sixtysix", version="0.1", charset="utf-8", fuzzy=False,
                      header_comment=HEADER, copyright_holder="The sixtysix developers")
    for path, method, keywords in _sources():
        with path.open("rb") as handle:
            for line, message, comments, context in extract(method, handle, keywords=keywords,
                                                             comment_tags=("TRANSLATORS:",),
                                                             strip_comment_tags=True):
                if not message or (isinstance(message, tuple) and not message[0]):
                    continue
                catalog.add(message, None, [(str(path.relative_to(ROOT)), line)],
                            auto_comments=comments, context=context)
    return catalog


def _write(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=True,
             include_lineno=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def po_path(lang: str, locale: Path = LOCALE) -> Path:
    return locale / lang / "LC_MESSAGES" / "sixtysix.po"


def read(lang: str, locale: Path = LOCALE) -> Catalog:
    with po_path(lang, locale).open("rb") as handle:
        return read_po(handle, locale=lang, domain="sixtysix", abort_invalid=True)


def compiled(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def _ids(catalog: Catalog) -> set[tuple[Any, str | None]]:
    return {(m.id, m.context) for m in catalog if m.id}


def problems(locale: Path = LOCALE) -> list[str]:
    """What is wrong with the catalogs: a message of the code missing from the template
    or a catalog, untranslated or fuzzy, with other placeholders than its English, a
    catalog whose compiled form is out of date."""
    found: list[str] = []
    code = template()
    with (locale / TEMPLATE.name).open("rb") as handle:
        stored = read_po(handle)
    if _ids(code) != _ids(stored):
        missing = sorted(str(m[0]) for m in _ids(code) - _ids(stored))
        extra = sorted(str(m[0]) for m in _ids(stored) - _ids(code))
        found.append(f"{TEMPLATE.name} is out of date (run tools/catalogs.py extract): "
                     f"missing {missing[:5]}, no longer used {extra[:5]}")
    for lang in LANGUAGES:
        try:
            catalog = read(lang, locale)
        except Exception as exc:  # a broken file is a failure, whatever broke it
            found.append(f"{lang}: the catalog cannot be read: {exc}")
            continue
        name = f"{lang}/LC_MESSAGES/sixtysix.po"
        if catalog.plural_expr.replace(" ", "") not in ("(n!=1)", "n!=1"):
            found.append(f"{name}: plural forms {catalog.plural_expr!r}; the page knows only n != 1")
        ids = {(m.id, m.context): m for m in catalog if m.id}
        for key in sorted(_ids(code) - set(ids), key=str):
            found.append(f"{name}: no translation of {key[0]!r}")
        for key, message in sorted(ids.items(), key=lambda item: str(item[0])):
            if key not in _ids(code):
                continue
            texts = list(message.string) if isinstance(message.string, tuple) else [message.string]
            originals = list(message.id) if isinstance(message.id, tuple) else [message.id]
            if message.fuzzy or not all(texts):
                found.append(f"{name}: {originals[0]!r} is untranslated or fuzzy")
                continue
            wanted = set(PLACEHOLDER.findall(originals[-1])) | set(PLACEHOLDER.findall(originals[0]))
            for text in texts:
                got = set(PLACEHOLDER.findall(text))
                # A singular may leave out the count ("one trick"), never add a name.
                if not got <= wanted or (len(texts) == 1 and got != wanted):
                    found.append(f"{name}: {originals[0]!r} -> {text!r}: placeholders "
                                 f"{sorted(got)}, the English has {sorted(wanted)}")
        mo = po_path(lang, locale).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(catalog):
            found.append(f"{name}: the compiled .mo is out of date (run tools/catalogs.py compile)")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["extract", "update", "compile", "check"])
    args = parser.parse_args(argv)
    if args.command == "extract":
        _write(TEMPLATE, template())
    elif args.command == "update":
        with TEMPLATE.open("rb") as handle:
            pot = read_po(handle)
        for lang in LANGUAGES:
            if po_path(lang).exists():
                catalog = read(lang)
                catalog.update(pot, no_fuzzy_matching=True)
                catalog.obsolete.clear()
            else:
                catalog = Catalog(locale=lang, domain="sixtysix", project="sixtysix", fuzzy=False,
                                  header_comment=HEADER, copyright_holder="The sixtysix developers")
                catalog.update(pot, no_fuzzy_matching=True)
            _write(po_path(lang), catalog)
    elif args.command == "compile":
        for lang in LANGUAGES:
            po_path(lang).with_suffix(".mo").write_bytes(compiled(read(lang)))
    else:
        issues = problems()
        for line in issues:
            print(line)
        return 1 if issues else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
