"""OpenSpiel: one hand of Sixty-six as the Python game ``python_sixty_six`` (the ``openspiel`` extra).

``pip install -e '.[openspiel]'``. Importing this module registers the
game with ``pyspiel.register_game``; the core library never imports pyspiel::

    import pyspiel
    import sixtysix.envs.openspiel  # registers python_sixty_six

    game = pyspiel.load_game("python_sixty_six", {"rules": "santase", "dealer": 1})

The game is a single hand. Chance deals the pack one card at a time, top of
the pack first (R2.4): 24 chance nodes whose outcomes are the codes (0-23) of
the cards not dealt yet, each equally likely. Under rules with the 20-card
pack (the ``schnapsen`` preset, S1.1) there are 20 chance nodes, whose
outcomes are the codes of the 20 cards without the nines, dealt as S2.1 says.
The hand then starts from
:meth:`Hand.deal <sixtysix.game.hand.Hand.deal>`, and every player action is one of
the 56 action codes of :mod:`sixtysix.game.actions`, played with
:meth:`Hand.push <sixtysix.game.hand.Hand.push>`: the rules are the engine's, never
re-implemented here. The returns are game points (R9): the winner of the hand
gets the game points it scored and the loser as many negative; a tie, 0.

Parameters: ``rules``, a preset with options as :meth:`Rules.parse
<sixtysix.rules.Rules.parse>` reads them (``"classic"``, ``"pagat"``,
``"santase"``, ``"schnapsen"``, ``"classic,target=11"``; since OpenSpiel's game strings reserve
``,`` and ``=``, ``"classic;target:11"`` is read too, and is how the game
writes itself: ``python_sixty_six(dealer=0,rules=classic;target:11)``), and
``dealer``, the seat that deals (0 or 1).

Observations are built from :meth:`Hand.view <sixtysix.game.hand.Hand.view>` of the
observing seat and from the cards that seat was dealt and drew (which it saw),
never from the other seat's cards or the order of the stock (docs/design.md §6):

* the **observation** tensor is :func:`sixtysix.envs.observation.encode` of the
  view, block by block (the same vector the Gymnasium and PettingZoo
  environments give);
* the **information-state** tensor adds perfect recall: the six (or five) cards
  the seat was dealt, the card it got at each draw, and every action of the hand
  so far with who took it (:data:`INFO_STATE_LAYOUT`; :func:`info_state_layout`
  for the 20-card pack, which has fewer draws and actions).

Both strings say the same in words: one fact a line, cards in canonical notation
(``KH``), the seats ``me`` and ``opp``, in English whatever the player's language.
OpenSpiel's algorithms key information sets by them, and an observer chooses their
public and private lines, so they are not the people's text of :mod:`sixtysix.present.text`
(translated, styled, with no such parts). :meth:`SixtySixState.resample_from_infostate`
deals the hidden cards anew, uniformly among the deals that agree with what the
seat has seen (:mod:`sixtysix.game.worlds`), so OpenSpiel's information-set Monte
Carlo tree search can play the game::

    from open_spiel.python.algorithms import ismcts, mcts
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1), uct_c=2.0, max_simulations=100)

For example, a pack dealt in card-code order (clubs nine first):

>>> game = pyspiel.load_game("python_sixty_six", {"rules": "santase"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 24)
>>> for code in range(24):
...     state.apply_action(code)
>>> state.current_player(), [state.action_to_string(1, a) for a in state.legal_actions()]
(1, ['9C', 'JC', 'QC', '9D', 'JD', 'QD'])
>>> print(state.observation_string(1))
seat 1, dealer 0, rules santase
hand: 9C JC QC 9D JD QD
trump H, face up 9H, stock 12
state lead, to act me
scores 0-0, card points 0-0, tricks 0-0

The 20-card pack deals three cards each, turns up the seventh, then deals two
each (S2.1):

>>> game = pyspiel.load_game("python_sixty_six", {"rules": "schnapsen"})
>>> state = game.new_initial_state()
>>> [state.action_to_string(-1, code) for code, _ in state.chance_outcomes()][:6]
['deal JC', 'deal QC', 'deal KC', 'deal TC', 'deal AC', 'deal JD']
>>> for code, _ in state.chance_outcomes():
...     state.apply_action(code)  # the pack in code order
>>> print(state.observation_string(1))
seat 1, dealer 0, rules schnapsen
hand: JC QC KC KD TD
trump D, face up QD, stock 10
state lead, to act me
scores 0-0, card points 0-0, tricks 0-0

See ``docs/rl.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from sixtysix.envs.observation import LAYOUT, OBSERVATION_SIZE, encode
from sixtysix.game.actions import ACTIONS, EXCHANGE, NUM_CODES
from sixtysix.game.cards import CARDS, Card, Rank, iter_mask
from sixtysix.game.hand import Hand
from sixtysix.game.views import View
from sixtysix.game.worlds import DEALS, Constraints, Deal, fill_pack, shown_cards
from sixtysix.rules import CLASSIC, Rules

__all__ = [
    "GAME_INFO",
    "GAME_NAME",
    "GAME_TYPE",
    "INFO_STATE_LAYOUT",
    "MAX_DRAWS",
    "MAX_GAME_LENGTH",
    "SixtySixGame",
    "SixtySixObserver",
    "SixtySixState",
    "game_info",
    "info_state_layout",
    "max_game_length",
]

#: The name to give ``pyspiel.load_game``.
GAME_NAME = "python_sixty_six"

#: The most player actions a hand can take: 24 cards played, 6 draws (R3.4),
#: one close (R6), one exchange (R4: there is one trump nine) and one
#: declaration, which ends the hand (R8). For the 20-card pack, 20 + 5 + 3
#: (:func:`max_game_length`).
MAX_GAME_LENGTH = 24 + 6 + 1 + 1 + 1
#: Draws in a hand: two cards each while the 12 cards of the stock last (R3.4); 5 for the
#: 20-card pack (S2.2).
MAX_DRAWS = 6
#: Card codes, the chance outcomes: the 24 of :data:`~sixtysix.game.cards.CARDS`. The 20-card
#: pack (S1.1) keeps the same codes, so its 20 chance nodes draw from codes without the nines.
DECK_SIZE = len(CARDS)
#: Position of the turned-up trump in the 24-card pack (R2.3): the last card of the stock.
TRUMP_POSITION = DEALS[24].trump
#: Positions of the 24-card pack dealt to the non-dealer and to the dealer (R2.4).
NON_DEALER_POSITIONS = DEALS[24].dealt(1, dealer=0)
DEALER_POSITIONS = DEALS[24].dealt(0, dealer=0)

#: The codes of the bits of a 12-bit mask, for the low and the high half of the 24 cards.
_LOW_CODES = tuple(tuple(i for i in range(12) if m >> i & 1) for m in range(4096))
_HIGH_CODES = tuple(tuple(i + 12 for i in range(12) if m >> i & 1) for m in range(4096))


def max_game_length(rules: Rules) -> int:
    """The most player actions a hand under ``rules`` can take: every card played, a draw
    after each trick while the stock lasts, a close, an exchange and a declaration
    (:data:`MAX_GAME_LENGTH` for 24 cards; 28 for 20, S2.2)."""
    return rules.deck + rules.tricks_to_exhaust + 3


def info_state_layout(rules: Rules) -> tuple[tuple[str, tuple[int, ...], str], ...]:
    """:data:`INFO_STATE_LAYOUT` for ``rules``: as many draws and actions as its pack allows.
    Cards stay indexed by their 24 codes (the nines are never set in the 20-card pack), like
    the observation."""
    n = rules.hand_size  # 6 (R2.3) or 5 (S2.1)
    return (
        ("my_deal", (DECK_SIZE,), f"the {'six' if n == 6 else 'five'} cards I was dealt (private)"),
        ("my_draws", (rules.tricks_to_exhaust, DECK_SIZE), "the card I got at each draw, in order (private)"),
        ("history", (max_game_length(rules), NUM_CODES + 2),
         "every action of the hand in order: its code one-hot, then 1 if I took it, then 1 if "
         "the opponent did"),
    )


#: Blocks of the observation that hold the observing seat's private cards
#: (its hand, and the unseen cards, which depend on it); the others are public.
PRIVATE_BLOCKS = frozenset({"my_hand", "unseen"})

#: What the information-state tensor adds to the observation blocks (:data:`LAYOUT
#: <sixtysix.envs.observation.LAYOUT>`), in order: name, shape, meaning; for the 24-card
#: pack (:func:`info_state_layout` for any rules).
INFO_STATE_LAYOUT: tuple[tuple[str, tuple[int, ...], str], ...] = info_state_layout(CLASSIC)

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Sixty-six (one hand)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "classic", "dealer": 0},
)


def game_info(rules: Rules) -> pyspiel.GameInfo:
    """The game's sizes under ``rules``. Chance outcomes and actions are codes of the whole
    24-card space whatever the pack (a 20-card deal never draws a nine's code)."""
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_CODES,
        max_chance_outcomes=DECK_SIZE,
        num_players=2,
        min_utility=-3.0,
        max_utility=3.0,
        utility_sum=0.0,
        max_game_length=max_game_length(rules),
    )


