"""The terminal game in another language (issue 18): what the table screen shows is
German with ``de``, the cards carry the German letters, nothing of the English is left."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from need import need_tui

need_tui()

from support import game, make_app, settle, synchronous  # noqa: E402
from textual.content import Content  # noqa: E402
from textual.widgets import Button, Static  # noqa: E402

from sixtysix import i18n  # noqa: E402
from sixtysix.game.cards import Rank  # noqa: E402
from sixtysix.tui.app import SixtySixApp  # noqa: E402
from sixtysix.tui.options import GameOptions  # noqa: E402
from sixtysix.tui.run import run_game  # noqa: E402
from sixtysix.tui.widgets import CardView  # noqa: E402

#: English words of the table screen's texts (status, opponent, table, log, prompt,
#: buttons, footer); none may be left when the game speaks German.
ENGLISH = ("Trump", "stock", "Hand", "Match", "You", "Your", "point", "points", "trick", "tricks",
           "Nothing", "table", "Hint", "New", "Settings", "Rules", "Stats", "Records", "Quit", "Keys",
           "Cut", "deal", "deals", "lead", "leads", "first", "turned", "against", "rules", "playing",
           "Waiting", "click", "press", "card", "cards", "Marriages", "medium")


def screen_texts(app: SixtySixApp) -> str:
    """Every text the screen shows: its Statics (cards excepted), visible buttons, the footer."""
    screen = game(app)
    parts = [Content.from_markup(str(w.content)).plain for w in screen.query(Static)
             if not isinstance(w, (CardView, Button))]
    parts += [Content.from_markup(str(b.label)).plain for b in screen.query(Button) if b.display]
    parts += [active.binding.description for active in screen.active_bindings.values()
              if active.binding.show]
    return "\n".join(parts)


@synchronous
async def test_the_table_screen_speaks_german(data_dir: Path) -> None:
    with i18n.use("de"):
        app = make_app(seed=5)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            shown = screen_texts(app)
            for word in ("Trumpf", "Talon", "Runde", "Partie", "Du spielst aus", "Abheben um das Geben",
                         "Tipp", "Beenden"):
                assert word in shown, word
            left = [word for word in ENGLISH if re.search(rf"\b{word}\b", shown)]
            assert left == [], (left, shown)
            # The cards carry the German letters (B, D for jack and queen), in hand and on the table.
            faces = {place.card: str(place.render()) for place in game(app).query(CardView)
                     if place.card is not None}
            assert faces
            for card, face in faces.items():
                letter = {Rank.JACK: "B", Rank.QUEEN: "D", Rank.KING: "K", Rank.ACE: "A"}.get(card.rank)
                if letter is not None:
                    assert letter + card.suit.symbol in face, (card, face)


@synchronous
async def test_english_is_the_default(data_dir: Path) -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        shown = screen_texts(app)
        assert "Trump" in shown and "Your lead" in shown and "Trumpf" not in shown


def test_the_line_after_the_game_speaks_its_language(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 37, item 5: after a game in German, the exit line is German too."""
    def run(app: SixtySixApp) -> None:
        app.last_record = Path("game.json")

    monkeypatch.setattr(SixtySixApp, "run", run)
    assert run_game(GameOptions(lang="de")) == 0
    out = capsys.readouterr().out
    with i18n.use("de"):
        expected = i18n._("The game record is saved in {path}.").format(path="game.json")
    assert out.strip() == expected and "saved in" not in out
