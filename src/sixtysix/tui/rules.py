"""How to play, for the terminal game: the web game's rules page as Markdown.

The players' rules have one source, the page ``server/static/rules.html``: its
texts are messages of the catalogs (marked ``data-i18n``), so the terminal game
shows the same rules, in the same words, in the player's language. Headings,
paragraphs, lists, the scoring table and the rule sets become Markdown; a row of
card pictures becomes the cards written as on the card with their captions; a
sentence that names cards (``data-cards="lead=KS"``) gets them filled in the
same way the page fills them.

>>> text = rules_markdown()
>>> text.splitlines()[0]
'# How to play Sixty-six'
>>> "A♥ 11 · 10♥ 10 · K♥ 4 · Q♥ 3 · J♥ 2 · 9♥ 0" in text
True
>>> from sixtysix.i18n import use
>>> with use("de"):
...     "Trumpf" in rules_markdown() and "D♥ 3" in rules_markdown()
True
"""

from __future__ import annotations

from html.parser import HTMLParser
from importlib import resources

from sixtysix.game.cards import Card
from sixtysix.i18n import _
from sixtysix.present.text.words import card_text

__all__ = ["rules_markdown"]

#: Elements whose whole text is one block of the Markdown.
_BLOCKS = {"h1": "# ", "h2": "## ", "h3": "### ", "p": "", "dd": "", "li": "", "dt": ""}


class _Reader(HTMLParser):
    """Walks the page's ``<main>``, turning each marked text into a Markdown block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self._in_main = False
        self._skip = 0  # inside the page's own table of contents (a list of links)
        self._text: list[str] | None = None
        self._tag = ""
        self._cards: dict[str, str] = {}
        self._list: list[int] = []  # numbering of the open ordered lists
        self._row: list[str] | None = None  # the cells of a table row
        self._figures: list[str] | None = None  # a row of card pictures
        self._figure: list[str] = []
        self._rows = 0  # rows of the table being read
        self._divs = 0  # groups open inside a row of pictures
        self._marked = False  # the text being read is a message (data-i18n)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "main":
            self._in_main = True
        if not self._in_main:
            return
        if tag == "nav":
            self._skip += 1
        if self._skip:
            return
        if tag == "ol":
            self._list.append(0)
        elif tag == "table":
            self._rows = 0
        elif tag == "tr":
            self._row = []
        elif tag == "div" and "card-row" in values.get("class", ""):
            self._figures = []
            self._divs = 0
        elif tag == "div" and self._figures is not None:
            self._divs += 1  # a group of pictures inside the row
        elif tag == "figure" and self._figures is not None:
            self._figure = []
        elif tag == "img" and self._figures is not None and values.get("data-card"):
            self._figure.append(card_text(Card.parse(values["data-card"])))
        if "data-i18n" in values:
            self._text = []
            self._tag = tag
            self._marked = True
            self._cards = {}
            for pair in values.get("data-cards", "").split():
                name, _sep, code = pair.partition("=")
                self._cards[name] = card_text(Card.parse(code))
        elif tag == "figcaption" and self._figures is not None:
            self._text = []  # a caption that is a number, not a message
            self._tag = tag
            self._marked = False

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self._in_main = False
        if not self._in_main:
            return
        if tag == "nav":
            self._skip -= 1
            return
        if self._skip:
            return
        if self._text is not None and tag == self._tag:
            english = " ".join("".join(self._text).split())
            self._text = None
            text = _(english).format(**self._cards) if self._marked and english else english
            self._place(tag, text)
        elif tag == "ol" and self._list:
            self._list.pop()
            self.blocks.append("")
        elif tag == "tr" and self._row is not None:
            self.blocks.append("| " + " | ".join(self._row) + " |")
            self._rows += 1
            if self._rows == 1:  # the heading row
                self.blocks.append("|" + "---|" * len(self._row))
            self._row = None
        elif tag == "table":
            self.blocks.append("")
        elif tag == "figure" and self._figures is not None:
            self._figures.append(" ".join(self._figure))
        elif tag == "div" and self._figures is not None and self._divs:
            self._divs -= 1
        elif tag == "div" and self._figures is not None:
            self.blocks.extend([" · ".join(self._figures), ""])
            self._figures = None

    def _place(self, tag: str, text: str) -> None:
        if tag == "figcaption":
            self._figure.append(text)
        elif tag in ("td", "th") and self._row is not None:
            self._row.append(text)
        elif tag == "li" and self._list:
            self._list[-1] += 1
            self.blocks.append(f"{self._list[-1]}. {text}")
        elif tag == "dt":
            self.blocks.extend([f"**{text}**", ""])
        elif tag in _BLOCKS:
            self.blocks.extend([_BLOCKS[tag] + text, ""])


def rules_markdown() -> str:
    """How to play, in the current language, as Markdown (see the module)."""
    page = resources.files("sixtysix").joinpath("server/static/rules.html").read_text(encoding="utf-8")
    reader = _Reader()
    reader.feed(page)
    lines = [line for line in reader.blocks if not line.startswith(_("Back to the games"))]
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip() + "\n"
