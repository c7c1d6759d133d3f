"""R12: the rule options, their values and the presets."""

from __future__ import annotations

from typing import Any

import pytest

from sixtysix import ParseError, Rules
from sixtysix.rules import (
    WORD_OPTIONS,
    CloseScoring,
    FailedClose,
    FalseDeclaration,
    FirstDealer,
    MarriageCounts,
    MarriageLead,
    NextDealer,
    PlayedOut,
)

CLASSIC_VALUES: dict[str, Any] = {
    "first_dealer": "cut",
    "next_dealer": "alternate",
    "marriage_first_lead": True,
    "marriages_in_phase2": False,
    "exchange_min_stock": 2,
    "close_first_lead": True,
    "close_min_stock": 2,
    "close_before_draw": True,
    "failed_close": "two_or_three",
    "false_declaration": "two_or_three",
    "tie_bonus": 1,
    "target": 7,
    "auto_declare": False,
    "enforce_follow": True,
    "last_trick_bonus": 10,
    # Options of the 20-card variant (docs/schnapsen.md S12).
    "exchange_first_lead": False,
    "closing": True,
    "deck": 24,
    "played_out": "points",
    "close_scoring": "end",
    # Options of the course platform's rules (docs/schnapsen.md, the preset course).
    "marriage_counts": "trick_won",
    "marriage_lead": "either",
}
ALTERNATIVES: dict[str, Any] = {
    "first_dealer": "random",
    "next_dealer": "winner",
    "marriage_first_lead": False,
    "marriages_in_phase2": True,
    "exchange_min_stock": 4,
    "close_first_lead": False,
    "close_min_stock": 4,
    "close_before_draw": False,
    "failed_close": "three",
    "false_declaration": "two",
    "tie_bonus": 0,
    "target": 11,
    "auto_declare": True,
    "enforce_follow": False,
    "last_trick_bonus": 0,
    "exchange_first_lead": True,
    "closing": False,
    "deck": 20,
    "played_out": "last_trick",
    "close_scoring": "at_close",
    "marriage_counts": "next_trick",
    "marriage_lead": "king",
}
PRESET_CHANGES: dict[str, dict[str, Any]] = {
    "classic": {},
    "pagat": {"first_dealer": "random", "next_dealer": "winner", "false_declaration": "two", "tie_bonus": 0},
    "santase": {
        "next_dealer": "winner", "marriage_first_lead": False, "marriages_in_phase2": True,
        "exchange_min_stock": 4, "close_first_lead": False, "close_min_stock": 4,
        "failed_close": "three", "tie_bonus": 0, "target": 11, "auto_declare": True,
    },
    "schnapsen": {
        "deck": 20, "first_dealer": "random", "marriages_in_phase2": True, "close_before_draw": False,
        "exchange_first_lead": True, "tie_bonus": 0, "last_trick_bonus": 0, "played_out": "last_trick",
        "close_scoring": "at_close",
    },
    "course": {
        "deck": 20, "first_dealer": "random", "marriages_in_phase2": True, "close_before_draw": False,
        "exchange_first_lead": True, "closing": False, "auto_declare": True, "tie_bonus": 0, "target": 1,
        "last_trick_bonus": 0, "played_out": "last_trick", "marriage_counts": "next_trick",
        "marriage_lead": "king",
    },
}


def values(rules: Rules) -> dict[str, Any]:
    return {name: getattr(rules, name) for name in Rules.options()}


def test_R12_every_option_is_named() -> None:
    assert set(Rules.options()) == set(CLASSIC_VALUES)


def test_R12_classic_defaults() -> None:
    assert values(Rules()) == CLASSIC_VALUES
    assert values(Rules.preset("classic")) == CLASSIC_VALUES


@pytest.mark.parametrize("name", sorted(PRESET_CHANGES))
def test_R12_presets_have_the_listed_values(name: str) -> None:
    assert values(Rules.preset(name)) == {**CLASSIC_VALUES, **PRESET_CHANGES[name]}


@pytest.mark.parametrize("name", sorted(ALTERNATIVES))
def test_R12_every_option_is_settable(name: str) -> None:
    value = ALTERNATIVES[name]
    rules = Rules.preset("classic").replace(**{name: value})
    assert getattr(rules, name) == value
    assert values(rules) == {**CLASSIC_VALUES, name: value}
    # The record form names the option and reads back to the same rules.
    form = rules.to_json()
    assert form == {"preset": "classic", name: value}
    assert Rules.from_json(form) == rules
    # The command-line form too.
    text = str(value).lower() if isinstance(value, bool) else str(value)
    assert Rules.parse(f"classic,{name}={text}") == rules


@pytest.mark.parametrize("name", ["exchange_min_stock", "close_min_stock", "tie_bonus", "target",
                                  "last_trick_bonus"])
@pytest.mark.parametrize("value", [0, 3, 12, 100])
def test_R12_numeric_options_take_any_non_negative_integer(name: str, value: int) -> None:
    if name == "target" and value == 0:
        value = 1  # a match to 0 points is over before it starts (test_R9_3_...)
    assert getattr(Rules.preset("classic").replace(**{name: value}), name) == value


