"""The rules kernel says why an action is refused (State.refusal), by the same conditions
as its legal actions: at random positions under every preset and random option sets, for
every action code, the reason is LEGAL exactly when the code's bit is in the legal mask,
in each kernel; and the card or number a reason names is the one the rule book names
(read here from the rules and the cards held, not from the kernel's code). That both
kernels give the same answers is tested in test_kernel_diff.py."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

from helpers import kernel_modules
from kernel_diff import ACTION_CODES, pick, random_deck, random_rules
from sixtysix import Hand
from sixtysix.game.refusal import REASONS, SENTENCES, refusal
from sixtysix.kernel.tables import CLOSE, EXCHANGE, MARRIAGE, NUM_CODES, PLAY, Refused, config
from sixtysix.rules import PRESETS, Rules

#: Positions walked under each rule set.
POSITIONS = 3_000
#: The cards of a marriage: the King (rank 3) and the Queen (rank 2) of a suit.
KING, QUEEN = 3, 2


def _rule_sets() -> list[tuple[str, Rules]]:
    rng = random.Random(35)
    return [*PRESETS.items(), *((f"random {i}", random_rules(rng)) for i in range(6))]


def _positions(kernel: ModuleType, rules: Rules, seed: int) -> list[tuple[Any, int]]:
    """(state, legal mask) at each position of random lines, every state a copy."""
    rng = random.Random(seed)
    out: list[tuple[Any, int]] = []
    while len(out) < POSITIONS:
        state = kernel.State.deal(random_deck(rules, rng), rng.randrange(2), config(rules))
        while True:
            mask = state.legal_mask()
            out.append((state.copy(), mask))
            if state.phase == 3:
                break
            state.push(pick(mask, rng))
    return out


def _named(rules: Rules, state: Any, code: int, why: int) -> int:
    """The card or number the rule book names for refusing ``code`` for ``why``: R5.1 the
    marriage partner, R4.1/S4.1 the trump nine or jack, R4.1/R6.1 the least stock;
    -1 for reasons that name nothing."""
    card = code - MARRIAGE if MARRIAGE <= code < EXCHANGE else code - PLAY
    suit_of_declaration = code - 52
    named = {
        Refused.NOT_HELD: card,
        Refused.MARRIAGE_NEEDS_PAIR: card // 6 * 6 + (QUEEN if card % 6 == KING else KING),
        Refused.MARRIAGE_KING: card // 6 * 6 + KING,
        Refused.DECLARE_NEEDS_PAIR: suit_of_declaration * 6 + KING,
        Refused.EXCHANGE_CARD: state.trump * 6 + (0 if rules.deck == 24 else 1),
        Refused.EXCHANGE_FEW: rules.exchange_min_stock,
        Refused.CLOSE_FEW: rules.close_min_stock,
    }
    return named.get(Refused(why), -1)


@pytest.mark.parametrize("kernel", kernel_modules(), ids=lambda k: k.NAME)
@pytest.mark.parametrize(("name", "rules"), _rule_sets(), ids=[n for n, _ in _rule_sets()])
def test_an_action_is_refused_exactly_when_it_is_not_legal(kernel: ModuleType, name: str,
                                                            rules: Rules) -> None:
    reasons: set[int] = set()
    for state, mask in _positions(kernel, rules, seed=len(name)):
        for code in ACTION_CODES:
            why, argument = state.refusal(code)
            legal = bool(mask >> code & 1)
            assert (why == Refused.LEGAL) == legal, (name, code, why, state.key())
            assert argument == _named(rules, state, code, why), (name, code, Refused(why))
            reasons.add(why)
    assert Refused.LEGAL in reasons and Refused.OVER in reasons and len(reasons) > 8, reasons


@pytest.mark.parametrize("kernel", kernel_modules(), ids=lambda k: k.NAME)
def test_a_code_that_is_not_an_action_is_an_error(kernel: ModuleType) -> None:
    state = kernel.State.deal(list(range(24)), 0, config(Rules()))
    not_actions = [-1, NUM_CODES, MARRIAGE, MARRIAGE + 4, EXCHANGE - 1]  # 9C+, TC+, AS+ are no marriages
    for code in not_actions:
        with pytest.raises(ValueError, match="not an action code"):
            state.refusal(code)
    assert state.refusal(CLOSE) == (Refused.LEGAL, -1)


def test_every_reason_the_kernel_gives_has_one_sentence() -> None:
    assert set(SENTENCES) == set(Refused) - {Refused.LEGAL}
    sentences = [sentence for sentence, _ in SENTENCES.values()]
    assert len(set(sentences)) == len(sentences) and set(sentences) <= set(REASONS)


def test_a_legal_action_has_no_refusal() -> None:
    hand = Hand.random(seed=35)
    with pytest.raises(ValueError, match="is legal now"):
        refusal(hand.kernel, hand.rules, hand.legal_actions()[0])
