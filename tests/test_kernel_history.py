"""The kernel's public record of a hand (State.trick_history, marriages_shown, exchanged),
which the views read instead of replaying the actions: at every position of random hands
under every preset and random option sets, in each kernel, it is what the rule book
makes of the deal and the actions. The oracle here replays the action strings with the
cards' suits and ranks (R3.3 the trick's winner, R10.2 a revoke's trick counts for
nobody, R5.1 a marriage's value, R4.1 the card the exchange takes), knowing nothing of
the kernel's code."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

from helpers import kernel_modules
from kernel_diff import pick, random_deck, random_rules
from sixtysix import Card, Hand
from sixtysix.game.actions import action_of
from sixtysix.kernel.tables import EXCHANGE, MARRIAGE, config
from sixtysix.rules import PRESETS, Rules

#: Hands played under each rule set.
HANDS = 400
RANKS = "9TJQKA"
#: The order of the ranks in a trick (R1.2): ace, ten, king, queen, jack, nine.
STRENGTH = "9JQKTA"


def _beats(card: str, led: str, trump: str) -> bool:
    """R3.3: the higher card of the suit led wins, unless a trump is played to it."""
    if card[1] == led[1]:
        return STRENGTH.index(card[0]) > STRENGTH.index(led[0])
    return card[1] == trump


def _oracle(turned_up: str, actions: list[tuple[int, str]], revoked: bool) -> tuple[Any, ...]:
    """Tricks, marriages and the exchange from the actions as the rule book says."""
    trump = turned_up[1]
    tricks: list[tuple[int, str, str, int]] = []
    marriages: list[tuple[int, str, int, int]] = []
    exchange: tuple[int, str] | None = None
    lead: tuple[int, str] | None = None
    for i, (seat, text) in enumerate(actions):
        if text.startswith("66+"):
            suit = text[3]
            marriages.append((seat, suit, 40 if suit == trump else 20, len(tricks)))
        elif text[0] in RANKS:
            card = text[:2]
            if text.endswith("+"):
                marriages.append((seat, card[1], 40 if card[1] == trump else 20, len(tricks)))
            if lead is None:
                lead = (seat, card)
                continue
            leader, led = lead
            last_of_a_revoke = revoked and i == len(actions) - 1
            winner = -1 if last_of_a_revoke else seat if _beats(card, led, trump) else leader
            tricks.append((leader, led, card, winner))
            lead = None
        elif text == "X":
            exchange = (seat, turned_up)
    return tricks, marriages, exchange


def _pick(mask: int, rng: random.Random) -> int:
    """A legal action: an exchange or a marriage lead mostly when there is one (random
    play rarely finds them), else as the kernel walks pick."""
    rare = mask & (1 << EXCHANGE | ((1 << 24) - 1) << MARRIAGE)
    return pick(rare if rare and rng.random() < 0.6 else mask, rng)


def _kernel_says(state: Any) -> tuple[Any, ...]:
    def card(index: int) -> str:
        return str(Card.from_index(index))

    suits = "CDHS"
    seat, taken = state.exchanged()
    tricks = [(leader, card(lead), card(follow), winner)
              for leader, lead, follow, winner in state.trick_history()]
    marriages = [(s, suits[suit], value, at) for s, suit, value, at in state.marriages_shown()]
    return tricks, marriages, None if seat < 0 else (seat, card(taken))


def _rule_sets() -> list[tuple[str, Rules]]:
    rng = random.Random(35)
    return [*PRESETS.items(), *((f"random {i}", random_rules(rng)) for i in range(8))]


@pytest.mark.parametrize("kernel", kernel_modules(), ids=lambda k: k.NAME)
@pytest.mark.parametrize(("name", "rules"), _rule_sets(), ids=[n for n, _ in _rule_sets()])
def test_the_record_is_what_the_rule_book_makes_of_the_actions(kernel: ModuleType, name: str,
                                                               rules: Rules) -> None:
    rng = random.Random(name)
    seen = {"tricks": 0, "marriages": 0, "exchanges": 0, "revokes": 0}
    for _ in range(HANDS):
        indices = random_deck(rules, rng)
        dealer = rng.randrange(2)
        state = kernel.State.deal(indices, dealer, config(rules))
        hand = Hand.deal(" ".join(str(Card.from_index(i)) for i in indices), dealer, rules)
        turned_up = str(hand.dealt_trump_card)
        actions: list[tuple[int, str]] = []
        while True:
            revoked = state.phase == 3 and state.reason == 6
            expected = _oracle(turned_up, actions, revoked)
            assert _kernel_says(state) == expected, (name, actions)
            if state.phase == 3:
                break
            seat, code = state.to_act, _pick(state.legal_mask(), rng)
            actions.append((seat, str(action_of(code))))
            state.push(code)
        tricks, marriages, exchange = expected
        seen["tricks"] += len(tricks)
        seen["marriages"] += len(marriages)
        seen["exchanges"] += exchange is not None
        seen["revokes"] += revoked
    assert seen["tricks"] > HANDS and seen["marriages"] > 0, seen
    if rules.exchange_min_stock <= 12:
        assert seen["exchanges"] > 0, seen
    if not rules.enforce_follow:
        assert seen["revokes"] > 0, seen


@pytest.mark.parametrize("kernel", kernel_modules(), ids=lambda k: k.NAME)
def test_a_world_built_from_a_view_keeps_the_record_before_it(kernel: ModuleType) -> None:
    """A hand built from a view (a sampled world) has no history in its kernel: its record
    before that state is the view's, and the whole is the hand's it was sampled from."""
    rng = random.Random(66)
    for _ in range(40):
        hand = Hand.random(rng=rng)
        for _ in range(rng.randrange(4, 20)):
            if hand.is_over():
                break
            hand.push(rng.choice(hand.legal_actions()))
        if hand.is_over():
            continue
        seat = hand.to_act
        assert seat is not None
        world = Hand.from_view(hand.view(seat), hand.cards(1 - seat), hand.stock)
        assert world.kernel.trick_history() == []
        assert world.trick_history() == hand.trick_history()
        assert world.marriages_shown() == hand.marriages_shown()
        assert world.exchanged() == hand.exchanged()
        while not hand.is_over():
            action = rng.choice(hand.legal_actions())
            hand.push(action)
            world.push(action)
            assert (world.trick_history(), world.marriages_shown(), world.exchanged()) == (
                hand.trick_history(), hand.marriages_shown(), hand.exchanged())
