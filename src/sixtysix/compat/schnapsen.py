"""Our bots on the ``schnapsen`` course platform, and its bots in our arena.

The ``schnapsen`` package (installed by the ``schnapsen`` extra) is
the game engine of a university course: students write bots against its
``Bot`` interface, and its engine plays them. This module is the bridge:

* :class:`SixtySixBot` wraps any sixtysix bot as a ``schnapsen`` ``Bot``, so it
  plays inside their engine, under their rules;
* :func:`course_bot` builds their bots by name (``rand``, ``bully``, ``rdeep``,
  ``alphabeta``), and :func:`play_deal` plays one deal of their engine between
  any two of these and reports how it ended (what the arena's ``--platform
  schnapsen`` uses).

Their rules are not Austrian Schnapsen: there is no closing, a player with 66
wins at once, marriage points wait until the announcer next wins a trick
(even with tricks already won), a marriage always leads the King, and the
winner of the last trick wins a hand played to the end. The preset ``course``
(:data:`COURSE`) states exactly that, and the bridge plays our bots under it,
so their search reasons about the game being played.

How a bot's view is made: the platform hands a bot a *perspective* (its own
cards, the scores, the game so far). The bridge rebuilds the same game in our
engine: it deals a pack that agrees with everything the bot has seen (its own
cards and draws where they were, every card the opponent showed dealt to him
in time, the rest anywhere), replays the actions, and gives the bot
``hand.view(seat)``. A view holds the seat's cards and public facts only
(docs/design.md §6), so the cards guessed for the hidden places never show.

Seat 0 is the player who leads the first trick (bot 1 of ``play_game``), and
seat 1 is the dealer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sixtysix.bots import make_bot
from sixtysix.errors import BotError, Forfeit
from sixtysix.extras import install_command
from sixtysix.game.actions import ACTIONS, EXCHANGE, MARRIAGE, Action, action_of
from sixtysix.game.cards import Card, Rank, Suit
from sixtysix.game.hand import Hand
from sixtysix.game.player import Bot as SixtySixBotProtocol
from sixtysix.game.player import Event, Hooks
from sixtysix.game.table import Table
from sixtysix.game.views import View
from sixtysix.game.worlds import Deal, fill_pack, shown_cards
from sixtysix.rules import Rules

try:
    from schnapsen import game as _game
    from schnapsen.deck import Card as _TheirCard
    from schnapsen.deck import Rank as _TheirRank
    from schnapsen.deck import Suit as _TheirSuit
except ImportError as exc:  # pragma: no cover - checked by the import itself
    raise ImportError(
        "sixtysix.compat.schnapsen needs the schnapsen package: " + install_command("schnapsen")
    ) from exc

if TYPE_CHECKING:
    from schnapsen.game import Move, PlayerPerspective

__all__ = [
    "COURSE",
    "COURSE_BOTS",
    "BridgeChoiceError",
    "BridgeError",
    "DealResult",
    "SixtySixBot",
    "course_bot",
    "from_card",
    "is_course_spec",
    "make_player",
    "play_deal",
    "to_card",
    "to_move",
    "view_of",
]

#: The rules of the platform's engine (the preset ``course``).
COURSE = Rules.preset("course")

#: Deck positions of the 20-card deal (S2.1, :class:`~sixtysix.game.worlds.Deal`): the first
#: leader (seat 0, the non-dealer) gets these, the dealer (seat 1) the next, the trump
#: is turned at 6, and the stock is drawn from 11 on, a pair per trick, winner first.
_DEAL = Deal.of(COURSE)
_LEADER_CARDS = _DEAL.dealt(0, dealer=1)
_DEALER_CARDS = _DEAL.dealt(1, dealer=1)
_TRUMP = _DEAL.trump


class BridgeError(ValueError):
    """The platform's game could not be rebuilt in our engine (it broke a rule of the
    ``course`` preset, or the perspective contradicts itself), or a bot's action has no
    counterpart there. The message says which action and why."""


class BridgeChoiceError(BridgeError, BotError):
    """Our bot chose something that is not one of the legal actions: the game loop's
    :class:`~sixtysix.errors.BotError`, and a :class:`BridgeError` as it always was."""


def to_card(card: Any) -> Card:
    """Our card for one of the platform's (``schnapsen.deck.Card``).

    >>> from schnapsen.deck import Card as TheirCard
    >>> to_card(TheirCard.JACK_HEARTS)
    Card.parse('JH')
    """
    return Card(Suit[card.suit.name], Rank[card.rank.name])


def from_card(card: Card) -> Any:
    """The platform's card for one of ours (the inverse of :func:`to_card`).

    >>> from_card(Card.parse("TS")).name
    'TEN_SPADES'
    """
    return _TheirCard.get_card(_TheirRank[card.rank.name], _TheirSuit[card.suit.name])


@dataclass
class _Rebuilt:
    """A game rebuilt from a perspective: the hand at the current point, and every
    action with the seat that took it."""

    hand: Hand
    seat: int
    actions: list[tuple[int, Action]]


def _lead_action(move: Any) -> Action:
    """A leader's move as our action: a card, or a marriage leading the King."""
    if move.is_marriage():
        king = to_card(move.as_marriage().king_card)
        return action_of(MARRIAGE + king.index)
    return action_of(to_card(move.as_regular_move().card).index)