@pytest.mark.parametrize("name", ["exchange_min_stock", "close_min_stock", "tie_bonus", "target",
                                  "last_trick_bonus"])
@pytest.mark.parametrize("value", [-1, "2", 2.5, True, None])
def test_R12_numeric_options_refuse_other_values(name: str, value: Any) -> None:
    with pytest.raises(ParseError):
        Rules.preset("classic").replace(**{name: value})


@pytest.mark.parametrize(("name", "word"), [
    ("first_dealer", "winner"), ("first_dealer", "Cut"), ("next_dealer", "loser"), ("next_dealer", "random"),
    ("failed_close", "two"), ("failed_close", "2"), ("false_declaration", "three"), ("false_declaration", ""),
])
def test_R12_bad_word_is_an_error(name: str, word: str) -> None:
    allowed = ", ".join(WORD_OPTIONS[name])
    message = f"option {name} = {word!r} is not allowed: expected one of {allowed}"
    with pytest.raises(ParseError) as caught:
        Rules.preset("classic").replace(**{name: word})
    assert str(caught.value) == message
    with pytest.raises(ParseError):
        Rules.from_json({"preset": "classic", name: word})
    with pytest.raises(ParseError):
        Rules.parse(f"classic,{name}={word}")


ENUMS = {
    "first_dealer": FirstDealer, "next_dealer": NextDealer, "failed_close": FailedClose,
    "false_declaration": FalseDeclaration, "played_out": PlayedOut, "close_scoring": CloseScoring,
    "marriage_counts": MarriageCounts, "marriage_lead": MarriageLead,
}


def test_R12_word_options_are_enums_that_are_their_words() -> None:
    assert WORD_OPTIONS == {
        "first_dealer": ("cut", "random"),
        "next_dealer": ("alternate", "winner"),
        "failed_close": ("two_or_three", "three"),
        "false_declaration": ("two_or_three", "two"),
        "played_out": ("points", "last_trick"),
        "close_scoring": ("end", "at_close"),
        "marriage_counts": ("trick_won", "next_trick"),
        "marriage_lead": ("either", "king"),
    }
    assert all(type(word) is str for words in WORD_OPTIONS.values() for word in words)
    for name, kind in ENUMS.items():
        assert tuple(kind) == WORD_OPTIONS[name]
        assert type(getattr(Rules(), name)) is kind


@pytest.mark.parametrize("name", sorted(ENUMS))
def test_R12_a_word_given_as_a_string_is_read_as_its_member(name: str) -> None:
    word = ALTERNATIVES[name]
    member = ENUMS[name](word)
    from_text = Rules.parse(f"classic,{name}={word}")
    for rules in (Rules().replace(**{name: word}), Rules.from_json({name: word}), from_text,
                  Rules(**{name: word})):
        assert getattr(rules, name) is member
        assert rules == Rules().replace(**{name: member})
        assert hash(rules) == hash(Rules().replace(**{name: member}))
    # Written as the plain word, as before.
    assert from_text.to_json() == {"preset": "classic", name: word}
    assert type(from_text.to_json()[name]) is str  # type: ignore[index]
    assert str(from_text) == f"classic,{name}={word}"


@pytest.mark.parametrize("name", ["marriage_first_lead", "marriages_in_phase2", "close_first_lead",
                                  "close_before_draw", "auto_declare", "enforce_follow"])
@pytest.mark.parametrize("value", [1, 0, "true", None])
def test_R12_flags_must_be_booleans(name: str, value: Any) -> None:
    with pytest.raises(ParseError):
        Rules.preset("classic").replace(**{name: value})


@pytest.mark.parametrize("name", ["targets", "schnapsen", "base_preset", "preset", "trump"])
def test_R12_unknown_option_is_an_error(name: str) -> None:
    with pytest.raises(ParseError):
        Rules.preset("classic").replace(**{name: 1})
    with pytest.raises(ParseError):
        Rules.parse(f"classic,{name}=1")
    if name != "preset":
        with pytest.raises(ParseError):
            Rules.from_json({"preset": "classic", name: 1})


@pytest.mark.parametrize("name", ["german", "", "schnapsen2", "classic2"])
def test_R12_unknown_preset_is_an_error(name: str) -> None:
    with pytest.raises(ParseError):
        Rules.preset(name)
    with pytest.raises(ParseError):
        Rules.from_json(name)


def test_R12_presets_round_trip_by_name() -> None:
    for name in PRESET_CHANGES:
        rules = Rules.preset(name)
        assert rules.to_json() == name
        assert Rules.from_json(name) == rules
        assert Rules.parse(name) == rules


def test_R12_options_on_top_of_another_preset() -> None:
    rules = Rules.from_json({"preset": "santase", "target": 7})
    assert values(rules) == {**CLASSIC_VALUES, **PRESET_CHANGES["santase"], "target": 7}
    assert Rules.parse("santase,target=7") == rules


def test_R12_rules_are_immutable() -> None:
    rules = Rules.preset("classic")
    with pytest.raises(AttributeError):
        rules.target = 11  # type: ignore[misc]
    assert Rules.preset("classic").target == 7
