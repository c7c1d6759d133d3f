"""R9: game points for a hand, tied hands and the bonus, and the match target."""

from __future__ import annotations

import random

import pytest

from helpers import QUICK_DECK, deal, finish_quickly, load, play
from sixtysix import Hand, ParseError, Rules
from sixtysix.game.match import Match, MatchOverError

TIE = load("r13_6_tie_bonus_match.json")["hands"][0]
# Seat 0 declares 66 while seat 1 holds exactly 33 (cards only).
LOSER_33 = ("9C AC KD JS JC KC 9D JD QH AS QD TH 9H TC TD 9S KS AD AH JH TS QS KH QC",
            "9C JC D AS 9D D JS TD D TC JD D TH KS D 9S KH D TS QS QH 9H AH JH KD AD 66")
# Seat 1 declares 70 while seat 0 holds exactly 32.
LOSER_32 = ("QD 9S TS 9H KD AC 9D JD AS JS TC QS KC AD AH JC QC TD KS JH 9C QH KH TH",
            "TS 9H D 9D JS D AS AH D 9S KS D QS 9C D QH KH D JH KC AD KD TD AC TH JC 66")


def test_R9_1_one_game_point_when_the_loser_has_33() -> None:
    hand = Hand.deal(LOSER_33[0], 0)
    play(hand, LOSER_33[1])
    res = hand.result()
    assert res is not None
    assert (res.winner, res.reason, res.game_points, res.points) == (0, "declared", 1, (66, 33))


def test_R9_1_two_game_points_when_the_loser_has_32() -> None:
    hand = Hand.deal(LOSER_32[0], 0)
    play(hand, LOSER_32[1])
    res = hand.result()
    assert res is not None
    assert (res.winner, res.reason, res.game_points, res.points) == (1, "declared", 2, (32, 70))
    assert res.tricks[0] > 0


def test_R9_1_three_game_points_when_the_loser_won_no_trick() -> None:
    hand = deal("AS AC AD TS TC 9H", "9S 9C 9D JS JC JD", "KH")
    play(hand, "AS 9S D AC 9C D AD 9D D TS JS D TC JC D AH TH 66")
    res = hand.result()
    assert res is not None
    assert (res.winner, res.game_points, res.tricks) == (1, 3, (0, 6))


def test_R9_1_schwarz_is_by_tricks_not_points() -> None:
    # Seat 1 wins only a trick of two nines (0 card points): he concedes 2, not 3.
    hand = deal("9S KS QD KC QC JD", "9C AS TS AH TH AD", "JH")
    play(hand, "9S 9C D KS AS D TS QD D AH KC D TH QC D AD JD 66")
    res = hand.result()
    assert res is not None
    assert res.points == (69, 0) and res.tricks == (5, 1)
    assert (res.winner, res.reason, res.game_points) == (0, "declared", 2)


def test_R9_1_loser_points_include_counted_marriages() -> None:
    # R13.2: 13 card points and a 20 that counts: 33, so one game point.
    record = load("r13_2_provisional_marriage_counts.json")
    hand = Hand.deal(record["deck"], record["dealer"])
    play(hand, " ".join(record["actions"]))
    res = hand.result()
    assert res is not None
    assert hand.card_points(1) == 13 and res.points[1] == 33 and res.game_points == 1


def tie_hand(hand: Hand) -> None:
    play(hand, " ".join(TIE["actions"]))
    res = hand.result()
    assert res is not None and (res.winner, res.reason, res.game_points) == (None, "tie", 0)


def test_R9_2_tied_hand_scores_nothing() -> None:
    hand = Hand.deal(TIE["deck"], 0)
    tie_hand(hand)
    res = hand.result()
    assert res is not None and res.points == (65, 65) and res.bonus == 0


