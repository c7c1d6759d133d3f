"""Messages in the words the screen uses (issue 37, item 3): no "phase 2", which the
screen never names, and a refused key named in words, not by a notation never typed."""

from __future__ import annotations

from sixtysix import Hand, i18n
from sixtysix.game.actions import Action
from sixtysix.present.text.prompt import refused, why_illegal
from sixtysix.present.text.screen import render_screen
from sixtysix.present.text.style import Style
from sixtysix.present.text.words import Seats

DECK = "QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH"


def test_following_after_the_close_is_explained_by_the_stock() -> None:
    hand = Hand.deal(DECK)
    hand.push(Action.parse("C"))
    hand.push(Action.parse("TC"))
    view = hand.view(hand.to_act or 0)
    # Seat 0 holds 9C, the only club: it must follow suit (R7.2).
    assert view.legal == (Action.parse("9C"),)
    # The engine's reason speaks of phase 2: the screen says what phase 2 is.
    assert "phase 2" in why_illegal(Action.parse("9D"), view)
    screen = render_screen(view, Style(), Seats(view.seat))
    assert "Phase 2: follow suit and win the trick if you can, else trump." in screen
    # The full-screen game names the refused card and speaks of the stock instead.
    said = refused(Action.parse("9D"), view, Style())
    assert said.startswith("You cannot play 9D now: the stock is closed or used up: now you must follow suit")
    assert "phase" not in said
    with i18n.use("de"):
        assert "phase" not in refused(Action.parse("9D"), view, Style()).lower()


def test_a_refused_action_is_named_in_words() -> None:
    view = Hand.deal(DECK).view(1)
    style = Style()
    assert refused(Action.parse("X"), view, style).startswith("You cannot exchange the trump card now:")
    assert refused(Action.parse("D"), view, style).startswith("You cannot draw now:")
    assert refused(Action.parse("66"), view, style).startswith("You cannot declare 66 now:")
    assert refused(Action.parse("9C"), view, style).startswith("You cannot play 9C now: you do not hold 9C")