def _rebuild(perspective: PlayerPerspective, leader_move: Move | None, rules: Rules) -> _Rebuilt:
    deal = Deal.of(rules)
    history = perspective.get_game_history()
    first = history[0][0]
    me = 0 if first.am_i_leader() else 1
    opp = 1 - me
    dealt_trump = to_card(first.get_trump_card())
    # The cards seen where they lay: the turned-up trump, mine dealt and drawn.
    known = {deal.trump: dealt_trump}
    mine = {to_card(c) for c in first.get_hand()}
    for position, card in zip(deal.dealt(me, dealer=1), sorted(mine), strict=True):
        known[position] = card
    # The opponent's places in the deal, with the trick count from which he holds each.
    opp_places = [(0, p) for p in deal.dealt(opp, dealer=1)]
    # Cards he must hold by a trick count: played, shown in a marriage, exchanged.
    needs: list[tuple[int, Card]] = []
    actions: list[tuple[int, Action]] = []
    bottom = dealt_trump
    tricks = 0
    for i, (before, trick) in enumerate(history[:-1]):
        after = history[i + 1][0]
        leader = me if before.am_i_leader() else opp
        held = {to_card(c) for c in before.get_hand()}
        if trick is None:
            raise BridgeError(f"the history has no trick at step {i}")
        if trick.is_trump_exchange():
            exchange = action_of(EXCHANGE)
            actions.append((leader, exchange))
            if leader == opp:
                needs.extend((tricks, card) for card in shown_cards(exchange, bottom.suit, rules))
            bottom = Card(bottom.suit, Rank(rules.exchange_rank))
            continue
        lead = _lead_action(trick.leader_move)
        follow = ACTIONS[to_card(trick.follower_move.as_regular_move().card).index]
        assert follow is not None
        actions.append((leader, lead))
        actions.append((1 - leader, follow))
        assert lead.card is not None and follow.card is not None
        his = lead if leader == opp else follow
        needs.extend((tricks, card) for card in shown_cards(his, bottom.suit, rules))
        winner = me if after.am_i_leader() else opp
        if tricks < deal.draws and before.get_talon_size() > 0:
            played = lead.card if leader == me else follow.card
            drawn = {to_card(c) for c in after.get_hand()} - (held - {played})
            if len(drawn) != 1:
                raise BridgeError(f"trick {tricks + 1}: cannot tell the card drawn ({sorted(drawn)})")
            # The last draw's loser takes the face-up card (the turned-up trump, or the card
            # exchanged for it), which has no place of its own to fill.
            win_place, lose_place = deal.draw(tricks)
            my_place, opp_place = (win_place, lose_place) if winner == me else (lose_place, win_place)
            if my_place != deal.trump:
                known[my_place] = drawn.pop()
            if opp_place != deal.trump:
                opp_places.append((tricks + 1, opp_place))
        tricks += 1
    if leader_move is not None:
        lead = _lead_action(leader_move)
        actions.append((opp, lead))
        needs.extend((tricks, card) for card in shown_cards(lead, bottom.suit, rules))
    # Each card he must hold goes to a place he had by then; the cards nobody has seen
    # go anywhere else: the view never shows them.
    try:
        dealt = fill_pack(deal, known, opp_places, needs)
    except ValueError as exc:
        raise BridgeError(str(exc)) from None
    hand = Hand(dealt, dealer=1, rules=rules)
    # One deal is the whole game there: a match at 0-0 to the rules' target (1 under
    # the preset course), so bots that play for the match play to win the deal.
    hand.match_score = (0, 0)
    for n, (seat, action) in enumerate(actions):
        if hand.to_act != seat or not hand.is_legal(action):
            legal = " ".join(str(a) for a in hand.legal_actions())
            raise BridgeError(f"action {n} ({action} by seat {seat}) is not legal under the rules "
                              f"{rules}: the legal actions are {legal or 'none'}")
        hand.push(action)
    now = {to_card(c) for c in perspective.get_hand()}
    if hand.cards(me) != now:
        raise BridgeError(f"rebuilt hand {sorted(hand.cards(me))} differs from the platform's {sorted(now)}")
    return _Rebuilt(hand, me, actions)