def test_R9_2_winner_of_the_next_hand_collects_one_per_tie() -> None:
    match = Match(first_dealer=0)
    tie_hand(match.deal(TIE["deck"]))
    assert match.score == (0, 0) and match.pending_bonus == 1
    tie_hand(match.deal(TIE["deck"]))
    assert match.score == (0, 0) and match.pending_bonus == 2
    finish_quickly(match.deal(QUICK_DECK), 1)
    results = match.results()
    assert [(r.winner, r.game_points, r.bonus) for r in results] == [(None, 0, 0), (None, 0, 0), (1, 3, 2)]
    assert match.score == (0, 5)
    assert match.pending_bonus == 0
    finish_quickly(match.deal(QUICK_DECK), 0)  # the bonus is collected once
    assert match.results()[-1].bonus == 0
    assert match.score == (3, 5)


@pytest.mark.parametrize(("preset", "options", "bonus"), [
    ("classic", {}, 1), ("classic", {"tie_bonus": 0}, 0), ("classic", {"tie_bonus": 2}, 2), ("pagat", {}, 0),
])
def test_R9_2_tie_bonus_option(preset: str, options: dict[str, int], bonus: int) -> None:
    match = Match(Rules.preset(preset).replace(**options), first_dealer=0)
    tie_hand(match.deal(TIE["deck"]))
    finish_quickly(match.deal(QUICK_DECK), 0)
    last = match.results()[-1]
    assert last.bonus == bonus
    assert last.game_points == (2 if preset == "pagat" else 3)  # pagat: false_declaration = two
    assert match.score == (last.game_points + bonus, 0)


def test_R9_3_match_is_won_at_seven() -> None:
    match = Match(first_dealer=0)
    finish_quickly(match.deal(QUICK_DECK), 0)
    finish_quickly(match.deal(QUICK_DECK), 1)
    finish_quickly(match.deal(QUICK_DECK), 0)
    assert match.score == (6, 3) and not match.is_over() and match.winner is None
    finish_quickly(match.deal(QUICK_DECK), 0)
    assert match.score == (9, 3) and match.is_over() and match.winner == 0
    with pytest.raises(MatchOverError):
        match.deal(QUICK_DECK)


def test_R9_3_no_new_hand_before_the_last_one_ends() -> None:
    match = Match(first_dealer=0)
    match.deal(QUICK_DECK)
    with pytest.raises(MatchOverError):
        match.deal(QUICK_DECK)


def test_R9_3_target_option() -> None:
    match = Match(Rules.preset("classic").replace(target=11), first_dealer=0)
    for winner in (0, 0, 0):
        finish_quickly(match.deal(QUICK_DECK), winner)
    assert match.score == (9, 0) and not match.is_over()
    finish_quickly(match.deal(QUICK_DECK), 0)
    assert match.is_over() and match.winner == 0


def play_random_match(rules: Rules, seed: int) -> Match:
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    while not match.is_over():
        before = match.score
        assert max(before) < rules.target
        hand = match.deal()
        while not hand.is_over():
            hand.push(rng.choice(hand.legal_actions()))
    return match


@pytest.mark.parametrize(("preset", "target"), [("classic", 7), ("pagat", 7), ("santase", 11)])
def test_R9_3_random_matches_end_at_the_target(preset: str, target: int) -> None:
    rules = Rules.preset(preset)
    assert rules.target == target
    for seed in range(15):
        match = play_random_match(rules, seed)
        score = match.score
        assert match.winner is not None
        assert score[match.winner] >= target > score[1 - match.winner]
        # The score is the sum of the hands' game points and bonuses.
        total = [0, 0]
        for res in match.results():
            if res.winner is not None:
                total[res.winner] += res.game_points + res.bonus
        assert tuple(total) == score


def test_R9_3_a_match_to_zero_points_is_refused() -> None:
    """R9.3: a match is won by the first to *reach* the target; at 0 both have reached
    it before the first deal, so no match could be played (a record with target 0 once
    crashed replay): the option is refused when the rules are built."""
    with pytest.raises(ParseError, match="target must be at least 1 game point, not 0"):
        Rules.preset("classic").replace(target=0)
    assert Match(Rules.preset("classic").replace(target=1), first_dealer=0).is_over() is False
