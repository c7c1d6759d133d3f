"""The 20-card Schnapsen variant (docs/schnapsen.md, S paragraphs): the engine under
the ``schnapsen`` preset and the options it is made of."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtysix import Action, Card, Hand, HandResult, InvalidDeckError, InvalidRecordError, Rules
from sixtysix.cards import pack
from sixtysix.record import loads, record_from_hand, replay

SCHNAPSEN = Rules.preset("schnapsen")
RECORDS = Path(__file__).parent / "records"
# Top of the pack first. Non-dealer: QS KS AH + TS AC; dealer: JC QC KC + JH KH;
# turned up: TD (diamonds are trumps); the stock then draws JS AS QH TC AD QD KD JD TH.
DECK = "QS KS AH JC QC KC TD TS AC JH KH JS AS QH TC AD QD KD JD TH"


def deal(deck: str = DECK, dealer: int = 0, rules: Rules = SCHNAPSEN) -> Hand:
    return Hand.deal(deck, dealer, rules)


def cards(text: str) -> frozenset[Card]:
    return frozenset(Card.parse(t) for t in text.split())


def play_random(hand: Hand, rng: random.Random, *, declare: bool = True, close: bool = True) -> Hand:
    """Play ``hand`` to the end at random, leaving out declarations or closes if told."""
    while not hand.is_over():
        legal = [a for a in hand.legal_actions()
                 if (declare or not a.is_declaration) and (close or a.kind.name != "CLOSE")]
        hand.push(rng.choice(legal or hand.legal_actions()))
    return hand


def replayed(hand: Hand, rules: Rules) -> HandResult:
    """The result of ``hand``'s deal and actions under other rules."""
    other = Hand.deal(hand.deck, hand.dealer, rules)
    for action in hand.actions:
        other.push(action)
    result = other.result()
    assert result is not None
    return result


# S1: the pack --------------------------------------------------------------------
def test_S1_1_the_pack_has_twenty_cards_without_nines_worth_120() -> None:
    cards20 = pack(20)
    assert len(cards20) == 20 and len(set(cards20)) == 20
    assert all(c.rank != 0 for c in cards20)
    assert sum(c.points for c in cards20) == 120


def test_S1_1_a_nine_or_a_24_card_deck_is_refused_with_the_reason() -> None:
    with pytest.raises(InvalidDeckError, match="9H is not in the 20-card pack"):
        deal(DECK.replace("TH", "9H"))
    with pytest.raises(InvalidDeckError, match="9C is not in the 20-card pack"):
        Hand.deal(" ".join(str(c) for c in pack(24)), 0, SCHNAPSEN)
    with pytest.raises(InvalidDeckError, match="19 cards, expected 20"):
        deal(DECK.rsplit(" ", 1)[0])


# S2: the deal --------------------------------------------------------------------
def test_S2_1_three_each_the_trump_turned_then_two_each() -> None:
    hand = deal()
    assert hand.cards(1) == cards("QS KS AH TS AC")  # the non-dealer, first
    assert hand.cards(0) == cards("JC QC KC JH KH")
    assert hand.trump.letter == "D" and str(hand.dealt_trump_card) == "TD"
    assert hand.stock_size == 10  # S2.2: nine face down and the turned-up trump
    assert [str(c) for c in hand.stock] == ["JS", "AS", "QH", "TC", "AD", "QD", "KD", "JD", "TH", "TD"]
    assert hand.to_act == 1  # the non-dealer leads


def test_S2_2_the_stock_is_gone_after_five_tricks() -> None:
    rng = random.Random(3)
    hand = deal()
    while hand.stock_size and hand.view(0).closed_by is None and not hand.is_over():
        legal = [a for a in hand.legal_actions() if a.kind.name not in ("CLOSE", "DECLARE")]
        hand.push(rng.choice(legal or hand.legal_actions()))
    if not hand.is_over() and hand.view(0).closed_by is None:
        assert len(hand.view(0).tricks) == 5
        assert len(hand.cards(0)) == len(hand.cards(1)) == 5


