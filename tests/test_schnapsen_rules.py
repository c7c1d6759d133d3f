"""The 20-card Schnapsen variant (docs/schnapsen.md, S paragraphs): the engine under
the ``schnapsen`` preset and the options it is made of."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from helpers import play
from sixtysix import Action, Card, Hand, HandResult, InvalidDeckError, InvalidRecordError, Rules
from sixtysix.game.cards import pack
from sixtysix.game.match import Match
from sixtysix.game.record import loads, record_from_hand, replay

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


def positions(seed: int, *, declare: bool = True) -> Iterator[Hand]:
    """Each position of a random Schnapsen hand (``seed``) before its action, the action
    then chosen at random (declarations left out if told) until the hand is over."""
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, rules=SCHNAPSEN)
    while not hand.is_over():
        yield hand
        legal = [a for a in hand.legal_actions() if declare or not a.is_declaration]
        hand.push(rng.choice(legal or hand.legal_actions()))


def closed_at_random(seed: int) -> tuple[Hand, int, int, bool]:
    """A random Schnapsen hand in which the leader closes at a lead drawn at random
    (the first to the fifth, S5.1): up to it nobody declares or closes; after it a
    player declares exactly when he has 66 (S8). Returns the hand played to the end,
    the closer, the game points the opponent's state was worth when the stock was
    closed (S5.3, by :func:`concede`) and whether the opponent then had no trick."""
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, rules=SCHNAPSEN)
    for _ in range(rng.randrange(5)):  # play whole tricks: the leader leads again
        while True:
            hand.push(rng.choice([a for a in hand.legal_actions()
                                  if not a.is_declaration and a.kind.name != "CLOSE"]))
            if hand.state == "lead":
                break
    closer = hand.to_act
    assert closer is not None and hand.stock_size > 0 and Action.parse("C") in hand.legal_actions()
    at_close, schwarz = concede(hand, 1 - closer), hand.tricks_won(1 - closer) == 0
    hand.push(Action.parse("C"))
    while not hand.is_over():
        legal = hand.legal_actions()
        seat = hand.to_act
        assert seat is not None
        if hand.score(seat) >= 66 and Action.parse("66") in legal:
            hand.push(Action.parse("66"))
        else:
            hand.push(rng.choice([a for a in legal if not a.is_declaration]))
    return hand, closer, at_close, schwarz


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
    while hand.stock_size:
        # Without closes and declarations nothing ends the hand before the stock is gone.
        legal = [a for a in hand.legal_actions() if a.kind.name != "CLOSE" and not a.is_declaration]
        hand.push(rng.choice(legal))
    assert not hand.is_over() and hand.view(0).closed_by is None
    assert len(hand.view(0).tricks) == 5
    assert len(hand.cards(0)) == len(hand.cards(1)) == 5


def test_S1_2_a_record_names_the_cards_as_for_sixty_six() -> None:
    hand = play_random(Hand.random(seed=4, rules=SCHNAPSEN), random.Random(4))
    tokens = record_from_hand(hand).to_json()["deck"].split()
    assert sorted(tokens) == sorted(str(c) for c in pack(20))
    assert all(str(Card.parse(t)) == t and len(t) == 2 for t in tokens)  # R1.4: rank and suit
    with pytest.raises(InvalidDeckError, match="AH appears twice"):
        deal(DECK.replace("TH", "AH"))


def test_S2_3_the_non_dealer_leads_and_the_first_dealer_is_drawn_at_random() -> None:
    assert deal(dealer=0).to_act == 1 and deal(dealer=1).to_act == 0
    first = set()
    for seed in range(40):
        match = Match(SCHNAPSEN, seed=seed)
        first.add(match.first_dealer)
        assert not match.cuts  # no cutting for the deal: first_dealer = random
        while not match.is_over() and len(match.hands) < 4:
            hand = play_random(match.deal(), random.Random(seed))
            assert hand.to_act is None
        # The deal alternates (R2.5).
        dealers = [h.dealer for h in match.hands]
        assert dealers == [match.first_dealer ^ (n % 2) for n in range(len(dealers))]
    assert first == {0, 1}


# S3: play while the stock is open -------------------------------------------------
def test_S3_any_card_follows_and_the_winner_draws_first() -> None:
    hand = deal()
    hand.push(Action.parse("AH"))
    assert {str(a) for a in hand.legal_actions()} == {"JC", "QC", "KC", "JH", "KH"}  # no need to follow
    hand.push(Action.parse("JH"))
    # The non-dealer won; he draws JS, then the dealer AS, and no draw turn waits.
    assert Card.parse("JS") in hand.cards(1) and Card.parse("AS") in hand.cards(0)
    assert hand.state == "lead" and hand.to_act == 1 and hand.stock_size == 8
    assert Action.parse("D") not in hand.legal_actions()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9))
def test_S3_S5_1_there_is_no_draw_turn_and_the_leader_closes_while_the_stock_is_open(seed: int) -> None:
    for hand in positions(seed):
        legal = hand.legal_actions()
        assert Action.parse("D") not in legal
        may_close = hand.state == "lead" and hand.closed_by is None and hand.stock_size > 0
        assert (Action.parse("C") in legal) == may_close


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


def exchange_checks(seed: int) -> Counter[str]:
    """S4.1/S4.2 at every position of a random hand: the exchange is legal exactly
    when the leader holds the trump jack and the stock is open. Counts the cases met."""
    exchange = Action.parse("X")
    met: Counter[str] = Counter()
    for hand in positions(seed):
        holds = hand.state == "lead" and Card(hand.trump, 1) in hand.cards(hand.leader)
        if hand.closed_by is not None or hand.stock_size == 0:
            assert exchange not in hand.legal_actions()
            met["closed or exhausted, the leader holding the jack" if holds else "closed or exhausted"] += 1
        else:
            assert (exchange in hand.legal_actions()) == holds  # S4.1: whenever he leads, holding it
            met["open, the leader holding the jack" if holds else "open"] += 1
    return met


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9))
def test_S4_2_no_exchange_once_the_stock_is_closed_or_exhausted(seed: int) -> None:
    for case in exchange_checks(seed):
        event(case)


def test_S4_2_the_exchange_checks_meet_every_case() -> None:
    """The property above is not vacuous: over fixed seeds a leader holds the jack
    both with the stock open and with it closed or exhausted."""
    met = sum((exchange_checks(seed) for seed in range(50)), Counter[str]())
    assert min(met[case] for case in ("open", "open, the leader holding the jack", "closed or exhausted",
                                      "closed or exhausted, the leader holding the jack")) > 0, met


def test_S4_2_the_jack_stays_in_hand_after_a_close() -> None:
    deck = DECK.replace("AH", "XX").replace("JD", "AH").replace("XX", "JD")  # JD to the non-dealer
    hand = deal(deck)
    hand.push(Action.parse("C"))
    assert Action.parse("X") not in hand.legal_actions()
    assert Card.parse("JD") in hand.cards(1)


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
    """Closed hands from ``seed`` on, until one succeeds (about one in three does; a
    bounded search that must find one): it scores what the opponent's state was worth
    at the close. A failed close on the way scores 2 or 3 (S5.4)."""
    for attempt in range(60):
        hand, closer, at_close, _ = closed_at_random(seed + attempt)
        result = hand.result()
        assert result is not None and result.reason in ("closed_succeeded", "closed_failed")
        if result.reason == "closed_succeeded":
            assert result.winner == closer and result.game_points == at_close
            event(f"succeeded at attempt {min(attempt, 3)}{'+' if attempt >= 3 else ''}")
            return
        assert result.winner == 1 - closer and result.game_points in (2, 3)
    raise AssertionError(f"no close succeeded in 60 hands from seed {seed}")


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


def test_S5_1_closing_at_the_first_lead_and_after_an_exchange() -> None:
    assert Action.parse("C") in deal().legal_actions()  # the very first lead
    deck = DECK.replace("AH", "XX").replace("JD", "AH").replace("XX", "JD")
    hand = deal(deck)
    hand.push(Action.parse("X"))
    hand.push(Action.parse("C"))
    assert hand.closed_by == 1 and hand.to_act == 1 and Card.parse("TD") in hand.cards(1)
    hand.push(Action.parse("AC"))  # the follower may not close
    assert Action.parse("C") not in hand.legal_actions()


def strict_follows(hand: Hand) -> set[Card]:
    """S6.1 (R7.2): head the card led in its suit, else follow suit, else trump, else anything."""
    led = hand.lead_card
    assert led is not None and hand.to_act is not None
    own = hand.cards(hand.to_act)
    same = {c for c in own if c.suit == led.suit}
    higher = {c for c in same if c.rank > led.rank}
    trumps = {c for c in own if c.suit == hand.trump}
    return higher or same or trumps or set(own)


def test_S5_2_after_a_close_play_is_strict_and_marriages_may_be_shown() -> None:
    for rules in (SCHNAPSEN, SCHNAPSEN.replace(marriages_in_phase2=False)):
        hand = deal(rules=rules)
        hand.push(Action.parse("C"))
        hand.push(Action.parse("AH"))
        # No higher heart: the dealer must follow suit.
        assert {a.card for a in hand.legal_actions()} == strict_follows(hand) == cards("JH KH")
        hand.push(Action.parse("JH"))
        # A later lead after the close: a marriage in Schnapsen, none under R5.4.
        shown = {"QS+", "KS+"} <= {str(a) for a in hand.legal_actions()}
        assert shown == rules.marriages_in_phase2
    hand = deal()
    play(hand, "C AH JH KS+")
    assert hand.marriage_points(1) == 20 and hand.score(1) == 13 + 20
    # The dealer has no spade and no trump left: any card.
    assert {a.card for a in hand.legal_actions()} == strict_follows(hand) == set(hand.cards(0))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 4))
def test_S5_4_a_failed_close_scores_2_or_3_by_the_state_at_the_close(seed: int, lead: int) -> None:
    """Without declarations (so a close can only be made good on the last trick):
    the closer wins exactly when he takes the last trick with 66; otherwise the
    opponent scores 3 if he had no trick when the stock was closed, else 2. Every
    example closes: the leader of lead number ``lead`` (0 to 4, the stock still open)."""
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, rules=SCHNAPSEN)
    closer, schwarz = None, False
    while not hand.is_over():
        legal = [a for a in hand.legal_actions() if not a.is_declaration and a != Action.parse("C")]
        if hand.state == "lead" and closer is None and len(hand.view(0).tricks) == lead:
            assert Action.parse("C") in hand.legal_actions()  # S5.1: the stock is open
            closer = hand.to_act
            assert closer is not None
            schwarz = hand.tricks_won(1 - closer) == 0
            hand.push(Action.parse("C"))
            continue
        hand.push(rng.choice(legal))
    result = hand.result()
    assert result is not None and closer is not None
    took_last = hand.view(0).tricks[-1].winner == closer
    if took_last and hand.score(closer) >= 66:
        assert (result.reason, result.winner) == ("closed_succeeded", closer)
        event("the close succeeded")
    else:  # with 66 or more but the last trick lost, too
        assert (result.reason, result.winner) == ("closed_failed", 1 - closer)
        assert result.game_points == (3 if schwarz else 2)
        event("the close failed" + (" (Schwarz at the close)" if schwarz else ""))


# S6: the stock exhausted ---------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9))
def test_S6_3_a_hand_played_out_goes_to_the_winner_of_the_last_trick(seed: int) -> None:
    """Nobody declares or closes, so every hand is played out."""
    hand = play_random(Hand.random(seed=seed, rules=SCHNAPSEN), random.Random(seed), declare=False,
                       close=False)
    result = hand.result()
    assert result is not None and result.reason == "played_out"
    assert result.bonus == 0  # S6.2: no last-trick bonus
    assert result.winner is not None  # S9.2: never a tie
    last = hand.view(0).tricks[-1].winner
    assert last is not None and result.winner == last
    expected = concede(hand, 1 - last) if hand.score(last) >= 66 else 1
    event(f"{expected} game points")
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


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9))
def test_S6_1_S6_2_strict_play_after_the_stock_and_no_last_trick_bonus(seed: int) -> None:
    """Without declarations every hand reaches phase 2 (closed or exhausted) and is
    played to its last card there, so strict follows are always checked."""
    strict = 0
    for hand in positions(seed, declare=False):
        if hand.state == "follow" and (hand.stock_size == 0 or hand.closed_by is not None):
            assert {a.card for a in hand.legal_actions()} == strict_follows(hand)
            strict += 1
    assert strict >= 5  # the last five tricks at least, after a close or the last draw
    result = hand.result()  # the same hand, now played to the end
    assert result is not None and not hand.cards(0) and not hand.cards(1)
    for seat in (0, 1):  # no 10 for the last trick
        counted = hand.marriage_points(seat) if hand.tricks_won(seat) else 0
        assert hand.score(seat) == hand.card_points(seat) + counted
    if hand.closed_by is None:  # every card played: 120 card points
        event("played out")
        assert len(hand.view(0).tricks) == 10
        assert hand.card_points(0) + hand.card_points(1) == 120
    else:  # closed with cards left in the stock
        event("closed")
        assert len(hand.view(0).tricks) < 10
        assert hand.card_points(0) + hand.card_points(1) < 120


# S7 to S9: marriages, declaring, scoring -------------------------------------------
def test_S7_a_trump_marriage_at_the_first_lead_counts_40_once_a_trick_is_won() -> None:
    swap = {"QS": "QD", "QD": "QS", "KS": "KD", "KD": "KS"}  # the trump K and Q to the non-dealer
    hand = deal(" ".join(swap.get(t, t) for t in DECK.split()))
    hand.push(Action.parse("KD+"))
    assert hand.marriage_points(1) == 40 and hand.score(1) == 0  # no trick yet
    hand.push(Action.parse("JC"))
    assert hand.tricks_won(1) == 1 and hand.score(1) == 4 + 2 + 40


def marriage_checks(seed: int) -> Counter[str]:
    """S7 at every lead of a random hand: a leader holding a King and Queen may
    announce them, leading either. Counts the marriages checked, by the stock's state."""
    met: Counter[str] = Counter()
    for hand in positions(seed):
        if hand.state == "lead":
            own = hand.cards(hand.leader)
            legal = hand.legal_actions()
            for suit in {c.suit for c in own}:
                king, queen = Card(suit, 3), Card(suit, 2)
                if king in own and queen in own:
                    assert Action.marriage(king) in legal and Action.marriage(queen) in legal
                    met["closed" if hand.closed_by is not None else
                        "open" if hand.stock_size else "exhausted"] += 1
    return met


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9))
def test_S7_marriages_on_every_lead_while_open_closed_or_exhausted(seed: int) -> None:
    met = marriage_checks(seed)
    for case in met:
        event(f"a marriage held, the stock {case}")
    if not met:
        event("no marriage held")