def view_of(perspective: PlayerPerspective, leader_move: Move | None = None, rules: Rules = COURSE) -> View:
    """What the perspective's player may know, as our :class:`~sixtysix.game.views.View`
    (seat 0 led the first trick). ``leader_move`` is the opponent's lead to the
    current trick, when the player follows."""
    rebuilt = _rebuild(perspective, leader_move, rules)
    return rebuilt.hand.view(rebuilt.seat)


def to_move(action: Action, perspective: PlayerPerspective) -> Move:
    """The platform's move for one of our actions (a card, a marriage lead, the exchange).

    Raises :class:`BridgeError` for an action the platform does not have
    (closing, declaring) or that is not among the perspective's valid moves.
    """
    card = action.card
    if action.code == EXCHANGE:
        jack = Card(to_card(perspective.get_trump_card()).suit, Rank.JACK)
        move: Move = _game.TrumpExchange(from_card(jack))
    elif card is not None and MARRIAGE <= action.code < EXCHANGE:
        move = _game.Marriage(from_card(Card(card.suit, Rank.QUEEN)), from_card(Card(card.suit, Rank.KING)))
    elif card is not None and action.code < MARRIAGE:
        move = _game.RegularMove(from_card(card))
    else:
        raise BridgeError(f"{action} has no counterpart on the course platform (no closing; 66 is automatic)")
    valid = perspective.valid_moves()
    if move not in valid:
        raise BridgeError(f"{action} is not a valid move there: valid are {valid}")
    return move


