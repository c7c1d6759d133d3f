"""Text for people (sixtysix.present.text): the reason a typed action is refused is the engine's."""

from __future__ import annotations

import random

import pytest

from sixtysix import Action, Card, Hand, Rules, i18n
from sixtysix.errors import IllegalActionError, ParseError
from sixtysix.game.actions import ACTIONS
from sixtysix.game.refusal import Refusal
from sixtysix.present.text import words
from sixtysix.present.text.prompt import ENGINE_REASONS, parse_choice, why_illegal

RULES = ["classic", "pagat", "santase", "schnapsen", "course", "classic,auto_declare=true",
         "classic,close_first_lead=false", "pagat,enforce_follow=false,marriages_in_phase2=true"]


def _engine_reason(hand: Hand, action: Action) -> Refusal:
    """Why the engine refuses ``action`` in the real hand (not a world made for a view)."""
    with pytest.raises(IllegalActionError) as caught:
        hand.push(action)
    refusal = caught.value.refusal
    assert refusal is not None and caught.value.why == str(refusal)
    return refusal


def _filled(sentence: str, refusal: Refusal) -> str:
    """``sentence`` with the refusal's blanks filled as a player sees them (cards as on the cards)."""
    return sentence.format(**{k: words.card_text(v) if isinstance(v, Card) else v
                              for k, v in refusal.blanks.items()})


@pytest.mark.parametrize("rules", RULES)
def test_a_refusal_is_the_engines_reason_in_words(rules: str) -> None:
    """At every decision of random hands, each illegal action is refused with the reason
    the engine gives for the real hand (which the prompt never sees), translated."""
    rng = random.Random(rules)
    seen: set[str] = set()
    for seed in range(12):
        hand = Hand.random(seed=seed, rules=Rules.parse(rules))
        while not hand.is_over():
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            illegal = [a for a in ACTIONS if a is not None and a not in view.legal]
            for action in [a for a in illegal if a.code >= 48] + rng.sample(illegal, 4):
                why = _engine_reason(hand, action)
                shown = why_illegal(action, view)
                assert why.sentence in ENGINE_REASONS, f"the engine's reason {why!r} is not in the catalogs"
                if why.sentence == "player {seat} does not hold {card}":
                    assert why.blanks["seat"] == seat
                    assert shown == f"you do not hold {words.card_text(action.card)}"  # type: ignore[arg-type]
                else:
                    assert shown == _filled(why.sentence, why)
                    with i18n.use("de"):
                        assert why_illegal(action, view) == _filled(i18n._(why.sentence), why) != shown
                seen.add(why.sentence)
            hand.push(rng.choice(hand.legal_actions()))
    assert len(seen) >= 8, seen


def test_refusals_the_engine_cannot_give() -> None:
    """Whose turn it is depends on who asks, which the engine does not know."""
    hand = Hand.random(seed=3)
    seat = hand.to_act
    assert seat is not None
    action = hand.legal_actions()[0]
    assert why_illegal(action, hand.view(1 - seat)) == "it is not your turn"
    with pytest.raises(ValueError, match="is legal"):
        why_illegal(action, hand.view(seat))
    hand.forfeit(seat)
    assert why_illegal(action, hand.view(seat)) == "the hand is over"


def test_a_typed_action_that_is_refused_says_why() -> None:
    hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
    view = hand.view(1)
    # The action in words, not the letter typed (issue 37, item 3).
    refused = r"^You cannot exchange the trump card now: the exchange needs a trick won first \(R4.1\)\.$"
    with pytest.raises(ParseError, match=refused):
        parse_choice("x", view)
    # The duty to follow in the screen's words: the rule book's "phase 2" is not said (R7.2).
    hand.push(Action.parse("C"))
    hand.push(Action.parse("AS"))
    with pytest.raises(ParseError) as info:
        parse_choice("9D", hand.view(0))
    assert str(info.value) == ("You cannot play 9♦ now: the stock is closed or used up: now you must follow "
                               "suit and win the trick if you can, else play a trump (R7.2).")
    with i18n.use("hu"), pytest.raises(ParseError, match=r"nincs nálad K♥\.$"):
        parse_choice("KH", view)
