"""Languages: people-facing text from message catalogs (GNU gettext).

Every sentence a person reads — on the web page, in the terminal game, in the
command line's messages to players — is written in English in the code and
looked up in a catalog for the player's language. The catalogs are the
``locale/<lang>/LC_MESSAGES/sixtysix.po`` files of the package (compiled to
``.mo`` for :mod:`gettext`); the web page reads the same catalogs as JSON
(:func:`catalog`). Messages use ``{name}`` placeholders, filled by
:meth:`str.format` here and by the page's ``t()`` there, so one message serves both.

Standard library only: this module is part of the core.

>>> normalize("de-AT"), normalize("hu_HU.UTF-8"), normalize("xx"), normalize(None)
('de', 'hu', 'en', 'en')
>>> with use("de"):
...     rank_letter("Q"), rank_letter("10")
('D', '10')
>>> rank_letter("Q")
'Q'
"""

from __future__ import annotations

import contextlib
import gettext
import os
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path

__all__ = [
    "DEFAULT",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "_",
    "card_name",
    "catalog",
    "decimal",
    "language",
    "ngettext",
    "normalize",
    "pgettext",
    "rank_letter",
    "rank_name",
    "set_language",
    "suit_name",
    "system_language",
    "translation",
    "use",
]

#: The languages with a catalog, each named in itself (for a language switch).
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "bg": "Български", "hu": "Magyar"}
#: The language of the code's own strings, and the fallback for any other code.
DEFAULT = "en"
#: The gettext domain: the catalogs' file name.
DOMAIN = "sixtysix"
#: Where the catalogs are: ``LOCALE_DIR/<lang>/LC_MESSAGES/sixtysix.po`` (and ``.mo``).
LOCALE_DIR = Path(__file__).parent / "locale"
_language: ContextVar[str] = ContextVar("sixtysix_language", default=DEFAULT)


def normalize(code: str | None) -> str:
    """The catalog language for a locale or language tag (``de-AT``, ``hu_HU.UTF-8``,
    ``bg``); anything without a catalog is English."""
    if not code:
        return DEFAULT
    base = code.strip().replace("_", "-").split(".")[0].split("@")[0].split("-")[0].lower()
    return base if base in LANGUAGES else DEFAULT


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the system's locale asks for, as gettext reads it: the first of
    ``LANGUAGE`` (a colon-separated list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``
    that names a language with a catalog; English otherwise.

    >>> system_language({"LANG": "de_DE.UTF-8"}), system_language({"LANGUAGE": "fr:hu", "LANG": "C"})
    ('de', 'hu')
    """
    env = os.environ if environ is None else environ
    candidates = [code for code in env.get("LANGUAGE", "").split(":") if code]
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(variable):
            candidates.append(env[variable])
            break
    for code in candidates:
        if normalize(code) != DEFAULT:
            return normalize(code)
    return DEFAULT


@cache
def translation(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: the messages as written)."""
    lang = normalize(lang)
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


def language() -> str:
    """The language of text made now (per thread and per asyncio task)."""
    return _language.get()


def set_language(lang: str | None) -> str:
    """Make text in ``lang`` from now on (in this context); returns the language used."""
    chosen = normalize(lang)
    _language.set(chosen)
    return chosen


@contextlib.contextmanager
def use(lang: str | None) -> Iterator[str]:
    """Make text in ``lang`` inside a ``with`` block."""
    token = _language.set(normalize(lang))
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def _(message: str) -> str:
    """``message`` in the current language."""
    return translation(language()).gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it (for tables built at
    import time; translate with :func:`_` where the text is shown)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` in the current language."""
    return translation(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where the same English word needs
    different translations by ``context``."""
    return translation(language()).pgettext(context, message)


def decimal(value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals and the decimal mark of the current language
    (``1.4``; ``1,4`` in German, Bulgarian and Hungarian).

    >>> decimal(1.43), decimal(-0.5, 2)
    ('1.4', '-0.50')
    """
    return f"{value:.{digits}f}".replace(".", pgettext("decimal mark", "."))


def rank_letter(rank: str) -> str:
    """The letter printed on a card of rank ``rank`` (``J``, ``Q``, ``K``, ``A``; ``10``
    and ``9`` are numbers everywhere) in the current language (``B``, ``D``, ``K``, ``A``
    in German)."""
    if rank == "J":
        return pgettext("card rank", "J")
    if rank == "Q":
        return pgettext("card rank", "Q")
    if rank == "K":
        return pgettext("card rank", "K")
    if rank == "A":
        return pgettext("card rank", "A")
    return rank


def suit_name(letter: str) -> str:
    """A suit in words (``C``, ``D``, ``H``, ``S``): ``clubs``, ``Kreuz``, ``спатия``."""
    if letter == "C":
        return pgettext("suit", "clubs")
    if letter == "D":
        return pgettext("suit", "diamonds")
    if letter == "H":
        return pgettext("suit", "hearts")
    if letter == "S":
        return pgettext("suit", "spades")
    raise ValueError(f"not a suit letter: {letter!r}")


def rank_name(letter: str) -> str:
    """A rank in words (``9``, ``T``, ``J``, ``Q``, ``K``, ``A``): ``queen``, ``Dame``."""
    if len(letter) != 1 or letter not in "9TJQKA":
        raise ValueError(f"not a rank letter: {letter!r}")
    if letter == "9":
        return pgettext("rank", "nine")
    if letter == "T":
        return pgettext("rank", "ten")
    if letter == "J":
        return pgettext("rank", "jack")
    if letter == "Q":
        return pgettext("rank", "queen")
    if letter == "K":
        return pgettext("rank", "king")
    return pgettext("rank", "ace")


def card_name(code: str) -> str:
    """A card in words, from its code (``QH``): ``queen of hearts``, ``Herz-Dame``.

    >>> card_name("QH")
    'queen of hearts'
    >>> with use("de"):
    ...     card_name("TD")
    'Karo-Zehn'
    """
    return _("{rank} of {suit}").format(rank=rank_name(code[0]), suit=suit_name(code[1]))


def catalog(lang: str) -> dict[str, object]:
    """The catalog of ``lang`` for the web page: ``{"lang", "messages"}`` where each
    message maps its English text (``context\\x04text`` with a context) to its
    translation, a list of forms for plurals (the form is ``n != 1`` in every
    language we carry, which the tests check). English has no messages."""
    lang = normalize(lang)
    messages: dict[str, object] = {}
    if lang != DEFAULT:
        compiled = translation(lang)
        # gettext's parsed catalog: {msgid: text} and {(msgid, form): text} for plurals.
        raw: dict[str | tuple[str, int], str] = getattr(compiled, "_catalog", {})
        for key, text in raw.items():
            if isinstance(key, tuple):
                forms = messages.setdefault(key[0], ["", ""])
                assert isinstance(forms, list)
                if key[1] < len(forms):
                    forms[key[1]] = text
            elif key:  # the empty id is the catalog's header
                messages[key] = text
    return {"lang": lang, "messages": messages}