class SixtySixBot(_game.Bot):
    """A sixtysix bot playing inside the platform's engine (a ``schnapsen.game.Bot``).

    ``bot`` is a bot object, or a spec such as ``"expert"`` or
    ``"ismcts:iterations=500"`` (see :func:`sixtysix.bots.make_bot`). It is
    told of every action (``observe``) and gets a fresh ``new_hand`` for every
    deal, as in our own runner.

    >>> import random
    >>> from schnapsen.game import SchnapsenGamePlayEngine
    >>> from schnapsen.bots import RandBot
    >>> ours = SixtySixBot("heuristic", seed=1)
    >>> winner, points, score = SchnapsenGamePlayEngine().play_game(ours, RandBot(random.Random(2)),
    ...                                                            random.Random(3))
    >>> points in (1, 2, 3)
    True
    """

    def __init__(self, bot: SixtySixBotProtocol | str, *, seed: int | None = None,
                 rules: Rules = COURSE, name: str | None = None) -> None:
        if isinstance(bot, str):
            bot = make_bot(bot, seed=seed)
        super().__init__(name or f"sixtysix:{bot.name}")
        self.bot = bot
        self.rules = rules
        #: Actions of this deal already shown to the bot (observe); -1 before new_hand.
        self._shown = -1
        self._deal: tuple[object, ...] = ()

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        rebuilt = _rebuild(perspective, leader_move, self.rules)
        seat = rebuilt.seat
        deal = (seat, rebuilt.hand.deck[_TRUMP], frozenset(
            rebuilt.hand.deck[i] for i in (_LEADER_CARDS if seat == 0 else _DEALER_CARDS)))
        if deal != self._deal or len(rebuilt.actions) < self._shown:
            self._deal, self._shown = deal, -1  # a new deal (even without notify_game_end)
        self._catch_up(rebuilt)
        players: list[SixtySixBotProtocol | None] = [None, None]
        players[seat] = self.bot
        table = Table(players, hooks=(Hooks(), Hooks()))  # told already, by _catch_up
        table.resume(rebuilt.hand)
        try:
            action = table.ask()
        except Forfeit:
            raise  # an engine's failure, not a choice
        except BotError as exc:
            raise BridgeChoiceError(str(exc), bot=exc.bot, chosen=exc.chosen, offered=exc.offered) from None
        return to_move(action, perspective)

    def _catch_up(self, rebuilt: _Rebuilt) -> None:
        """Replay the deal's actions the bot has not been told of, with the hooks our
        runner calls (``new_hand``, ``observe``, ``seen``)."""
        hand = Hand(rebuilt.hand.deck, dealer=1, rules=self.rules)
        hand.match_score = rebuilt.hand.match_score
        seat = rebuilt.seat
        hooks = Hooks.of(self.bot)
        if self._shown < 0:
            hooks.new_hand(hand.view(seat))
            self._shown = 0
        for n, (who, action) in enumerate(rebuilt.actions):
            hand.push(action)
            if n >= self._shown:
                hooks.observe(Event(who, action))
                if hooks.has_seen:
                    hooks.seen(hand.view(seat))
        self._shown = len(rebuilt.actions)

    def notify_game_end(self, won: bool, perspective: PlayerPerspective) -> None:
        self._shown, self._deal = -1, ()


def _alphabeta(rand: random.Random, samples: int = 16, depth: int = 4) -> Any:
    """``AlphaBetaBot`` plays phase 2 only: phase 1 is left to ``RdeepBot``, as the
    course's own documentation suggests."""
    from schnapsen.bots import AlphaBetaBot, RdeepBot

    class PhaseTwoAlphaBeta(_game.Bot):
        def __init__(self) -> None:
            super().__init__("alphabeta")
            self.first = RdeepBot(num_samples=samples, depth=depth, rand=rand)
            self.second = AlphaBetaBot()

        def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
            if perspective.get_phase() == _game.GamePhase.TWO:
                return self.second.get_move(perspective, leader_move=leader_move)
            return self.first.get_move(perspective, leader_move=leader_move)

    return PhaseTwoAlphaBeta()


def _make_rand(rand: random.Random) -> Any:
    from schnapsen.bots import RandBot

    return RandBot(rand, "rand")


def _make_bully(rand: random.Random) -> Any:
    from schnapsen.bots import BullyBot

    return BullyBot(rand, "bully")


def _make_rdeep(rand: random.Random, samples: int = 16, depth: int = 4) -> Any:
    from schnapsen.bots import RdeepBot

    return RdeepBot(num_samples=samples, depth=depth, rand=rand, name=f"rdeep({samples},{depth})")