def test_S7_the_marriage_checks_meet_every_state_of_the_stock() -> None:
    """The property above is not vacuous: over fixed seeds marriages are checked with
    the stock open, closed and exhausted."""
    met = sum((marriage_checks(seed) for seed in range(50)), Counter[str]())
    assert min(met[case] for case in ("open", "closed", "exhausted")) > 0, met


def test_S8_a_false_declaration_gives_the_opponent_3_or_2() -> None:
    hand = deal()
    assert Action.parse("66") not in hand.legal_actions()  # no trick won yet
    play(hand, "AH JH 66")  # 13 points: false, and the dealer has no trick
    assert hand.result() == HandResult(0, 3, "false_declaration", (0, 13), (0, 1), ((), ()), None)
    result = play(deal(), "AH JH TS AS JC AC 66").result()  # now the dealer has a trick (21)
    assert result is not None and (result.winner, result.game_points) == (0, 2)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**9))
def test_S9_hands_score_1_to_3_and_the_match_goes_to_the_first_with_7(seed: int) -> None:
    rng = random.Random(seed)
    match = Match(SCHNAPSEN, seed=seed)
    score = [0, 0]
    while not match.is_over():
        assert max(score) < 7
        result = play_random(match.deal(), rng).result()
        assert result is not None and result.winner is not None
        assert result.game_points in (1, 2, 3) and result.bonus == 0
        score[result.winner] += result.game_points
        assert match.score == tuple(score)
    assert max(score) >= 7 and min(score) < 7 and match.winner == score.index(max(score))


