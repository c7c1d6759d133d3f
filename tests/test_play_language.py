"""``sixtysix play --lang``: the line game in German, the cards with the German letters,
typed cards in them, and English for a language without a catalog (issue 18)."""

from __future__ import annotations

import io
import sys

import pytest

from sixtysix import Hand, i18n
from sixtysix.cli import main
from sixtysix.errors import ParseError
from sixtysix.game.actions import Action
from sixtysix.game.cards import Card
from sixtysix.present.text.prompt import parse_choice
from sixtysix.present.text.style import AnsiStyle, Style

# Seat 1 holds QH (the first deck of the console's examples with QD and QH swapped).
DECK = "QH AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QD AH"


def play(monkeypatch: pytest.MonkeyPatch, args: list[str], answers: str) -> str:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["play", "--plain", "--seed", "4", "--opponent", "random", *args]) == 0
    return out.getvalue()


def test_plain_play_in_german_prompts_and_results(monkeypatch: pytest.MonkeyPatch) -> None:
    out = play(monkeypatch, ["--lang", "de"], "1\n" * 3000)  # the first choice, to the end
    for german in ("Sechsundsechzig gegen den Computer", "Wähle per Kürzel oder Nummer",
                   "Deine Karten:", "Trumpf:", "Runde 1", "die Runde:", "Partie:"):
        assert german in out, german
    assert "gewinnst die Partie" in out or "gewinnt die Partie" in out
    for english in ("Choose by notation", "Your hand:", "wins the hand", "win the hand", "Match:",
                    "Points:", "Trump:", "game point"):
        assert english not in out, english
    # The language was set for the command only.
    assert i18n.language() == "en"


def test_an_unknown_language_plays_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    out = play(monkeypatch, ["--lang", "xx"], "quit\n")
    assert "Choose by notation or number" in out and "You stopped the game" in out


def test_the_system_language_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.setenv("LC_ALL", "hu_HU.UTF-8")
    out = play(monkeypatch, [], "quit\n")
    assert "Válassz jelöléssel vagy számmal" in out and "Leállítottad a játékot" in out


def test_a_card_in_the_german_symbol_style() -> None:
    queen = Card.parse("QH")
    with i18n.use("de"):
        assert AnsiStyle(color=False).card(queen) == "D♥"
        assert AnsiStyle(color=False).card(Card.parse("JC")) == "B♣"
        assert AnsiStyle(color=False).card(Card.parse("TD")) == "10♦"
        assert Style().card(queen) == "QH"  # the plain style keeps the codes
    with i18n.use("bg"):
        assert AnsiStyle(color=False).card(queen) == "Д♥"
    assert AnsiStyle(color=False).card(queen) == "Q♥"


def test_typed_cards_with_the_german_letters() -> None:
    view = Hand.deal(DECK).view(1)
    assert Action.parse("QH") in view.legal
    with i18n.use("de"):
        for typed in ("D♥", "dh", "DH", "d♥"):
            assert parse_choice(typed, view) == Action.parse("QH"), typed
        assert parse_choice("QH", view) == Action.parse("QH")  # the codes still work
        assert parse_choice("bd", view) == Action.parse("JD")
        with pytest.raises(ParseError, match="ist kein Zug"):
            parse_choice("dx", view)
    with i18n.use("bg"):
        assert parse_choice("Д♥", view) == Action.parse("QH")
    with pytest.raises(ParseError):  # in English D is not a rank
        parse_choice("dh", view)