#: The platform's bots by name; ``rdeep`` and ``alphabeta`` take ``samples`` and
#: ``depth`` (default 16 and 4, the settings of the course's command line).
COURSE_BOTS = {
    "rand": _make_rand,
    "bully": _make_bully,
    "rdeep": _make_rdeep,
    "alphabeta": _alphabeta,
}


def course_bot(spec: str, seed: int | None = None) -> Any:
    """One of the platform's bots from a spec: ``rand``, ``bully``, ``rdeep``,
    ``rdeep:samples=4,depth=4`` or ``alphabeta`` (with an optional ``schnapsen:``
    in front).

    >>> str(course_bot("schnapsen:rdeep:samples=4"))
    'rdeep(4,4)'
    """
    text = spec.removeprefix("schnapsen:")
    name, _, params = text.partition(":")
    make = COURSE_BOTS.get(name)
    if make is None:
        raise ValueError(f"unknown course platform bot {name!r}: expected one of {', '.join(COURSE_BOTS)}")
    options: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in params.split(","))):
        key, sep, value = part.partition("=")
        if not sep or key not in ("samples", "depth") or name not in ("rdeep", "alphabeta"):
            raise ValueError(f"{name} takes no option {part!r}" if name not in ("rdeep", "alphabeta")
                             else f"expected samples=N or depth=N, not {part!r}")
        if not value.isdigit() or int(value) < 1:
            raise ValueError(f"option {key} must be a positive integer, not {value!r}")
        options[key] = int(value)
    return make(random.Random(seed), **options)


def is_course_spec(spec: str) -> bool:
    """Whether a bot spec names one of the platform's bots (``schnapsen:NAME``)."""
    return spec.startswith("schnapsen:")


def make_player(spec: str, seed: int | None = None) -> Any:
    """A bot for the platform's engine: one of its own (``schnapsen:rdeep``) or one of
    ours wrapped in :class:`SixtySixBot`."""
    if is_course_spec(spec):
        return course_bot(spec, seed)
    return SixtySixBot(spec, seed=seed)


@dataclass(frozen=True)
class DealResult:
    """One deal of the platform's engine: seat 0 led the first trick."""

    winner: int
    game_points: int
    #: Points (card points and counted marriages) of seats 0 and 1 at the end.
    points: tuple[int, int]

    @property
    def reason(self) -> str:
        """``declared`` when the winner reached 66, else ``played_out`` (the last trick)."""
        return "declared" if self.points[self.winner] >= 66 else "played_out"


class _Recorder(_game.Bot):
    """Passes every call to a bot and keeps its score at the end of the deal."""

    def __init__(self, inner: Any) -> None:
        super().__init__(str(inner))
        self.inner = inner
        self.points = 0

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        move: Move = self.inner.get_move(perspective, leader_move=leader_move)
        return move

    def notify_trump_exchange(self, move: Any) -> None:
        self.inner.notify_trump_exchange(move)

    def notify_game_end(self, won: bool, perspective: PlayerPerspective) -> None:
        self.points = perspective.get_my_score().direct_points
        self.inner.notify_game_end(won, perspective)


def play_deal(players: Sequence[Any], seed: int) -> DealResult:
    """Play one deal of the platform's engine; ``players[0]`` leads the first trick.

    The deal is ``random.Random(seed)``'s, so the same seed with the players
    swapped deals each the other's cards (a duplicate pair).
    """
    engine = _game.SchnapsenGamePlayEngine()
    recorders = [_Recorder(p) for p in players]
    winner_bot, game_points, _ = engine.play_game(recorders[0], recorders[1], random.Random(seed))
    winner = 0 if winner_bot is recorders[0] else 1
    return DealResult(winner, game_points, (recorders[0].points, recorders[1].points))
