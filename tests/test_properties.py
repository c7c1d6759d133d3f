"""Invariants over thousands of random hands (hypothesis).

Random play runs under every preset and random combinations of the R12
options. Along the way the tests re-derive, independently of the engine,
who wins each trick (R3.3), which actions are legal (R3.6, R4-R8), the card
and marriage points, and finally the whole result (R6.3, R6.4, R8, R9.1,
R10.2); and they check make/unmake, copies, seeds, conservation of the pack
and of its 120 points (R1.3, R13.7), and that every action outside the legal
list is refused without changing the state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import beats, choose, phase2_follow, rule_sets, seats, seeds, styles
from sixtysix import CARDS, Action, Card, Hand, IllegalActionError, Rules
from sixtysix.game.actions import ACTIONS
from sixtysix.game.match import Match

# An independent reading of the rules ------------------------------------------
# (R3.3's ``beats`` and R7.2's ``phase2_follow`` are in tests/helpers.py.)

def concede(points: int, tricks: int) -> int:
    """R9.1 game points won against a loser with these points and tricks."""
    if tricks == 0:
        return 3
    return 2 if points < 33 else 1


@dataclass
class Walk:
    """What an observer of the whole hand worked out for himself."""

    rules: Rules
    trump: int
    tricks: list[tuple[int, Card, Card, int | None]] = field(default_factory=list)
    won: list[int] = field(default_factory=lambda: [0, 0])
    ntricks: list[int] = field(default_factory=lambda: [0, 0])
    marriages: list[int] = field(default_factory=lambda: [0, 0])
    lead: tuple[int, Card] | None = None
    closer: int | None = None
    closed_at: int | None = None
    opp_trickless_at_close: bool = False
    revoke: tuple[int, int] | None = None  # (offender, his card points before)
    declarer: int | None = None

    def counted(self, seat: int) -> int:
        return self.won[seat] + (self.marriages[seat] if self.ntricks[seat] else 0)


def expected_legal(hand: Hand, walk: Walk) -> set[str]:
    """The legal actions, from the rule book (R3.2, R3.6, R4.1, R5, R6.1, R7.2, R8.1)."""
    rules = walk.rules
    p = hand.to_act
    assert p is not None
    mine = set(hand.cards(p))
    stock = hand.stock_size
    stock_open = hand.closed_by is None and stock > 0
    won = walk.ntricks[p] > 0
    total_tricks = sum(walk.ntricks)
    if hand.state == "follow":
        assert walk.lead is not None
        led = walk.lead[1]
        if rules.enforce_follow and not stock_open:
            return {str(c) for c in phase2_follow(mine, led, walk.trump)}
        return {str(c) for c in mine}
    if hand.state == "draw":
        out = {"D"}
        if stock >= rules.close_min_stock:
            out.add("C")
        if not rules.auto_declare:
            out.add("66")
        return out
    assert hand.state == "lead"
    out = {str(c) for c in mine}
    may_marry = (total_tricks > 0 or rules.marriage_first_lead) and (
        stock_open or rules.marriages_in_phase2
        or (walk.closer == p and walk.closed_at == total_tricks))
    if may_marry:
        for suit in "CDHS":
            if {Card.parse("K" + suit), Card.parse("Q" + suit)} <= mine:
                out |= {"K" + suit + "+", "Q" + suit + "+"}
                if won and not rules.auto_declare:
                    out.add("66+" + suit)
    if stock_open:
        nine = CARDS[walk.trump * 6]
        if won and stock >= rules.exchange_min_stock and nine in mine:
            out.add("X")
        if stock >= rules.close_min_stock and (total_tricks > 0 or rules.close_first_lead):
            out.add("C")
    if won and not rules.auto_declare:
        out.add("66")
    return out


def observe(hand: Hand, walk: Walk, action: Action) -> None:
    """Update the observer's notes for ``action``, just before it is pushed."""
    p = hand.to_act
    assert p is not None
    text = str(action)
    total_tricks = sum(walk.ntricks)
    if text == "C":
        walk.closer = p
        walk.closed_at = total_tricks
        walk.opp_trickless_at_close = walk.ntricks[1 - p] == 0
    elif text == "66":
        walk.declarer = p
    elif text.startswith("66+"):
        walk.declarer = p
        walk.marriages[p] += 40 if "CDHS".index(text[3]) == walk.trump else 20
    elif text.endswith("+"):
        card = action.card
        assert card is not None
        walk.marriages[p] += 40 if int(card.suit) == walk.trump else 20
        if not (walk.rules.auto_declare and walk.ntricks[p] and walk.counted(p) >= 66):
            walk.lead = (p, card)  # else the hand ends with the marriage shown, unled (R5.5)
    elif action.card is not None:
        card = action.card
        if hand.state == "lead":
            walk.lead = (p, card)
        else:
            assert walk.lead is not None
            leader, led = walk.lead
            stock_open = hand.closed_by is None and hand.stock_size > 0
            if (not walk.rules.enforce_follow and not stock_open
                    and card not in phase2_follow(set(hand.cards(p)), led, walk.trump)):
                walk.revoke = (p, walk.won[p])  # R10.2: the trick counts for nobody
                walk.tricks.append((leader, led, card, None))
            else:
                winner = p if beats(card, led, walk.trump) else leader
                walk.tricks.append((leader, led, card, winner))
                walk.won[winner] += card.points + led.points
                walk.ntricks[winner] += 1
            walk.lead = None