# S4: the trump jack --------------------------------------------------------------
def test_S4_1_the_trump_jack_is_exchanged_even_at_the_first_lead() -> None:
    # Put the trump jack (JD) in the non-dealer's first three cards.
    deck = DECK.replace("AH", "XX").replace("JD", "AH").replace("XX", "JD")
    hand = deal(deck)
    assert Card.parse("JD") in hand.cards(1)
    exchange = Action.parse("X")
    assert hand.is_legal(exchange)
    hand.push(exchange)
    assert Card.parse("TD") in hand.cards(1) and Card.parse("JD") not in hand.cards(1)
    assert hand.stock[-1] == Card.parse("JD")
    assert hand.view(0).stock_bottom == Card.parse("JD")  # both players know it (R11.1)
    # Without exchange_first_lead, only after winning a trick (R4.1).
    assert not deal(deck, rules=SCHNAPSEN.replace(exchange_first_lead=False)).is_legal(exchange)


def test_S4_1_the_trump_nine_is_no_exchange_card_in_schnapsen() -> None:
    assert SCHNAPSEN.exchange_rank == 1 and Rules().exchange_rank == 0


# S5: closing ---------------------------------------------------------------------
def concede(hand: Hand, loser: int) -> int:
    """R9.1's scale, worked out from the public view."""
    view = hand.view(0)
    tricks = sum(1 for t in view.tricks if t.winner == loser)
    if not tricks:
        return 3
    return 2 if hand.score(loser) < 33 else 1


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9))
def test_S5_3_a_successful_close_scores_the_opponents_state_when_closing(seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, rules=SCHNAPSEN)
    at_close = None
    while not hand.is_over():
        action = rng.choice(hand.legal_actions())
        if action.kind.name == "CLOSE":
            at_close = concede(hand, 1 - hand.to_act)  # type: ignore[operator]
        hand.push(action)
    result = hand.result()
    assert result is not None
    if result.reason == "closed_succeeded":
        assert result.game_points == at_close
    if result.reason == "closed_failed":
        assert result.game_points in (2, 3)


def test_S5_3_scoring_when_closing_differs_from_scoring_at_the_end() -> None:
    """Replaying the same actions with close_scoring=end changes some results."""
    rng = random.Random(11)
    differ = 0
    for seed in range(400):
        hand = play_random(Hand.random(seed=seed, rules=SCHNAPSEN), rng)
        result = hand.result()
        assert result is not None
        if result.reason != "closed_succeeded":
            continue
        end_result = replayed(hand, SCHNAPSEN.replace(close_scoring="end"))
        assert end_result.reason == "closed_succeeded"
        differ += end_result.game_points != result.game_points
    assert differ > 0


# S6: the stock exhausted ---------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9))
def test_S6_3_a_hand_played_out_goes_to_the_winner_of_the_last_trick(seed: int) -> None:
    hand = play_random(Hand.random(seed=seed, rules=SCHNAPSEN), random.Random(seed), declare=False)
    result = hand.result()
    assert result is not None
    assert result.bonus == 0  # S6.2: no last-trick bonus
    assert result.winner is not None  # S9.2: never a tie
    if result.reason == "played_out":
        last = hand.view(0).tricks[-1].winner
        assert result.winner == last
        expected = concede(hand, 1 - last) if hand.score(last) >= 66 else 1  # type: ignore[operator]
        assert result.game_points == expected


def test_S6_3_only_the_rule_decides_a_played_out_hand() -> None:
    """Under points (R8.5) the higher total wins; under last_trick the last trick:
    some random hands end differently."""
    rng = random.Random(5)
    differ = 0
    for seed in range(300):
        hand = play_random(Hand.random(seed=seed, rules=SCHNAPSEN), rng, declare=False, close=False)
        result = hand.result()
        assert result is not None
        if result.reason != "played_out":
            continue
        differ += replayed(hand, SCHNAPSEN.replace(played_out="points")).winner != result.winner
    assert differ > 0


# What each player sees ----------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9))
def test_views_of_a_schnapsen_hand_hide_exactly_the_unseen_cards(seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, rules=SCHNAPSEN)
    while not hand.is_over():
        seat = hand.to_act
        assert seat is not None
        view = hand.view(seat)
        hidden = set(hand.cards(1 - seat)) | set(hand.stock)
        known = set(view.known_opponent_cards()) | ({view.stock_bottom} if view.stock_bottom else set())
        assert view.unseen() <= hidden
        assert hidden - view.unseen() <= known
        world = Hand.from_view(view, hand.cards(1 - seat), hand.stock)
        assert world.key() == hand.key()
        hand.push(rng.choice(hand.legal_actions()))


