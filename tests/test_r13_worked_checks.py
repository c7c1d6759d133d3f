"""R13: the worked checks, as game records under ``tests/records`` replayed
with the engine directly. Each record sits beside the result that
``sixtysix replay --json`` prints for it (``NAME.expected.json``)."""

from __future__ import annotations

import pytest

from helpers import RECORDS, load, replay_hand, replay_match, replay_result
from sixtysix import Action, Hand, Rules

NAMES = sorted(p.name.removesuffix(".json") for p in RECORDS.glob("r13_*.json")
               if not p.name.endswith(".expected.json"))


def test_every_worked_check_has_a_record() -> None:
    assert [n.split("_")[1] for n in NAMES] == ["1", "2", "3", "4a", "4b", "5", "6", "7"]


@pytest.mark.parametrize("name", NAMES)
def test_record_replays_to_its_expected_result(name: str) -> None:
    record = load(f"{name}.json")
    assert record["format"] == "sixtysix/1"
    assert record["rules"] == "classic"
    assert replay_result(record) == load(f"{name}.expected.json")


def steps(name: str) -> tuple[Hand, list[str]]:
    record = load(f"{name}.json")
    return Hand.deal(record["deck"], record["dealer"], Rules.from_json(record["rules"])), record["actions"]


def test_R13_1_exchange_marriage_close_and_lead_in_one_turn() -> None:
    hand, actions = steps("r13_1_exchange_marriage_close")
    assert actions == ["AS", "9S", "D", "X", "C", "QH+"]
    play_to = len(actions) - 4
    for token in actions[:play_to]:
        hand.push(Action.parse(token))
    # One turn: seat 1 draws, exchanges, closes and leads the trump queen with 40.
    for token in actions[play_to:]:
        assert hand.to_act == 1
        assert token in [str(a) for a in hand.legal_actions()]
        hand.push(Action.parse(token))
    assert not hand.is_over() and hand.result() is None
    assert (hand.state, hand.to_act, hand.closed_by) == ("follow", 0, 1)
    assert str(hand.lead_card) == "QH" and hand.trump_card is None
    assert {"KH"} <= {str(c) for c in hand.cards(1)} and "9H" not in {str(c) for c in hand.cards(1)}
    assert hand.marriage_points(1) == 40 and hand.score(1) == 11 + 40
    assert replay_result(load("r13_1_exchange_marriage_close.json"))["reason"] == "unfinished"


def test_R13_2_provisional_marriage_counts_after_a_trick_of_two_nines() -> None:
    hand, actions = steps("r13_2_provisional_marriage_counts")
    for token in actions[:4]:
        hand.push(Action.parse(token))
    assert hand.marriage_points(1) == 20 and hand.score(1) == 0 and hand.tricks_won(1) == 0
    hand.push(Action.parse(actions[4]))  # 9S on 9D: two nines, no card points
    assert hand.tricks_won(1) == 1 and hand.card_points(1) == 0 and hand.score(1) == 20
    for token in actions[5:]:
        hand.push(Action.parse(token))
    res = hand.result()
    assert res is not None
    assert (res.winner, res.game_points, res.points) == (0, 1, (69, 33))


def test_R13_3_marriage_without_a_trick_loses_three() -> None:
    hand = replay_hand(load("r13_3_marriage_without_trick.json"))
    res = hand.result()
    assert res is not None
    assert (res.winner, res.game_points, res.tricks[1], res.points[1]) == (0, 3, 0, 0)
    assert hand.marriage_points(1) == 20


@pytest.mark.parametrize(("name", "opp_tricks_at_close", "game_points"), [
    ("r13_4a_failed_close_opponent_trickless", 0, 3),
    ("r13_4b_failed_close_opponent_one_trick", 1, 2),
])
def test_R13_4_failed_close_at_60(name: str, opp_tricks_at_close: int, game_points: int) -> None:
    hand, actions = steps(name)
    close = actions.index("C")
    for token in actions[:close]:
        hand.push(Action.parse(token))
    assert hand.to_act == 1 and hand.tricks_won(0) == opp_tricks_at_close
    for token in actions[close:]:
        hand.push(Action.parse(token))
    res = hand.result()
    assert res is not None
    assert (res.winner, res.reason, res.game_points, res.closed_by) == (0, "closed_failed", game_points, 1)
    assert res.points[1] == 60
    assert res.tricks[0] > opp_tricks_at_close  # B won tricks after the close as well


def test_R13_5_closer_declares_70_against_35() -> None:
    hand, actions = steps("r13_5_closer_declares_70_against_35")
    close = actions.index("C")
    for token in actions[:close + 1]:
        hand.push(Action.parse(token))
    assert hand.score(0) == 0
    for token in actions[close + 1:]:
        hand.push(Action.parse(token))
    res = hand.result()
    assert res is not None
    assert (res.winner, res.reason, res.game_points, res.points) == (1, "closed_succeeded", 1, (35, 70))


def test_R13_6_tie_scores_nothing_and_the_next_winner_collects_one_extra() -> None:
    match = replay_match(load("r13_6_tie_bonus_match.json"))
    tie, win = match.results()
    assert (tie.winner, tie.reason, tie.game_points, tie.points) == (None, "tie", 0, (65, 65))
    assert tie.closed_by is None and all(not m for m in tie.marriages)
    assert (win.winner, win.game_points, win.bonus) == (1, 1, 1)
    assert match.score == (0, 2) and match.winner is None
    assert [h.dealer for h in match.hands] == [0, 1]


def test_R13_7_card_points_sum_to_120_plus_10_for_the_last_trick() -> None:
    for name, hand_record in (("r13_7_played_out_sum", load("r13_7_played_out_sum.json")),
                              ("tie", {**load("r13_6_tie_bonus_match.json")["hands"][0],
                                       "format": "sixtysix/1", "rules": "classic", "dealer": 0})):
        hand = replay_hand(hand_record)
        res = hand.result()
        assert res is not None and res.closed_by is None, name
        assert hand.card_points(0) + hand.card_points(1) == 120
        counted = sum(hand.marriage_points(s) for s in (0, 1) if hand.tricks_won(s))
        assert sum(res.points) == 120 + 10 + counted