#: The sizes of the game under the 24-card rules.
GAME_INFO = game_info(CLASSIC)


class _Table:
    """The cards dealt so far and, once all are, the :class:`Hand`; the state's one attribute.

    It also remembers each draw (which action made it, who drew first) so that a
    seat's own draws can be told to it and the deal resampled. Copying uses
    :meth:`Hand.copy`; pickling replays the actions.
    """

    __slots__ = ("dealer", "dealt", "deck", "draws", "hand", "pack", "rules")

    def __init__(self, rules: Rules, dealer: int) -> None:
        self.rules = rules
        #: Where the pack's cards go (:class:`~sixtysix.game.worlds.Deal`): for 24 cards the stock is
        #: drawn from position 13 on, the turned-up trump (12) last (R2.3, R3.4); for 20, from
        #: position 11 on, the trump (6) last (S2.1, S2.2).
        self.pack: Deal = Deal.of(rules)
        self.dealer = dealer
        self.deck: list[int] = []
        #: The cards dealt so far, as a mask.
        self.dealt = 0
        self.hand: Hand | None = None
        #: ``(index of the action that drew, the seat that drew first, stock cards drawn before)``.
        self.draws: list[tuple[int, int, int]] = []

    # Playing --------------------------------------------------------------------------------
    def deal(self, code: int) -> None:
        if self.hand is not None or not 0 <= code < DECK_SIZE or not self.pack.mask >> code & 1 \
                or self.dealt >> code & 1:
            raise ValueError(f"cannot deal card code {code} from the {self.pack.size}-card pack: "
                             f"dealt so far {self.deck}")
        self.deck.append(code)
        self.dealt |= 1 << code
        if len(self.deck) == self.pack.size:
            # Each card of the pack once: checked card by card above.
            self.hand = Hand._trusted(self.deck, self.dealer, self.rules)

    def push(self, code: int) -> None:
        hand = self.hand
        assert hand is not None
        action = ACTIONS[code] if 0 <= code < NUM_CODES else None
        if action is None:
            raise ValueError(f"no action has code {code}")
        before = hand.stock_size
        index = hand.kernel.depth()  # a dealt hand's actions are all the kernel's
        hand.push(action)
        if hand.stock_size < before:
            drawn = self.rules.stock_cards - before
            first_card = hand.deck[self.pack.stock[drawn]]
            first = 0 if first_card in hand.cards(0) else 1
            self.draws.append((index, first, drawn))

    # What a seat saw of the deal --------------------------------------------------------------
    def dealt_to(self, seat: int) -> list[Card]:
        """The cards dealt to ``seat`` so far."""
        return [CARDS[self.deck[i]] for i in self.pack.dealt(seat, self.dealer) if i < len(self.deck)]

    def drawn_by(self, seat: int) -> list[tuple[int, Card]]:
        """``(action index, card)`` for each card ``seat`` drew (the turned-up trump, or the
        nine or jack exchanged for it, for the last draw of the stock)."""
        hand = self.hand
        assert hand is not None
        out: list[tuple[int, Card]] = []
        for index, first, drawn in self.draws:
            k = drawn if seat == first else drawn + 1
            position = self.pack.stock[k]
            if position == self.pack.trump:
                out.append((index, _face_up_after(hand, index)))
            else:
                out.append((index, CARDS[self.deck[position]]))
        return out

    def slots(self, seat: int) -> list[tuple[int, int]]:
        """``(position in the pack, index of the action it came with, -1 for the deal)`` of
        every card ``seat`` received."""
        out = [(p, -1) for p in self.pack.dealt(seat, self.dealer)]
        for index, first, drawn in self.draws:
            out.append((self.pack.stock[drawn if seat == first else drawn + 1], index))
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        other = _Table(self.rules, self.dealer)
        other.deck = self.deck[:]
        other.dealt = self.dealt
        other.draws = self.draws[:]
        other.hand = self.hand.copy() if self.hand is not None else None
        return other

    def __reduce__(self) -> tuple[Callable[..., _Table], tuple[Any, ...]]:
        codes = [a.code for a in self.hand.actions] if self.hand is not None else []
        return (_Table.replay, (self.rules, self.dealer, self.deck[:], codes))

    @staticmethod
    def replay(rules: Rules, dealer: int, deck: Iterable[int], codes: Iterable[int]) -> _Table:
        table = _Table(rules, dealer)
        for code in deck:
            table.deal(code)
        for code in codes:
            table.push(code)
        return table