def expected_result(hand: Hand, walk: Walk) -> tuple[int | None, str, int, tuple[int, int]]:
    """Winner, reason, game points and totals, from the rule book."""
    rules = walk.rules
    points = [walk.counted(0), walk.counted(1)]
    played_out = not hand.cards(0) and not hand.cards(1) and walk.revoke is None
    if played_out and walk.closer is None and walk.declarer is None:
        last_winner = walk.tricks[-1][3]
        assert last_winner is not None
        points[last_winner] += rules.last_trick_bonus  # R7.3
    failed = 3 if rules.failed_close == "three" or walk.opp_trickless_at_close else 2

    def false(scorer: int) -> int:
        return 3 if rules.false_declaration == "two_or_three" and walk.ntricks[scorer] == 0 else 2

    if walk.revoke is not None:
        offender, before = walk.revoke
        return 1 - offender, "revoke", 3 if before == 0 else 2, (points[0], points[1])
    declarer = walk.declarer
    if declarer is None and not played_out:
        # auto_declare: the hand ended because a player reached 66 (R8.1, docs/design.md §2).
        assert rules.auto_declare
        reached = [s for s in (0, 1) if points[s] >= 66]
        assert len(reached) == 1, points
        declarer = reached[0]
    if declarer is not None:
        p, o = declarer, 1 - declarer
        correct = points[p] >= 66
        if walk.closer is None:
            outcome = (p, "declared", concede(points[o], walk.ntricks[o])) if correct else (
                o, "false_declaration", false(o))
        elif p == walk.closer:
            outcome = (p, "closed_succeeded", concede(points[o], walk.ntricks[o])) if correct else (
                o, "closed_failed", failed)
        else:
            outcome = (p, "closed_failed", failed) if correct else (
                walk.closer, "false_declaration", false(walk.closer))
        return (*outcome, (points[0], points[1]))
    if walk.closer is not None:
        c = walk.closer
        if points[c] >= 66:
            return c, "closed_succeeded", concede(points[1 - c], walk.ntricks[1 - c]), (points[0], points[1])
        return 1 - c, "closed_failed", failed, (points[0], points[1])
    if points[0] == points[1]:
        return None, "tie", 0, (points[0], points[1])
    w = 0 if points[0] > points[1] else 1
    return w, "played_out", concede(points[1 - w], walk.ntricks[1 - w]), (points[0], points[1])