# Records ------------------------------------------------------------------------
def test_a_schnapsen_record_round_trips_and_replays() -> None:
    hand = play_random(Hand.random(seed=21, rules=SCHNAPSEN), random.Random(21))
    text = json.dumps(record_from_hand(hand).to_json())
    again = replay(loads(text))
    assert again.result == hand.result()  # type: ignore[union-attr]
    assert json.loads(text)["rules"] == "schnapsen"
    assert len(json.loads(text)["deck"].split()) == 20


def test_a_schnapsen_record_with_a_24_card_deck_says_why() -> None:
    obj = {"format": "sixtysix/1", "rules": "schnapsen", "dealer": 0,
           "deck": " ".join(str(c) for c in pack(24)), "actions": []}
    with pytest.raises(InvalidRecordError, match="9C is not in the 20-card pack"):
        replay(loads(json.dumps(obj)))


# Worked checks as records (tests/records/s*.json, beside what replay prints) -------
def record_hand(name: str) -> tuple[Hand, list[str]]:
    record = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    assert record["rules"] == "schnapsen"
    return Hand.deal(record["deck"], record["dealer"], SCHNAPSEN), record["actions"]


@pytest.mark.parametrize("name", ["s4_1_jack_exchanged_at_first_lead", "s5_3_close_scored_when_made",
                                  "s6_3_last_trick_wins"])
def test_worked_check_records_replay_to_their_expected_results(name: str) -> None:
    record = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))
    assert replay(loads(json.dumps(record))).result.to_json() == expected  # type: ignore[union-attr]


def test_worked_check_S4_1_the_jack_before_any_trick() -> None:
    hand, actions = record_hand("s4_1_jack_exchanged_at_first_lead")
    turned = hand.dealt_trump_card
    assert actions[0] == "X" and hand.to_act == 1
    hand.push(Action.parse("X"))
    assert turned in hand.cards(1) and hand.stock[-1] == Card(hand.trump, 1)


def test_worked_check_S5_3_the_close_keeps_the_value_it_had() -> None:
    hand, actions = record_hand("s5_3_close_scored_when_made")
    close = actions.index("C")
    for token in actions[:close]:
        hand.push(Action.parse(token))
    closer = hand.to_act
    assert closer is not None and hand.tricks_won(1 - closer) == 0  # Schwarz at the close
    for token in actions[close:]:
        hand.push(Action.parse(token))
    result = hand.result()
    assert result is not None and result.reason == "closed_succeeded" and result.winner == closer
    # By the end the opponent had tricks and 33 or more: scored at the end it would be 1.
    assert hand.tricks_won(1 - closer) > 0 and hand.score(1 - closer) >= 33
    assert result.game_points == 3


def test_worked_check_S6_3_the_last_trick_beats_the_higher_total() -> None:
    hand, actions = record_hand("s6_3_last_trick_wins")
    for token in actions:
        hand.push(Action.parse(token))
    result = hand.result()
    assert result is not None and result.reason == "played_out"
    last = hand.view(0).tricks[-1].winner
    assert last is not None
    assert result.winner == last and hand.score(last) < hand.score(1 - last) < 66
    assert result.game_points == 1


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(["classic,closing=false", "schnapsen,closing=false"]))
def test_without_closing_no_close_is_ever_legal(seed: int, text: str) -> None:
    """Option closing=false (the course platform's rules): the stock cannot be closed,
    by a player or by the playouts of the search bots."""
    from sixtysix.bots.rollout import fast_playout

    rules = Rules.parse(text)
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, rules=rules)
    while not hand.is_over():
        assert all(a.kind.name != "CLOSE" for a in hand.legal_actions())
        hand.push(rng.choice(hand.legal_actions()))
    assert hand.view(0).closed_by is None
    world = Hand.random(seed=seed, rules=rules)
    fast_playout(world, rng, 0.1, close=True)
    assert world.view(0).closed_by is None and world.is_over()