def _face_up_after(hand: Hand, index: int) -> Card:
    """The last card of the stock after action ``index``: the turned-up trump, or the trump
    nine (R4.1) or jack (S4.1) if somebody exchanged it by then."""
    if any(action.code == EXCHANGE for action in hand.actions[:index + 1]):
        return Card(hand.trump, Rank(hand.rules.exchange_rank))
    return hand.dealt_trump_card


def _game_string_rules(rules: Rules) -> str:
    """``rules`` as the ``rules`` parameter of a game string: OpenSpiel reserves ``,`` and
    ``=`` there, so options are written ``classic;target:11`` (both forms are read)."""
    return str(rules).replace(",", ";").replace("=", ":")


class SixtySixGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of Sixty-six for OpenSpiel (``rules`` and ``dealer`` parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        unknown = set(given) - set(GAME_TYPE.parameter_specification)
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(sorted(unknown))}: "
                             "python_sixty_six takes rules and dealer")
        text = given.get("rules", "classic")
        dealer = given.get("dealer", 0)
        if not isinstance(text, str):
            raise ValueError(f"rules must be text such as 'classic,target=11', not {text!r}")
        if isinstance(dealer, bool) or dealer not in (0, 1):
            raise ValueError(f"dealer must be seat 0 or 1, not {dealer!r}")
        self.rules = Rules.parse(text.replace(";", ",").replace(":", "="))
        self.dealer = int(dealer)
        super().__init__(GAME_TYPE, game_info(self.rules),
                         {"rules": _game_string_rules(self.rules), "dealer": self.dealer})

    def new_initial_state(self) -> SixtySixState:
        """The state before the deal."""
        return SixtySixState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.rules.deck

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SixtySixObserver:
        """The observer for ``iig_obs_type`` (default: what a seat sees now)."""
        return SixtySixObserver(
            iig_obs_type if iig_obs_type is not None else pyspiel.IIGObservationType(perfect_recall=False),
            params, self.rules)