def pack_conserved(hand: Hand, walk: Walk) -> None:
    """Every card is in exactly one place, and the 120 points with it (R1.3)."""
    played = [c for t in walk.tricks for c in (t[1], t[2])]
    if walk.lead is not None:
        played.append(walk.lead[1])
    places = [*hand.cards(0), *hand.cards(1), *hand.stock, *played]
    assert sorted(places) == sorted(CARDS)
    in_tricks = sum(c.points for t in walk.tricks if t[3] is not None for c in (t[1], t[2]))
    assert hand.card_points(0) + hand.card_points(1) == in_tricks


def play_and_check(seed: int, dealer: int, rules: Rules, style: tuple[float, float]) -> Hand:
    rng = random.Random(seed ^ 0x5EED)
    hand = Hand.random(seed=seed, dealer=dealer, rules=rules)
    walk = Walk(rules, int(hand.trump))
    while not hand.is_over():
        assert hand.result() is None
        assert {str(a) for a in hand.legal_actions()} == expected_legal(hand, walk)
        # Make/unmake: every legal action, pushed and popped, restores the state.
        key = hand.key()
        for action in hand.legal_actions():
            hand.push(action)
            assert hand.pop() is action
            assert hand.key() == key
        action = choose(hand, rng, style)
        observe(hand, walk, action)
        hand.push(action)
        pack_conserved(hand, walk)
        for seat in (0, 1):
            assert hand.card_points(seat) == walk.won[seat]
            assert hand.tricks_won(seat) == walk.ntricks[seat]
            if not hand.is_over():
                assert hand.score(seat) == walk.counted(seat)
                if rules.auto_declare:
                    # Entering a lead or draw with 66 counted ends the hand at once.
                    assert hand.score(seat) < 66
    res = hand.result()
    assert res is not None
    assert hand.to_act is None and hand.legal_actions() == [] and hand.state == "over"
    winner, reason, game_points, points = expected_result(hand, walk)
    assert (res.winner, res.reason, res.game_points, res.points) == (winner, reason, game_points, points)
    assert res.tricks == (walk.ntricks[0], walk.ntricks[1])
    assert res.closed_by == walk.closer
    assert res.bonus == 0
    if reason in ("played_out", "tie"):
        # R13.7: all 24 cards were played; their points sum to 120, plus the bonus.
        assert hand.card_points(0) + hand.card_points(1) == 120
        assert sum(res.points) == 120 + walk.marriages[0] * (walk.ntricks[0] > 0) \
            + walk.marriages[1] * (walk.ntricks[1] > 0) + rules.last_trick_bonus
    return hand


@settings(max_examples=1500)
@given(seed=seeds, dealer=seats, rules=rule_sets(), style=styles)
def test_random_hands_follow_the_rule_book(seed: int, dealer: int, rules: Rules,
                                           style: tuple[float, float]) -> None:
    play_and_check(seed, dealer, rules, style)


@settings(max_examples=500)
@given(seed=seeds, dealer=seats, preset=st.sampled_from(["classic", "pagat", "santase"]))
def test_R13_7_unclosed_played_out_hands_sum_to_120_plus_bonus(seed: int, dealer: int, preset: str) -> None:
    # Nobody declares or closes: every hand is played out and unclosed.
    rules = Rules.preset(preset).replace(auto_declare=False)
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, dealer=dealer, rules=rules)
    while not hand.is_over():
        choices = [a for a in hand.legal_actions() if not a.is_declaration and str(a) != "C"]
        hand.push(rng.choice(choices))
    res = hand.result()
    assert res is not None and res.reason in ("played_out", "tie") and res.closed_by is None
    assert hand.card_points(0) + hand.card_points(1) == 120
    counted = sum(hand.marriage_points(s) for s in (0, 1) if hand.tricks_won(s))
    assert sum(res.points) == 120 + 10 + counted
    assert sum(res.tricks) == 12


