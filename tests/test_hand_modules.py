"""The hand's state machine and the modules split from it (issue 19, item 3): the deck
(``sixtysix.game.deck``), the result (``sixtysix.game.result``), the worlds of a view
(``sixtysix.game.worlds``) and the actions of a legal mask (``sixtysix.game.actions``). The names
``sixtysix.game.hand`` offered before still import from it, as the same objects."""

from __future__ import annotations

import random

import pytest

import sixtysix.game.hand
from sixtysix import Hand, Rules
from sixtysix.game import views
from sixtysix.game.actions import ACTIONS, actions_of_mask
from test_import_graph import import_graph


def test_the_hand_module_exports_its_own_names_only() -> None:
    """The names it once re-exported live in their homes (result, deck, kernel) and are
    imported from there: no alias is kept for old internal imports."""
    for name in sixtysix.game.hand.__all__:
        value = getattr(sixtysix.game.hand, name)
        assert getattr(value, "__module__", "sixtysix.game.hand") == "sixtysix.game.hand", name
    assert not {"HandResult", "result_of", "deck_from", "random_deck", "REASONS", "conceded"} \
        & set(sixtysix.game.hand.__all__)


def test_actions_of_mask_is_every_set_bit_in_code_order() -> None:
    rng = random.Random(19)
    codes = [a.code for a in ACTIONS if a is not None]
    for _ in range(2000):
        chosen = sorted(rng.sample(codes, rng.randrange(len(codes) + 1)))
        mask = sum(1 << code for code in chosen)
        assert [a.code for a in actions_of_mask(mask)] == chosen
    assert actions_of_mask(0) == []


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("schnapsen"), Rules.preset("course")],
                         ids=str)
def test_the_world_of_a_view_and_the_hidden_cards_is_the_hand(rules: Rules) -> None:
    rng = random.Random(3)
    for seed in range(20):
        hand = Hand.random(seed=seed, rules=rules)
        while not hand.is_over():
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            key = views.world_key(view, hand.cards(1 - seat), hand.stock)
            assert key == hand.key()
            world = Hand.from_view(view, hand.cards(1 - seat), hand.stock)
            assert world.key() == hand.key() and world.view(seat) == view
            hand.push(rng.choice(hand.legal_actions()))
        with pytest.raises(ValueError, match="the hand is over"):
            views.world_key(hand.view(0), (), ())


def test_a_world_that_does_not_fit_the_view_is_an_error() -> None:
    hand = Hand.random(seed=8)
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat)
    opponent, stock = sorted(hand.cards(1 - seat)), hand.stock
    with pytest.raises(ValueError, match="exactly once"):
        views.world_key(view, opponent[1:], stock)
    with pytest.raises(ValueError, match="turned-up"):
        views.world_key(view, opponent[:-1] + [stock[-1]], stock[:-1] + [opponent[-1]])


def test_the_split_modules_stand_below_the_hand() -> None:
    # The deck, the result, the views (with the key of a world) and the actions do not need
    # the state machine (Hand.from_view delegates to the views, not the other way round).
    graph = import_graph()
    for module in ("sixtysix.game.deck", "sixtysix.game.result", "sixtysix.game.views",
                   "sixtysix.game.actions"):
        seen, todo = set(), [module]
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(graph[name])
        assert "sixtysix.game.hand" not in seen, module
    hand_imports = graph["sixtysix.game.hand"]
    assert {"sixtysix.game.deck", "sixtysix.game.result", "sixtysix.game.views"} <= hand_imports