class SixtySixState(pyspiel.State):  # type: ignore[misc]
    """A hand in play: the deal so far, then a :class:`~sixtysix.game.hand.Hand`."""

    def __init__(self, game: SixtySixGame) -> None:
        super().__init__(game)
        self.table = _Table(game.rules, game.dealer)

    @property
    def hand(self) -> Hand | None:
        """The hand once dealt (full information: not for players)."""
        return self.table.hand

    def view(self, seat: int) -> View:
        """What ``seat`` may know, once the hand is dealt."""
        hand = self.table.hand
        if hand is None:
            raise ValueError("the hand is still being dealt")
        return hand.view(seat)

    # The OpenSpiel API -------------------------------------------------------------------------
    def current_player(self) -> int:
        hand = self.table.hand
        if hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        to_act = hand.to_act
        return int(pyspiel.PlayerId.TERMINAL) if to_act is None else to_act

    def _legal_actions(self, player: int) -> list[int]:
        hand = self.table.hand
        if hand is None or hand.to_act != player:
            return []
        return list(iter_mask(hand.legal_mask()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self.table.pack.mask & ~self.table.dealt
        p = 1.0 / left.bit_count()
        return [(code, p) for code in (*_LOW_CODES[left & 0xFFF], *_HIGH_CODES[left >> 12])]

    def _apply_action(self, action: int) -> None:
        if self.table.hand is None:
            self.table.deal(int(action))
        else:
            self.table.push(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action]}"
        found = ACTIONS[action] if 0 <= action < NUM_CODES else None
        return str(found) if found is not None else f"no action {action}"

    def is_terminal(self) -> bool:
        hand = self.table.hand
        return hand is not None and hand.is_over()

    def returns(self) -> list[float]:
        hand = self.table.hand
        result = hand.result() if hand is not None else None
        if result is None or result.winner is None:
            return [0.0, 0.0]
        points = float(result.game_points)
        return [points, -points] if result.winner == 0 else [-points, points]

    def __str__(self) -> str:
        dealt = " ".join(str(CARDS[c]) for c in self.table.deck)
        hand = self.table.hand
        if hand is None:
            return f"dealing: {dealt}"
        return f"deck: {dealt}\nactions: {' '.join(str(a) for a in hand.actions)}\n{hand.describe()}"

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> SixtySixState:
        """A state that ``player_id`` cannot tell from this one: the same actions, with the
        cards hidden from it dealt anew, uniformly among the deals that agree with all it saw.

        ``probability_sampler`` returns floats in ``[0, 1)`` (OpenSpiel's samplers); it seeds
        the shuffle.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        table = self.table
        if table.hand is None:
            deck = _resample_deal(table, player_id, rng)
            codes: list[int] = []
        else:
            deck = _resample_hand(table, player_id, rng)
            codes = [a.code for a in table.hand.actions]
        state: SixtySixState = self.get_game().new_initial_state()
        for code in deck:
            state.apply_action(code)
        for code in codes:
            state.apply_action(code)
        return state


# Resampling ---------------------------------------------------------------------------------
#: How often a resampled deal is tried before giving up (each try is valid by construction;
#: the check after it guards against a deal the engine would refuse).
_TRIES = 50


def _resample_deal(table: _Table, seat: int, rng: random.Random) -> list[int]:
    """The cards dealt so far, with those ``seat`` has not seen dealt anew."""
    n = len(table.deck)
    pack = table.pack
    seen = {p for p in pack.dealt(seat, table.dealer) if p < n}
    if n > pack.trump:
        seen.add(pack.trump)
    fixed = {table.deck[p] for p in seen}
    pool = [c.index for c in pack.cards if c.index not in fixed]
    rng.shuffle(pool)
    return [table.deck[p] if p in seen else pool.pop() for p in range(n)]


def _resample_hand(table: _Table, seat: int, rng: random.Random) -> list[int]:
    """A whole pack that agrees with everything ``seat`` has seen of the hand.

    The opponent's hand now and the stock come from :class:`~sixtysix.game.worlds.Constraints`
    (uniform among the layouts the view allows); the opponent's cards then go to the places
    in the pack it received cards from, each card it used (played, exchanged, showed in a
    marriage) to a place it had received by then (:func:`sixtysix.game.worlds.fill_pack`, which
    chooses uniformly among the places still free, the earliest used card first, so every
    such assignment is equally likely); the number of assignments does not depend on the
    layout, so the whole pack is uniform among those that agree with the seat's information.
    """
    hand = table.hand
    assert hand is not None
    view = hand.view(seat)
    if view.state == "over":
        raise ValueError("the hand is over: there is nothing hidden left to resample")
    constraints = Constraints.from_view(view)
    opponent = 1 - seat
    actions = zip(hand.actions, hand.actors(), strict=True)
    shown = [(index, card) for index, (action, actor) in enumerate(actions) if actor == opponent
             for card in shown_cards(action, hand.trump, table.rules)]
    pack = table.pack
    own = [p for p, _ in table.slots(seat)]
    # A card received with action t is held from the action after it (t is -1 for the deal).
    theirs = [(t + 1, p) for p, t in table.slots(opponent) if p != pack.trump]
    drawn = table.rules.stock_cards - hand.stock_size
    in_stock = pack.stock[drawn:]
    codes = [a.code for a in hand.actions]
    for _ in range(_TRIES):
        layout = constraints.sample(rng)
        stock = list(layout.stock)
        if not view.stock_open and len(stock) > 1:
            rest = stock[:-1]  # the order of a closed or finished stock is not part of a layout
            rng.shuffle(rest)
            stock[:-1] = rest
        known = {p: CARDS[table.deck[p]] for p in (pack.trump, *own)}
        for p, card in zip(in_stock, stock, strict=True):
            if p != pack.trump:
                known[p] = card
        try:
            deck = fill_pack(pack, known, theirs, shown, rng)
        except ValueError:
            continue  # a card used before any place left could have given it: try again
        full = [card.index for card in deck]
        if _agrees(full, table, codes, seat, view):
            return full
    raise RuntimeError(f"no deal agreeing with seat {seat}'s information was found in {_TRIES} tries")


def _agrees(deck: list[int], table: _Table, codes: list[int], seat: int, view: View) -> bool:
    """Whether ``deck`` replays the actions legally to the same view for ``seat``."""
    other = _Table(table.rules, table.dealer)
    for code in deck:
        other.deal(code)
    hand = other.hand
    assert hand is not None
    for code in codes:
        action = ACTIONS[code]
        if action is None or not hand.is_legal(action):
            return False
        other.push(code)
    return hand.view(seat) == view and other.drawn_by(seat) == table.drawn_by(seat)


# Observations -------------------------------------------------------------------------------
_BLOCK_SHAPES: tuple[tuple[str, tuple[int, ...]], ...] = tuple((name, (n,)) for name, n, _ in LAYOUT)


class SixtySixObserver:
    """Tensors and strings of what one seat knows (OpenSpiel's Python observer interface).

    ``perfect_recall`` gives the information state (the observation blocks, then
    :data:`INFO_STATE_LAYOUT`), otherwise the observation now. ``public_info`` and
    ``private_info`` choose the public blocks and the seat's own cards.
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, rules: Rules = CLASSIC) -> None:
        if params:
            raise ValueError(f"python_sixty_six observers take no parameters, not {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_sixty_six observes for one seat: private_info ALL_PLAYERS "
                             "would show hidden cards")
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        pieces: list[tuple[str, tuple[int, ...]]] = [
            (name, shape) for name, shape in _BLOCK_SHAPES
            if (self.private if name in PRIVATE_BLOCKS else self.public)]
        if self.perfect_recall:
            for name, shape, _ in info_state_layout(rules):
                if (name == "history" and self.public) or (name != "history" and self.private):
                    pieces.append((name, shape))
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        start = 0
        for name, shape in pieces:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[start:start + n].reshape(shape)
            start += n
        self._pieces = pieces

    def set_from(self, state: SixtySixState, player: int) -> None:
        """Write what ``player`` knows of ``state`` into :attr:`tensor`."""
        self.tensor.fill(0)
        table = state.table
        hand = table.hand
        d = self.dict
        if hand is None:
            # Dealing: a seat has seen its own cards so far and, once turned up, the trump.
            for card in table.dealt_to(player):
                if "my_hand" in d:
                    d["my_hand"][card.index] = 1
                if "my_deal" in d:
                    d["my_deal"][card.index] = 1
            trump = table.pack.trump
            if "trump_suit" in d and len(table.deck) > trump:
                d["trump_suit"][int(CARDS[table.deck[trump]].suit)] = 1
            if "i_dealt" in d and table.dealer == player:
                d["i_dealt"][0] = 1
            return
        obs = encode(hand.view(player))
        start = 0
        for name, length, _ in LAYOUT:
            if name in d:
                d[name][:] = obs[start:start + length]
            start += length
        assert start == OBSERVATION_SIZE
        if "my_deal" in d:
            for card in table.dealt_to(player):
                d["my_deal"][card.index] = 1
        if "my_draws" in d:
            for k, (_, card) in enumerate(table.drawn_by(player)):
                d["my_draws"][k, card.index] = 1
        if "history" in d:
            history = d["history"]
            for i, (actor, action) in enumerate(zip(hand.actors(), hand.actions, strict=True)):
                history[i, action.code] = 1
                history[i, NUM_CODES + (0 if actor == player else 1)] = 1

    def string_from(self, state: SixtySixState, player: int) -> str:
        """What ``player`` knows of ``state``, in words."""
        table = state.table
        hand = table.hand
        lines = [f"seat {player}, dealer {table.dealer}, rules {table.rules}"]
        if hand is None:
            if self.private:
                lines.append(f"dealt to me so far: {_cards(table.dealt_to(player))}")
            trump = table.pack.trump
            if self.public and len(table.deck) > trump:
                lines.append(f"turned up: {CARDS[table.deck[trump]]}")
            return "\n".join(lines)
        view = hand.view(player)
        if self.perfect_recall:
            if self.private:
                lines.append(f"dealt to me: {_cards(table.dealt_to(player))}")
            draws = dict(table.drawn_by(player)) if self.private else {}
            if self.public:
                moves = []
                for i, (actor, action) in enumerate(view.history):
                    move = f"{'me' if actor == player else 'opp'}:{action}"
                    if i in draws:
                        move += f"({draws[i]})"
                    moves.append(move)
                lines.append("actions: " + " ".join(moves))
            elif draws:
                lines.append("I drew: " + _cards(draws.values()))
        lines.extend(_describe_view(view, public=self.public, private=self.private))
        return "\n".join(lines)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards) or "-"