# S12: the preset's options ----------------------------------------------------------
def test_S12_the_preset_is_classic_with_the_options_of_the_table() -> None:
    import dataclasses

    changed = {f.name for f in dataclasses.fields(Rules)
               if f.name != "base" and getattr(SCHNAPSEN, f.name) != getattr(Rules(), f.name)}
    assert changed == {"deck", "exchange_first_lead", "close_before_draw", "marriages_in_phase2",
                       "last_trick_bonus", "played_out", "close_scoring", "first_dealer", "tie_bonus"}
    tournament = Rules.parse("schnapsen,exchange_first_lead=false")
    assert tournament.deck == 20 and not tournament.exchange_first_lead


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
                                  "s5_4_closer_with_66_loses_the_last_trick", "s6_3_last_trick_wins"])
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
    play(hand, " ".join(actions[:close]))
    closer = hand.to_act
    assert closer is not None and hand.tricks_won(1 - closer) == 0  # Schwarz at the close
    play(hand, " ".join(actions[close:]))
    result = hand.result()
    assert result is not None and result.reason == "closed_succeeded" and result.winner == closer
    # By the end the opponent had tricks and 33 or more: scored at the end it would be 1.
    assert hand.tricks_won(1 - closer) > 0 and hand.score(1 - closer) >= 33
    assert result.game_points == 3


