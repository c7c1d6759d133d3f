"""Text for people, under the names it had before it was split (import from :mod:`sixtysix.text`).

The functions and classes live in :mod:`sixtysix.text`, one module a concern:
:mod:`~sixtysix.text.words` (names of things, :class:`Seats`),
:mod:`~sixtysix.text.style` (:class:`Style`, :class:`AnsiStyle`),
:mod:`~sixtysix.text.screen` (:func:`render_screen`, :func:`render_choices`, ...),
:mod:`~sixtysix.text.narration` (:func:`describe_action`, :func:`describe_result`, ...)
and :mod:`~sixtysix.text.prompt` (:func:`parse_choice`, :func:`why_illegal`, :data:`HELP`).
This module only gives them their old address: ``from sixtysix.console import X``
keeps working.

>>> from sixtysix import Hand
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> print(render_hand(hand.view(1), Style()))
TC* | AD QD JD | AS KS
>>> parse_choice("2", hand.view(1))
Action.parse('AD')
"""

from __future__ import annotations

from sixtysix.text.narration import (
    describe_action,
    describe_cuts,
    describe_deal,
    describe_match,
    describe_match_end,
    describe_result,
)
from sixtysix.text.prompt import HELP, parse_choice, why_illegal
from sixtysix.text.screen import (
    MatchInfo,
    action_meaning,
    describe_score,
    ordered_legal,
    render_choices,
    render_hand,
    render_hint,
    render_screen,
    sorted_cards,
)
from sixtysix.text.style import AnsiStyle, Style
from sixtysix.text.words import (
    LEVEL_NAMES,
    RANK_NAMES,
    RANK_ORDER,
    SUIT_NAMES,
    Seats,
    card_text,
    level_name,
    rank_word,
    suit_name,
    tricks_text,
)

__all__ = [
    "HELP",
    "render_hint",
    "AnsiStyle",
    "MatchInfo",
    "Seats",
    "Style",
    "action_meaning",
    "card_text",
    "describe_action",
    "describe_cuts",
    "describe_deal",
    "describe_match",
    "level_name",
    "describe_match_end",
    "describe_result",
    "describe_score",
    "ordered_legal",
    "parse_choice",
    "rank_word",
    "render_choices",
    "render_hand",
    "render_screen",
    "sorted_cards",
    "suit_name",
    "tricks_text",
    "why_illegal",
    # Constants that were public there without being listed.
    "LEVEL_NAMES",
    "RANK_NAMES",
    "RANK_ORDER",
    "SUIT_NAMES",
]