def _sorted(cards: Iterable[Card]) -> str:
    return _cards(sorted(cards, key=lambda c: c.index))


def _describe_view(view: View, *, public: bool, private: bool) -> list[str]:
    """The lines of an observation string (what the view shows now)."""
    me, them = view.seat, view.opponent
    lines: list[str] = []
    if private:
        lines.append(f"hand: {_sorted(view.hand)}")
    if not public:
        return lines
    face_up = str(view.trump_card) if view.trump_card is not None else "none"
    closed = "" if view.closed_by is None else f", closed by {'me' if view.closed_by == me else 'opp'}"
    lines.append(f"trump {view.trump.letter}, face up {face_up}, stock {view.stock_size}{closed}")
    turn = "over" if view.to_act is None else ("me" if view.to_act == me else "opp")
    lines.append(f"state {view.state}, to act {turn}")
    if view.lead is not None:
        lines.append(f"table: {'me' if view.lead[0] == me else 'opp'} led {view.lead[1]}")
    last = view.last_trick
    if last is not None:
        lines.append(f"last trick: {last.lead} {last.follow}")
    lines.append(f"scores {view.scores[me]}-{view.scores[them]}, card points "
                 f"{view.card_points[me]}-{view.card_points[them]}, tricks "
                 f"{view.tricks_won[me]}-{view.tricks_won[them]}")
    if view.marriages:
        lines.append("marriages: " + " ".join(
            f"{'me' if m.seat == me else 'opp'}:{m.suit.letter}{m.value}" for m in view.marriages))
    if view.exchange is not None:
        lines.append(f"exchange: {'me' if view.exchange[0] == me else 'opp'} took {view.exchange[1]}")
    known = view.known_opponent_cards()
    if known:
        lines.append(f"opp holds: {_sorted(known)}")
    if view.result is not None:
        res = view.result
        who = "tie" if res.winner is None else ("I win" if res.winner == me else "opp wins")
        lines.append(f"result: {who} {res.game_points} ({res.reason})")
    return lines


pyspiel.register_game(GAME_TYPE, SixtySixGame)