def test_worked_check_S5_4_a_closer_with_66_who_loses_the_last_trick_has_failed() -> None:
    hand, actions = record_hand("s5_4_closer_with_66_loses_the_last_trick")
    close = actions.index("C")
    play(hand, " ".join(actions[:close]))
    closer = hand.to_act
    assert closer is not None and hand.tricks_won(1 - closer) == 1
    reached = 16  # after action 15 (his trick) the closer leads, with 72
    play(hand, " ".join(actions[close:reached]))
    assert hand.to_act == closer and hand.score(closer) >= 66
    assert Action.parse("66") in hand.legal_actions()  # he could declare, and does not
    play(hand, " ".join(actions[reached:]))
    result = hand.result()
    assert result is not None and hand.view(0).tricks[-1].winner == 1 - closer
    assert (result.reason, result.winner, result.game_points) == ("closed_failed", 1 - closer, 2)
    assert result.points[closer] >= 66


def test_worked_check_S6_3_the_last_trick_beats_the_higher_total() -> None:
    hand, actions = record_hand("s6_3_last_trick_wins")
    play(hand, " ".join(actions))
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
    from sixtysix.bots.rollout import playout

    rules = Rules.parse(text)
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, rules=rules)
    while not hand.is_over():
        assert all(a.kind.name != "CLOSE" for a in hand.legal_actions())
        hand.push(rng.choice(hand.legal_actions()))
    assert hand.view(0).closed_by is None
    world = Hand.random(seed=seed, rules=rules)
    playout(world, rng, 0.1, close=True)
    assert world.view(0).closed_by is None and world.is_over()
