"""The hand's state machine and the modules split from it (issue 19, item 3): the deck
(``sixtysix.game.deck``), the result (``sixtysix.game.result``), the worlds of a view
(``sixtysix.game.worlds``) and the actions of a legal mask (``sixtysix.game.actions``). The names
``sixtysix.game.hand`` offered before still import from it, as the same objects."""

from __future__ import annotations

import random

import pytest

import sixtysix.game.hand
from sixtysix import Hand, Rules, kernel
from sixtysix.game import deck, result, views
from sixtysix.game.actions import ACTIONS, actions_of_mask
from test_import_graph import import_graph


@pytest.mark.parametrize(("name", "home"), [
    ("Hand", sixtysix.game.hand), ("STATE_NAMES", sixtysix.game.hand), ("FORFEIT_POINTS", sixtysix.game.hand),
    ("replay_actions", sixtysix.game.hand),
    ("HandResult", result), ("result_of", result),
    ("deck_from", deck), ("random_deck", deck),
    ("REASONS", kernel), ("conceded", kernel),
])
def test_the_names_of_the_hand_module_still_import_from_it(name: str, home: object) -> None:
    namespace: dict[str, object] = {}
    exec(f"from sixtysix.game.hand import {name}", namespace)
    assert namespace[name] is getattr(home, name)


def test_the_hand_module_exports_what_it_did() -> None:
    assert set(sixtysix.game.hand.__all__) >= {"Hand", "HandResult", "REASONS", "conceded", "deck_from",
                                          "random_deck"}


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