@settings(max_examples=300)
@given(seed=seeds, dealer=seats, rules=rule_sets(), style=styles)
def test_every_other_action_is_refused_and_changes_nothing(seed: int, dealer: int, rules: Rules,
                                                           style: tuple[float, float]) -> None:
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, dealer=dealer, rules=rules)
    while True:
        legal = set(hand.legal_actions())
        key = hand.key()
        history = hand.actions
        for action in ACTIONS:
            if action is None or action in legal:
                continue
            try:
                hand.push(action)
            except IllegalActionError as exc:
                assert set(exc.legal) == legal
            else:
                raise AssertionError(f"{action} accepted; legal {sorted(map(str, legal))}")
            assert hand.key() == key and hand.actions == history
            assert not hand.is_legal(action)
        if hand.is_over():
            break
        for action in legal:
            assert hand.is_legal(action)
        hand.push(choose(hand, rng, style))


@settings(max_examples=300)
@given(seed=seeds, dealer=seats, rules=rule_sets(), style=styles)
def test_push_pop_through_a_whole_hand(seed: int, dealer: int, rules: Rules,
                                       style: tuple[float, float]) -> None:
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, dealer=dealer, rules=rules)
    keys = []
    legals = []
    while not hand.is_over():
        keys.append(hand.key())
        legals.append(hand.legal_actions())
        hand.push(choose(hand, rng, style))
    final = hand.key()
    result = hand.result()
    played = hand.actions
    # Unwind to the deal, checking every state on the way back ...
    for key, legal in zip(reversed(keys), reversed(legals), strict=True):
        hand.pop()
        assert hand.key() == key
        assert hand.legal_actions() == legal
        assert hand.result() is None
    assert hand.actions == []
    # ... and replay with push_code to the same end.
    for action in played:
        hand.push_code(action.code)
    assert hand.key() == final
    assert hand.result() == result


@settings(max_examples=300)
@given(seed=seeds, dealer=seats, rules=rule_sets(), cut=st.floats(0, 1), style=styles)
def test_copy_is_independent(seed: int, dealer: int, rules: Rules, cut: float,
                             style: tuple[float, float]) -> None:
    rng = random.Random(seed)
    hand = Hand.random(seed=seed, dealer=dealer, rules=rules)
    moves = []
    while not hand.is_over():
        moves.append(choose(hand, rng, style))
        hand.push(moves[-1])
    for _ in moves:
        hand.pop()
    stop = int(cut * len(moves))
    for action in moves[:stop]:
        hand.push(action)
    twin = hand.copy()
    key = hand.key()
    assert twin.key() == key and twin.actions == hand.actions
    # Play the rest on the copy: the original does not move.
    for action in moves[stop:]:
        twin.push(action)
    assert hand.key() == key and hand.actions == moves[:stop]
    assert twin.is_over() and not (stop < len(moves) and hand.is_over())
    # The copy keeps its history: it can be unwound to the branch point.
    for _ in moves[stop:]:
        twin.pop()
    assert twin.key() == key
    # Play the rest on the original: the copy does not move.
    for action in moves[stop:]:
        hand.push(action)
    assert twin.key() == key


@settings(max_examples=200)
@given(seed=seeds, dealer=seats, rules=rule_sets())
def test_same_seed_same_deal(seed: int, dealer: int, rules: Rules) -> None:
    a = Hand.random(seed=seed, dealer=dealer, rules=rules)
    b = Hand.random(seed=seed, dealer=dealer, rules=rules)
    assert a.deck == b.deck and a.key() == b.key()
    assert sorted(a.deck) == sorted(CARDS)
    assert a.deck == Hand.random(seed=seed).deck
    assert Hand.random(rng=random.Random(seed)).deck == a.deck
    m1, m2 = Match(rules, seed=seed), Match(rules, seed=seed)
    assert m1.first_dealer == m2.first_dealer and m1.cuts == m2.cuts
    assert m1.deal().deck == m2.deal().deck


def test_different_seeds_give_different_deals() -> None:
    decks = {Hand.random(seed=s).deck for s in range(200)}
    assert len(decks) == 200
