"""Game records (docs/design.md §4): reading, writing, checking and replaying."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtysix import Action, Card, Hand, Rules
from sixtysix.bots import make_bot
from sixtysix.errors import InvalidRecordError
from sixtysix.game.record import (
    FORMAT,
    HandRecord,
    HandReplay,
    MatchRecord,
    MatchReplay,
    dump,
    dumps,
    from_json,
    load,
    loads,
    record_from_hand,
    record_from_match,
    replay,
    replay_json,
    validate,
)
from sixtysix.play.runner import play_hand, play_match

EXAMPLES = Path(__file__).parent / "examples"
EXAMPLE_NAMES = sorted(p.stem for p in EXAMPLES.glob("*.json") if not p.stem.endswith(".expected"))


def raw(name: str) -> dict[str, Any]:
    """An example record as a fresh JSON object (safe to modify)."""
    obj: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text())
    return obj


def expected(name: str) -> str:
    return (EXAMPLES / f"{name}.expected.json").read_text().strip()


def error_of(obj: object) -> InvalidRecordError:
    """The error that reading and replaying ``obj`` raises."""
    with pytest.raises(InvalidRecordError) as info:
        replay(from_json(obj))
    return info.value


def test_examples_are_present() -> None:
    assert len(EXAMPLE_NAMES) == 8
    assert {"0000", "match-0000"} <= set(EXAMPLE_NAMES)


# -- The examples ---------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_replays_to_its_expected_result(name: str) -> None:
    record = load(EXAMPLES / f"{name}.json")
    result = replay_json(record)
    # The same keys, in the same order, with the same values.
    assert json.dumps(result) == expected(name)


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_round_trips_exactly(name: str) -> None:
    original = raw(name)
    record = load(EXAMPLES / f"{name}.json")
    assert record.to_json() == original
    assert list(record.to_json()) == list(original)
    assert json.loads(dumps(record)) == original
    assert loads(dumps(record)) == record


def test_load_accepts_paths_and_open_files(tmp_path: Path) -> None:
    path = EXAMPLES / "0001.json"
    by_path = load(path)
    assert load(str(path)) == by_path
    with open(path, encoding="utf-8") as text_file:
        assert load(text_file) == by_path
    with open(path, "rb") as binary_file:
        assert load(binary_file) == by_path
    out = tmp_path / "copy.json"
    dump(by_path, out)
    assert load(out) == by_path
    buffer = io.StringIO()
    dump(by_path, buffer, indent=2)
    assert buffer.getvalue().endswith("}\n") and "\n  " in buffer.getvalue()
    assert loads(buffer.getvalue()) == by_path


def test_hand_and_match_records_have_their_own_types() -> None:
    hand = load(EXAMPLES / "0000.json")
    match = load(EXAMPLES / "match-0001.json")
    assert isinstance(hand, HandRecord) and isinstance(match, MatchRecord)
    assert hand.deck[0] == Card.parse("QD") and hand.actions[0] == Action.parse("KS")
    assert match.first_dealer == 1 and len(match.hands) == 3
    assert match.hands[0].dealer == 1 and match.hands[1].dealer is None
    assert match.extra == {"players": ["referee-0", "referee-1"]}
    hand_replay = replay(hand)
    match_replay = replay(match)
    assert isinstance(hand_replay, HandReplay) and hand_replay.finished
    assert hand_replay.winner == 1 and hand_replay.hand.is_over()
    assert isinstance(match_replay, MatchReplay) and match_replay.finished
    assert match_replay.winner == 0 and match_replay.score == (8, 0)


def test_replay_accepts_a_decoded_json_object() -> None:
    assert json.dumps(replay_json(raw("0002"))) == expected("0002")
    validate(raw("match-0000"))


# -- Unknown and optional fields ----------------------------------------------------


OPTIONAL = {
    "players": ["Ann", "Bob"],
    "event": "club night",
    "date": "2024-05-01",
    "seed": 12345,
    "comments": [{"at": 0, "text": "a bold lead"}, {"at": 3, "text": "why?", "by": "Ann"}],
    "clock": {"initial": 300, "increment": 2, "used": [[1.5, 2.0]]},
    "x-analysis": {"engine": "none", "depth": [1, 2, 3]},
}


def test_hand_record_keeps_every_other_field_in_order() -> None:
    obj = raw("0000")
    obj.update(copy.deepcopy(OPTIONAL))
    record = from_json(obj)
    assert record.extra == OPTIONAL
    assert list(record.extra) == list(OPTIONAL)
    again = json.loads(dumps(record))
    assert again == obj and list(again) == list(obj)
    assert json.dumps(replay_json(record)) == expected("0000")


def test_match_record_keeps_fields_of_the_match_and_of_each_hand() -> None:
    obj = raw("match-0001")
    obj["event"] = "final"
    obj["seed"] = "abc"
    obj["hands"][1]["comments"] = [{"at": 6, "text": "shows hearts and declares"}]
    obj["hands"][2]["note"] = {"anything": [None, True]}
    record = from_json(obj)
    assert isinstance(record, MatchRecord)
    assert record.hands[1].extra == {"comments": [{"at": 6, "text": "shows hearts and declares"}]}
    assert record.hands[2].extra == {"note": {"anything": [None, True]}}
    assert json.loads(dumps(record)) == obj
    assert json.dumps(replay_json(record)) == expected("match-0001")


def test_rules_objects_round_trip() -> None:
    obj = raw("0000")
    obj["rules"] = {"preset": "classic", "target": 11, "tie_bonus": 0}
    record = from_json(obj)
    assert record.rules == Rules.preset("classic").replace(target=11, tie_bonus=0)
    assert json.loads(dumps(record))["rules"] == obj["rules"]
    obj["rules"] = "pagat"
    assert json.loads(dumps(from_json(obj)))["rules"] == "pagat"


# -- Records of played games ---------------------------------------------------


PRESET_RULES = {
    "classic": Rules.preset("classic"),
    "pagat": Rules.preset("pagat"),
    "santase": Rules.preset("santase"),
    "table": Rules.preset("classic").replace(enforce_follow=False),
    "no-draw-choice": Rules.preset("classic").replace(close_before_draw=False, last_trick_bonus=0),
}


def bots(seed: int) -> list[Any]:
    return [make_bot("random", seed=seed), make_bot("random", seed=seed + 1)]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from([0, 1]),
       rules=st.sampled_from(sorted(PRESET_RULES)))
def test_played_hand_replays_to_the_same_result(seed: int, dealer: int, rules: str) -> None:
    hand = play_hand(Hand.random(seed=seed, dealer=dealer, rules=PRESET_RULES[rules]), bots(seed))
    record = record_from_hand(hand, players=["random-a", "random-b"])
    text = dumps(record)
    again = loads(text)
    assert again == record
    assert again.extra == {"players": ["random-a", "random-b"], "seed": seed}
    outcome = replay(again)
    assert isinstance(outcome, HandReplay)
    assert outcome.result == hand.result()
    assert outcome.to_json() == hand.result().to_json()  # type: ignore[union-attr]
    assert outcome.hand.key() == hand.key()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(["classic", "pagat", "santase"]))
def test_played_match_replays_to_the_same_score(seed: int, rules: str) -> None:
    match = play_match(bots(seed), seed=seed, rules=PRESET_RULES[rules])
    record = record_from_match(match, event="simulation")
    assert all(h.dealer is not None for h in record.hands)
    outcome = replay(loads(dumps(record)))
    assert isinstance(outcome, MatchReplay)
    assert outcome.winner == match.winner is not None
    assert outcome.score == match.score
    assert [h.result for h in outcome.hands] == match.results()
    assert outcome.to_json()["score"] == list(match.score)


def test_every_prefix_of_a_played_hand_is_a_valid_record() -> None:
    hand = play_hand(Hand.random(seed=99, dealer=1), bots(99))
    record = record_from_hand(hand)
    actions = list(record.actions)
    shadow = Hand.deal(hand.deck, 1)
    for n in range(len(actions) + 1):
        record.actions = actions[:n]
        result = replay_json(record)
        if n < len(actions):
            assert result["reason"] == "unfinished"
            assert result["to_act"] == shadow.to_act
            assert result["points"] == [shadow.score(0), shadow.score(1)]
            shadow.push(actions[n])
        else:
            assert result == hand.result().to_json()  # type: ignore[union-attr]


def test_a_record_of_an_unfinished_match_replays() -> None:
    match = play_match(bots(5), seed=5)
    record = record_from_match(match)
    record.hands = record.hands[:2]
    record.hands[1].actions = record.hands[1].actions[:4]
    result = replay_json(record)
    assert result["winner"] is None
    assert result["hands"][0] == match.results()[0].to_json()
    assert result["hands"][1]["reason"] == "unfinished"
    first = match.results()[0]
    score = [0, 0]
    if first.winner is not None:
        score[first.winner] = first.game_points
    assert result["score"] == score


def test_record_from_hand_refuses_fields_that_come_from_the_game() -> None:
    hand = Hand.random(seed=1)
    with pytest.raises(ValueError, match="dealer"):
        record_from_hand(hand, dealer=1)
    with pytest.raises(InvalidRecordError, match="players"):
        record_from_hand(hand, players=["only one"])


# -- Unfinished hands and matches ------------------------------------------------------


def test_unfinished_hand_result() -> None:
    obj = raw("0000")
    obj["actions"] = obj["actions"][:5]  # KS 9C D 9S QS: one trick each, seat 1 to draw
    result = replay_json(obj)
    assert result == {
        "winner": None, "reason": "unfinished", "to_act": 1, "game_points": 0, "bonus": 0,
        "points": [4, 3], "tricks": [1, 1], "marriages": [[], []], "closed_by": None,
    }
    assert list(result) == ["winner", "reason", "to_act", "game_points", "bonus", "points",
                            "tricks", "marriages", "closed_by"]


def test_unfinished_hand_lists_a_marriage_not_yet_counted() -> None:
    # R5.3: seat 1 announced 20 in diamonds and has won no trick.
    obj = raw("0003")
    obj["actions"] = obj["actions"][:1]
    result = replay_json(obj)
    assert result["to_act"] == 0
    assert result["points"] == [0, 0]
    assert result["marriages"] == [[], [["D", 20]]]


def test_unfinished_closed_hand_names_the_closer() -> None:
    obj = raw("0002")
    obj["actions"] = obj["actions"][:9]  # ... QD JC C: seat 0 closes before the draw
    result = replay_json(obj)
    assert result["closed_by"] == 0 and result["to_act"] == 0
    assert result["points"] == [40, 0] and result["tricks"] == [3, 0]


def test_hand_with_no_actions_is_unfinished() -> None:
    obj = raw("0001")
    obj["actions"] = []
    result = replay_json(obj)
    assert result["reason"] == "unfinished" and result["to_act"] == 1
    assert result["points"] == [0, 0] and result["tricks"] == [0, 0]


def test_match_with_no_hands_is_unfinished() -> None:
    obj = raw("match-0000")
    obj["hands"] = []
    assert replay_json(obj) == {"winner": None, "score": [0, 0], "hands": []}


def test_match_short_of_the_target_is_unfinished() -> None:
    obj = raw("match-0000")
    obj["hands"] = obj["hands"][:2]
    full = json.loads(expected("match-0000"))
    assert replay_json(obj) == {"winner": None, "score": [1, 2], "hands": full["hands"][:2]}


def test_match_with_its_last_hand_in_progress() -> None:
    obj = raw("match-0000")
    obj["hands"] = obj["hands"][:3]
    obj["hands"][2]["actions"] = obj["hands"][2]["actions"][:3]
    result = replay_json(obj)
    assert result["winner"] is None and result["score"] == [1, 2]
    assert result["hands"][2]["reason"] == "unfinished"
    assert result["hands"][2]["to_act"] == 0  # seat 0 won the trick and drew


def test_tie_bonus_is_reported_on_the_hand_that_collects_it() -> None:
    # Find a played match with a tied hand followed by a decided one (R9.2).
    for seed in range(2000):
        match = play_match(bots(seed), seed=seed)
        results = match.results()
        if any(r.bonus for r in results):
            break
    else:  # pragma: no cover - the search is deterministic
        pytest.fail("no tied hand in 2000 random matches")
    out = replay_json(record_from_match(match))
    assert [h["bonus"] for h in out["hands"]] == [r.bonus for r in results]
    assert [h["reason"] for h in out["hands"]].count("tie") >= 1
    assert out["score"] == list(match.score)


def test_table_rules_record_ends_with_a_revoke() -> None:
    # R10.2: hand 2 of match-0000, with a card that breaks R7.2 at action 13.
    hand = raw("match-0000")["hands"][2]
    obj = {"format": FORMAT, "rules": {"preset": "classic", "enforce_follow": False},
           "dealer": 1, "deck": hand["deck"], "actions": [*hand["actions"][:13], "QD"]}
    result = replay_json(obj)
    assert result["reason"] == "revoke"
    assert result["winner"] == 0
    obj["actions"].append("KC")
    assert error_of(obj).index == 14


# -- Invalid records: illegal actions ------------------------------------------------------


def test_illegal_action_names_hand_index_token_and_alternatives() -> None:
    obj = raw("0000")
    obj["actions"][0] = "KH"
    err = error_of(obj)
    assert str(err) == ('hand 1, action 0 ("KH"): illegal action KH: player 1 does not hold KH; '
                        "legal: TC JD QD AD KS AS C")
    assert (err.hand, err.index) == (0, 0)


def test_illegal_action_in_a_match_names_the_hand() -> None:
    obj = raw("match-0000")
    obj["hands"][2]["actions"][7] = "KH"
    err = error_of(obj)
    assert str(err) == ('hand 3, action 7 ("KH"): illegal action KH: player 1 does not hold KH; '
                        "legal: KC TC QD TH QS KS")
    assert (err.hand, err.index) == (2, 7)


def test_phase_two_revoke_is_illegal_under_strict_rules() -> None:
    obj = raw("match-0000")
    obj["hands"][2]["actions"][13] = "QD"
    err = error_of(obj)
    assert str(err).startswith('hand 3, action 13 ("QD"): illegal action QD: ')
    assert "R7.2" in str(err) and str(err).endswith("legal: KC TC")


def test_action_after_the_hand_is_over() -> None:
    obj = raw("0000")
    obj["actions"].append("66")
    err = error_of(obj)
    assert str(err).startswith('hand 1, action 30 ("66"): illegal action 66: the hand is over')
    assert (err.hand, err.index) == (0, 30)


def test_action_after_a_declaration_in_a_match() -> None:
    obj = raw("match-0001")
    obj["hands"][1]["actions"].append("AS")
    err = error_of(obj)
    assert str(err).startswith('hand 2, action 7 ("AS"): illegal action AS: the hand is over')


def test_hand_after_the_match_is_over() -> None:
    obj = raw("match-0001")
    obj["hands"].append(copy.deepcopy(obj["hands"][0]))
    del obj["hands"][-1]["dealer"]
    err = error_of(obj)
    assert str(err) == "hand 4: the match was over after hand 3 (player 0 won 8-0)"
    assert err.hand == 3


def test_hand_after_an_unfinished_hand() -> None:
    obj = raw("match-0000")
    obj["hands"][0]["actions"] = obj["hands"][0]["actions"][:-1]
    err = error_of(obj)
    assert str(err) == "hand 2: hand 1 is not finished, so no hand can follow it"
    assert err.hand == 1


def test_dealer_that_does_not_follow_from_the_rules() -> None:
    obj = raw("match-0000")
    obj["hands"][3]["dealer"] = 1  # R2.5: the deal alternates, seat 0 deals hand 3
    err = error_of(obj)
    assert str(err).startswith("hand 4: dealer 1 is given, but by the rules")
    assert "seat 0 deals this hand" in str(err)


def test_dealer_under_winner_deals_rules() -> None:
    # pagat: the winner of a hand deals the next one.
    match = play_match(bots(11), seed=11, rules=Rules.preset("pagat"))
    obj = record_from_match(match).to_json()
    validate(obj)
    winner = match.results()[0].winner
    assert obj["hands"][1]["dealer"] == (winner if winner is not None else obj["hands"][0]["dealer"])
    obj["hands"][1]["dealer"] = 1 - obj["hands"][1]["dealer"]
    assert "next_dealer = winner" in str(error_of(obj))


# -- Invalid records: structure ---------------------------------------------------------


def with_field(name: str, value: Any, example: str = "0000") -> dict[str, Any]:
    obj = raw(example)
    obj[name] = value
    return obj


def without_field(name: str, example: str = "0000") -> dict[str, Any]:
    obj = raw(example)
    del obj[name]
    return obj


DECK = raw("0000")["deck"]
CARDS_OF_DECK = DECK.split()

STRUCTURE_ERRORS: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2], "a record must be a JSON object, not [1, 2]"),
    ("no format", without_field("format"), "missing 'format' (expected 'sixtysix/1')"),
    ("other format", with_field("format", "sixtysix/2"),
     "unsupported format \"sixtysix/2\": expected 'sixtysix/1'"),
    ("format not a string", with_field("format", 1), "unsupported format 1"),
    ("no rules", without_field("rules"), "missing 'rules'"),
    ("unknown preset", with_field("rules", "skat"), "bad rules: unknown preset 'skat'"),
    ("unknown option", with_field("rules", {"preset": "classic", "trumps": 2}),
     "bad rules: unknown option 'trumps'"),
    ("bad word option", with_field("rules", {"next_dealer": "loser"}),
     "bad rules: option next_dealer = 'loser' is not allowed"),
    ("bad number option", with_field("rules", {"target": -1}),
     "bad rules: option target must be a non-negative integer, not -1"),
    ("bad boolean option", with_field("rules", {"auto_declare": "yes"}),
     "bad rules: option auto_declare must be true or false"),
    ("rules of a wrong type", with_field("rules", 7), "bad rules: rules must be a preset name or an object"),
    ("no dealer", without_field("dealer"), "a hand record needs 'dealer'"),
    ("dealer out of range", with_field("dealer", 2), "dealer must be seat 0 or 1, not 2"),
    ("dealer a string", with_field("dealer", "0"), 'dealer must be seat 0 or 1, not "0"'),
    ("dealer a boolean", with_field("dealer", True), "dealer must be seat 0 or 1, not true"),
    ("dealer a float", with_field("dealer", 1.0), "dealer must be seat 0 or 1, not 1.0"),
    ("no deck", without_field("deck"), "a hand record needs 'deck'"),
    ("deck a list", with_field("deck", CARDS_OF_DECK),
     "deck must be a string of 24 space-separated cards"),
    ("duplicate card", with_field("deck", " ".join([*CARDS_OF_DECK[:23], "QD"])),
     "invalid deck: QD appears twice"),
    ("23 cards", with_field("deck", " ".join(CARDS_OF_DECK[:23])),
     "invalid deck: 23 cards, expected 24 (missing AH)"),
    ("25 cards", with_field("deck", DECK + " AH"), "invalid deck: AH appears twice"),
    ("20-card deck", with_field("deck", " ".join(c for c in CARDS_OF_DECK if c[0] != "9")),
     "invalid deck: 20 cards, expected 24 (missing 9C 9D 9H 9S)"),
    ("not a card", with_field("deck", DECK.replace("AD", "ZD")), "invalid deck: not a card: 'ZD'"),
    ("no actions", without_field("actions"), "a hand record needs 'actions'"),
    ("actions a string", with_field("actions", "KS 9C"), "actions must be a list of tokens"),
    ("unknown token", with_field("actions", ["KS", "9C", "DRAW"]),
     'hand 1, action 2 ("DRAW"): not an action'),
    ("lower-case token", with_field("actions", ["KS", "9c"]),
     "hand 1, action 1 (\"9c\"): not in the canonical notation records use: write '9C'"),
    ("ten written 10", with_field("actions", ["KS", "9C", "D", "9S", "QS", "D", "AS", "9D", "D", "10C"]),
     "hand 1, action 9 (\"10C\"): not in the canonical notation records use: write 'TC'"),
    ("token not a string", with_field("actions", ["KS", 51]),
     "hand 1, action 1 (51): an action must be a string token"),
    ("players not two names", with_field("players", ["a", "b", "c"]), "players must be a list of two names"),
    ("event not a string", with_field("event", 3), "event must be a string, not 3"),
    ("seed a list", with_field("seed", [1]), "seed must be an integer or a string, not [1]"),
    ("comments not a list", with_field("comments", "nice"), "comments must be a list"),
    ("comment without text", with_field("comments", [{"at": 1}]), 'comment 0 must be an object {"at": INDEX'),
    ("comment past the end", with_field("comments", [{"at": 31, "text": "?"}]),
     "comment 0: at 31 is not an action index (0 to 30)"),
    ("match and hand at once", with_field("deck", DECK, "match-0000"),
     "a match record lists its hands in 'hands' and has no top-level deck"),
    ("no first dealer", without_field("first_dealer", "match-0000"), "a match record needs 'first_dealer'"),
    ("first dealer wrong", with_field("first_dealer", -1, "match-0000"), "first_dealer must be seat 0 or 1"),
    ("hands not a list", with_field("hands", {}, "match-0000"), "hands must be a list of hand objects"),
    ("hand not an object", with_field("hands", ["AH KD"], "match-0000"),
     'hand 1: a hand must be an object, not "AH KD"'),
]


@pytest.mark.parametrize(("obj", "message"), [(obj, msg) for _, obj, msg in STRUCTURE_ERRORS],
                         ids=[name for name, _, _ in STRUCTURE_ERRORS])
def test_structure_errors_have_clear_messages(obj: Any, message: str) -> None:
    assert str(error_of(obj)).startswith(message)


def test_errors_inside_a_match_hand_name_the_hand() -> None:
    obj = raw("match-0000")
    obj["hands"][4]["deck"] = obj["hands"][4]["deck"].replace("AS", "AD")
    err = error_of(obj)
    assert str(err) == "hand 5: invalid deck: AD appears twice" and err.hand == 4

    obj = raw("match-0000")
    obj["hands"][1]["actions"][3] = "kd+"
    err = error_of(obj)
    assert str(err).startswith('hand 2, action 3 ("kd+"): not in the canonical notation')
    assert (err.hand, err.index) == (1, 3)

    obj = raw("match-0000")
    obj["hands"][5]["rules"] = "pagat"
    assert str(error_of(obj)) == "hand 6: 'rules' belongs to the match, not to a hand"

    obj = raw("match-0000")
    del obj["hands"][2]["actions"]
    assert str(error_of(obj)) == "hand 3: a hand needs 'actions'"

    obj = raw("match-0000")
    obj["hands"][0]["dealer"] = "one"
    assert str(error_of(obj)) == 'hand 1: dealer must be seat 0 or 1, not "one"'


@pytest.mark.parametrize(("text", "message"), [
    ("", "not valid JSON: Expecting value"),
    ("{", "not valid JSON: Expecting property name"),
    ('{"format": NaN}', "not valid JSON: NaN is not a JSON number"),
    (b'{"format": "\xff"}', "not UTF-8 text"),
    ("[]", "a record must be a JSON object"),
])
def test_text_that_is_not_a_record(text: str | bytes, message: str) -> None:
    with pytest.raises(InvalidRecordError) as info:
        loads(text)
    assert str(info.value).startswith(message)


def test_decks_may_use_any_r1_4_spelling() -> None:
    obj = raw("0000")
    obj["deck"] = obj["deck"].replace("TC", "10c").replace("KS", "K♠")
    record = from_json(obj)
    assert json.loads(dumps(record))["deck"] == raw("0000")["deck"]
    assert json.dumps(replay_json(record)) == expected("0000")


def test_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        load(tmp_path / "nothing.json")


def test_records_built_in_python_are_checked_when_replayed() -> None:
    deck = load(EXAMPLES / "0000.json").deck
    assert replay_json(HandRecord(deck=deck))["to_act"] == 1
    with pytest.raises(InvalidRecordError, match="23 cards, expected 24"):
        replay(HandRecord(deck=deck[:23]))
    with pytest.raises(InvalidRecordError, match="dealer must be seat 0 or 1"):
        replay(HandRecord(deck=deck, dealer=3))
    match = MatchRecord(first_dealer=1)
    assert replay_json(match) == {"winner": None, "score": [0, 0], "hands": []}
