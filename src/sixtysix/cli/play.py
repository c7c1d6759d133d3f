"""``sixtysix play``: a match against the computer, in plain lines of text.

The game loop is :class:`PlaySession`: it holds the match, lets the computer
act through the bot protocol (with its own view only) and reports what
happened as events; it asks nothing and prints nothing. :class:`LineUI` is the
line-by-line front end: it prints events and the human's screen with
:mod:`sixtysix.console` and reads answers from a text stream, so it works the
same on a terminal and with piped input. Another front end (a full-screen UI,
say) can drive the same session.

Everything the human is shown comes from ``hand.view(human_seat)`` and the
public match score (R11, DESIGN.md §5).
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from sixtysix import i18n
from sixtysix.actions import Action
from sixtysix.analysis import ActionValue, Budget, analyse
from sixtysix.bots import make_bot
from sixtysix.bots.base import Bot, Event
from sixtysix.cards import Card
from sixtysix.console import (
    HELP,
    AnsiStyle,
    MatchInfo,
    Seats,
    Style,
    describe_action,
    describe_cuts,
    describe_deal,
    describe_match_end,
    describe_result,
    describe_score,
    parse_choice,
    render_choices,
    render_hint,
    render_screen,
)
from sixtysix.errors import IllegalActionError, ParseError
from sixtysix.hand import Hand, HandResult
from sixtysix.i18n import _
from sixtysix.match import Match
from sixtysix.record import MatchRecord, dumps, record_from_match
from sixtysix.rules import Rules
from sixtysix.runner import Forfeit, call_hook
from sixtysix.views import View

__all__ = [
    "Acted",
    "HandOver",
    "HandStarted",
    "LineSource",
    "LineUI",
    "MatchOver",
    "MatchStarted",
    "PlayEvent",
    "PlaySession",
    "UndoError",
    "match_line",
    "pick_style",
    "register",
    "run",
]


# Events: what the human may learn, as it happens ------------------------------------

@dataclass(frozen=True)
class MatchStarted:
    """The cut for the first deal (R2.1) decided who deals first."""

    first_dealer: int
    cuts: tuple[tuple[Card, Card], ...]
    seed: int | None


@dataclass(frozen=True)
class HandStarted:
    """A new hand is dealt (numbered from 1)."""

    number: int
    #: The human's view of the fresh deal.
    view: View


@dataclass(frozen=True)
class Acted:
    """``seat`` took ``action``; ``before`` and ``after`` are the human's views around it."""

    seat: int
    action: Action
    before: View
    after: View


@dataclass(frozen=True)
class HandOver:
    """A hand ended; ``score`` and ``pending_bonus`` are the match's after it."""

    number: int
    #: The result, with the tie bonus it collected (R9.2).
    result: HandResult
    #: The final action and its seat.
    last: tuple[int, Action] | None
    score: tuple[int, int]
    pending_bonus: int
    #: The human's view of the finished hand.
    view: View


@dataclass(frozen=True)
class MatchOver:
    """Someone reached the target (R9.3)."""

    winner: int | None
    score: tuple[int, int]


PlayEvent = MatchStarted | HandStarted | Acted | HandOver | MatchOver

log = logging.getLogger(__name__)


class PlaySession:
    """A match between a person (``human_seat``) and a bot, advanced step by step.

    :meth:`start` and :meth:`play` return the events since the last call and
    stop whenever the human is to act (then :attr:`view` is the human's view)
    or the match is over. The session never shows the human anything but his
    own view; the bot is given only its own. The match itself (with the
    hidden cards) stays inside: front ends use :attr:`view`, :meth:`info`,
    :attr:`score` and the events.
    """

    def __init__(self, opponent: Bot, *, rules: Rules | None = None, human_seat: int = 0,
                 seed: int | None = None) -> None:
        if human_seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {human_seat!r}")
        self.opponent = opponent
        self.human_seat = human_seat
        self.bot_seat = 1 - human_seat
        self.seed = seed
        self._match = Match(rules if rules is not None else Rules(), seed=seed)
        self._started = False
        self._finished = False
        #: How many times the human took an action back (:meth:`undo`).
        self.undos = 0

    # Queries ---------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self._match.rules

    @property
    def score(self) -> tuple[int, int]:
        """Game points of each seat so far."""
        return self._match.score

    @property
    def hand_number(self) -> int:
        return len(self._match.hands)

    @property
    def over(self) -> bool:
        return self._match.is_over()

    @property
    def waiting(self) -> bool:
        """Whether the human is to act."""
        hand = self._match.hand
        return hand is not None and not hand.is_over() and hand.to_act == self.human_seat

    @property
    def view(self) -> View | None:
        """The human's view of the current hand, or ``None`` before the first deal."""
        hand = self._match.hand
        return None if hand is None else hand.view(self.human_seat)

    def info(self) -> MatchInfo:
        """The public match state for the screen."""
        return MatchInfo(self.hand_number, self._match.score, self.rules.target,
                         self._match.pending_bonus)

    # Driving the game -------------------------------------------------------------
    def start(self) -> list[PlayEvent]:
        """Begin the match: the cut, the first deal and the computer's moves up to the human's turn."""
        if self._started:
            return self.advance()
        self._started = True
        events: list[PlayEvent] = [MatchStarted(self._match.first_dealer, tuple(self._match.cuts), self.seed)]
        return events + self.advance()

    def play(self, action: Action) -> list[PlayEvent]:
        """The human takes ``action`` (raises :class:`IllegalActionError` if it is not legal)."""
        hand = self._match.hand
        if hand is None or not self.waiting:
            raise IllegalActionError(action, (), "it is not your turn")
        # An illegal action raises in Hand.push, naming the legal ones, and changes nothing.
        return self._apply(hand, self.human_seat, action) + self.advance()

    def advance(self) -> list[PlayEvent]:
        """Deal and let the computer act until the human is to act or the match is over."""
        events: list[PlayEvent] = []
        while True:
            if self._match.is_over():
                if not self._finished:
                    self._finished = True
                    call_hook(self.opponent, "match_over", self._match.score)
                    events.append(MatchOver(self._match.winner, self._match.score))
                return events
            hand = self._match.hand
            if hand is None or hand.is_over():
                hand = self._match.deal()
                call_hook(self.opponent, "new_hand", hand.view(self.bot_seat))
                events.append(HandStarted(self.hand_number, hand.view(self.human_seat)))
            if hand.to_act == self.human_seat:
                return events
            bot_view = hand.view(self.bot_seat)
            try:
                action = self.opponent.choose(bot_view, bot_view.legal)
            except Forfeit as exc:  # an external engine failed: it loses the hand
                log.warning("%s", exc)
                hand.forfeit(self.bot_seat)
                call_hook(self.opponent, "seen", hand.view(self.bot_seat))
                events.append(HandOver(self.hand_number, self._match.results()[-1], None,
                                       self._match.score, self._match.pending_bonus,
                                       hand.view(self.human_seat)))
                continue
            if not isinstance(action, Action) or not hand.is_legal(action):
                raise BotError(f"the computer ({self.opponent.name}) chose {action!r}, not one of "
                               f"{' '.join(str(a) for a in bot_view.legal)}")
            events.extend(self._apply(hand, self.bot_seat, action))

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` can take something back: the human is to act and
        has acted in the current hand."""
        hand = self._match.hand
        return self.waiting and hand is not None and self.human_seat in hand.actors()

    def undo(self) -> View:
        """Take back the human's last action in the current hand, and the computer's
        actions after it; returns the human's view, his turn again.

        Only the hand being played can be taken back. The computer is told the
        hand afresh (``new_hand`` and one ``observe`` per action kept), so that
        what it remembers matches the hand again. Raises :class:`UndoError`
        when there is nothing to take back.
        """
        hand = self._match.hand
        if hand is None or not self.can_undo:
            raise UndoError("there is nothing of yours to take back in this hand")
        actors = hand.actors()
        last = max(i for i, seat in enumerate(actors) if seat == self.human_seat)
        kept = list(zip(actors[:last], hand.actions[:last], strict=True))
        while hand.actions:
            hand.pop()
        call_hook(self.opponent, "new_hand", hand.view(self.bot_seat))
        for seat, action in kept:
            hand.push(action)
            call_hook(self.opponent, "observe", Event(seat, action))
        self.undos += 1
        view = hand.view(self.human_seat)
        assert self.waiting
        return view

    def _apply(self, hand: Hand, seat: int, action: Action) -> list[PlayEvent]:
        before = hand.view(self.human_seat)
        hand.push(action)
        call_hook(self.opponent, "observe", Event(seat, action))
        if hasattr(self.opponent, "seen"):  # an external engine hears of its draws at once
            call_hook(self.opponent, "seen", hand.view(self.bot_seat))
        after = hand.view(self.human_seat)
        events: list[PlayEvent] = [Acted(seat, action, before, after)]
        if hand.is_over():
            result = self._match.results()[-1]
            events.append(HandOver(self.hand_number, result, (seat, action),
                                   self._match.score, self._match.pending_bonus, after))
        return events

    def record(self, *, finished_only: bool = False, **extra: Any) -> MatchRecord:
        """The game record of the match so far (DESIGN.md §3); it may be unfinished.

        With ``finished_only`` a hand in progress is left out: its deck would
        tell the stock order and the computer's cards to anyone reading the file.
        """
        record = record_from_match(self._match, **extra)
        hand = self._match.hand
        if finished_only and hand is not None and not hand.is_over():
            record.hands = record.hands[:-1]
        return record


class BotError(ValueError):
    """The computer player chose something that is not a legal action."""


class UndoError(ValueError):
    """There is no action of the human's to take back."""


# The line front end ----------------------------------------------------------------

class LineSource(Protocol):
    """Where answers come from: a text stream, or anything with ``readline``."""

    def readline(self) -> str:
        """The next line with its newline; an empty string at the end of input."""
        ...


class LineUI:
    """Plays a :class:`PlaySession` on text streams: events and screens out, answers in.

    ``save``, if given, is called with no argument after each hand, to write
    the finished hands; writing the whole game at the end is the caller's job.
    """

    QUIT = frozenset({"quit", "q", "exit", "stop"})
    HELP_WORDS = frozenset({"?", "help", "h"})
    SHOW = frozenset({"show", "look", "table", "s"})
    HINT = frozenset({"hint", "hint?", "advice"})

    def __init__(self, session: PlaySession, *, stdin: LineSource, stdout: TextIO, style: Style,
                 memory: bool = False, seats: Seats | None = None,
                 save: Callable[[], None] | None = None,
                 hint: Callable[[View], list[ActionValue]] | None = None) -> None:
        self.session = session
        self.hint = hint
        self.stdin = stdin
        self.stdout = stdout
        self.style = style
        self.memory = memory
        self.seats = seats or Seats(session.human_seat)
        self.save = save
        self.interactive = _isatty(stdin)

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout)

    def run(self) -> int:
        """Play until the match ends, the human quits or input ends; returns the exit status."""
        self.show_events(self.session.start())
        while not self.session.over:
            view = self.session.view
            assert view is not None and self.session.waiting
            action = self.ask(view)
            if action is None:
                return 0
            self.show_events(self.session.play(action))
        return 0

    def ask(self, view: View) -> Action | None:
        """Show the screen and read the human's choice; ``None`` when he stops or input ends."""
        self.say()
        self.say(render_screen(view, self.style, self.seats, self.session.info(), memory=self.memory))
        self.say(render_choices(view, self.style, self.seats))
        while True:
            line = self.read("> ")
            if line is None:
                self.say()
                self.say(self._stopped(_("End of input")))
                return None
            word = line.strip().lower()
            if word in self.QUIT:
                self.say(self._stopped(_("You stopped the game")))
                return None
            if word in self.HELP_WORDS:
                self.say(_(HELP))
                self.say(render_choices(view, self.style, self.seats))
                continue
            if word in self.HINT:
                if self.hint is None:
                    self.say(_("No hints in this game."))
                else:
                    self.say(render_hint(self.hint(view), self.style))
                self.say(render_choices(view, self.style, self.seats))
                continue
            if word in self.SHOW:
                self.say(render_screen(view, self.style, self.seats, self.session.info(),
                                       memory=self.memory))
                self.say(render_choices(view, self.style, self.seats))
                continue
            try:
                return parse_choice(line, view)
            except ParseError as exc:
                self.say(self.style.bad(_("Sorry: {problem}.").format(problem=exc)))
                self.say(render_choices(view, self.style, self.seats))

    def read(self, prompt: str) -> str | None:
        """One line of input, or ``None`` at the end of input. Piped answers are echoed,
        so that a transcript reads like a game."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        if not self.interactive:
            self.stdout.write(line if line.endswith("\n") else line + "\n")
        return line.rstrip("\r\n")

    def _stopped(self, why: str) -> str:
        score = describe_score(self.session.score, self.seats, self.style)
        return _("{why}: the match stops here ({score}).").format(why=why, score=score)

    def show_events(self, events: list[PlayEvent]) -> None:
        seats, style = self.seats, self.style
        for event in events:
            if isinstance(event, MatchStarted):
                rules = self.session.rules
                self.say(style.strong(_("Sixty-six against the computer ({opponent}), rules {rules}, "
                                        "first to {target} game points.").format(
                    opponent=self.session.opponent.name, rules=rules, target=rules.target)))
                if event.seed is not None:
                    self.say(style.dim(_("Seed {seed}: play the same deals again with --seed {seed}."
                                         ).format(seed=event.seed)))
                for line in describe_cuts(event.cuts, event.first_dealer, seats, style):
                    self.say(line)
            elif isinstance(event, HandStarted):
                self.say()
                self.say(describe_deal(event.view, seats, style, event.number))
            elif isinstance(event, Acted):
                for line in describe_action(event.seat, event.action, event.before, event.after,
                                            seats, style, memory=self.memory):
                    self.say(line)
            elif isinstance(event, HandOver):
                for line in describe_result(event.view, seats, style, bonus=event.result.bonus):
                    self.say(line)
                self.say(style.strong(match_line(event, seats, style, self.session.rules.target)))
                if self.save is not None:
                    self.save()
            else:
                self.say()
                self.say(describe_match_end(event.winner, event.score, seats, style))


def match_line(event: HandOver, seats: Seats, style: Style, target: int) -> str:
    """``Match: You 3, Computer 5 (first to 7).``, after a hand."""
    score = describe_score(event.score, seats, style)
    if event.pending_bonus:
        return _("Match: {score} (first to {target}); the next hand's winner also gets {bonus}."
                 ).format(score=score, target=target, bonus=event.pending_bonus)
    return _("Match: {score} (first to {target}).").format(score=score, target=target)


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


def pick_style(stdout: TextIO, color: bool | None) -> Style:
    """Colours and suit symbols on a terminal (or when asked), plain text otherwise."""
    if color is None:
        color = _isatty(stdout) and not os.environ.get("NO_COLOR")
    if not color:
        return Style()
    encoding = getattr(stdout, "encoding", None) or "ascii"
    try:
        "♣♦♥♠".encode(encoding)
        symbols = True
    except (LookupError, UnicodeEncodeError):
        symbols = False
    return AnsiStyle(color=True, symbols=symbols)


# The command -----------------------------------------------------------------------

def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a match against the computer",
        description="Play a match of Sixty-six against the computer. On a terminal this is the "
                    "full-screen game (with the 'tui' extra installed); with --plain, or when "
                    "input is not a terminal, one line at a time (type ? for help).",
    )
    parser.add_argument("--plain", action="store_true",
                        help="play in plain lines of text even on a terminal")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="seed for the deals and the computer (same seed, same game)")
    parser.add_argument("--rules", default=None, metavar="TEXT",
                        help="a preset and options, e.g. santase or classic,target=11 (default classic, "
                             "or the full-screen game's settings)")
    parser.add_argument("--opponent", default=None, metavar="SPEC",
                        help="the computer player: a level (random, easy, medium, hard, expert) "
                             "or a bot spec such as pimc:time=0.5 (default heuristic, or the "
                             "full-screen game's settings)")
    parser.add_argument("--memory", action="store_true",
                        help="hide the running scores: remember your points as in a real game")
    parser.add_argument("--seat", type=int, choices=(0, 1), default=0,
                        help="your seat in the record (default 0)")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="write the game record (JSON) to FILE, also when stopped early (the "
                             "full-screen game saves every match in its data directory as well)")
    parser.add_argument("--name", default=None, help="your name in the record (default Human)")
    parser.add_argument("--lang", default=None, metavar="{" + ",".join(i18n.LANGUAGES) + "}",
                        help="the language of the game: en, de, bg or hu (default: the system's locale, "
                             "or for the full-screen game the language chosen in its settings; an "
                             "unknown code plays in English)")
    parser.add_argument("--hint-time", type=float, default=1.0, metavar="SECONDS",
                        help="how long the 'hint' command thinks (default 1 second)")
    colour = parser.add_mutually_exclusive_group()
    colour.add_argument("--color", "--colour", dest="color", action="store_true", default=None,
                        help="use colours and suit symbols even when not on a terminal")
    colour.add_argument("--no-color", "--no-colour", dest="color", action="store_false",
                        help="plain text even on a terminal")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``sixtysix play``: in ``--lang`` (else the system's language) from start to end; the
    language is set for this call only, so a caller's own language is left as it was."""
    with i18n.use(args.lang if args.lang is not None else i18n.system_language()):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    if not args.plain and _isatty(sys.stdin) and _isatty(sys.stdout):
        from sixtysix.tui import available

        if available():
            from sixtysix.tui.run import run_game

            return run_game(args)
        print(_("sixtysix: the full-screen game needs Textual (pip install 'sixtysix[tui]'); "
                "playing in plain lines."), file=sys.stderr)
    return run_plain(args)


def run_plain(args: argparse.Namespace) -> int:
    """The match in plain lines of text (:class:`LineUI`)."""
    args.opponent = args.opponent or "heuristic"
    args.name = args.name or "Human"
    rules = Rules.parse(args.rules or "classic")
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    # The computer's own random stream, derived from the seed but not the same as the deals'.
    bot_seed = random.Random(f"sixtysix-play-opponent-{seed}").randrange(2**32)
    opponent = make_bot(args.opponent, seed=bot_seed)
    if hasattr(opponent, "opponent"):  # an external engine is told whom it plays
        opponent.opponent = args.name
    session = PlaySession(opponent, rules=rules, human_seat=args.seat, seed=seed)
    players = ["", ""]
    players[args.seat] = args.name
    players[1 - args.seat] = f"computer ({args.opponent})"
    path: str | None = args.save

    def save(*, finished_only: bool = True) -> None:
        if path is not None:
            _write_record(path, session.record(finished_only=finished_only, players=players, seed=seed))

    save()  # a bad path is reported before the game starts
    stdout: TextIO = sys.stdout
    if args.hint_time <= 0:
        raise ValueError("--hint-time must be positive")
    hint_rng = random.Random(f"sixtysix-play-hint-{seed}")

    def hint(view: View) -> list[ActionValue]:
        return analyse(view, Budget(time=args.hint_time), rng=hint_rng)

    ui = LineUI(session, stdin=sys.stdin, stdout=stdout, style=pick_style(stdout, args.color),
                memory=args.memory, save=save if path is not None else None, hint=hint)
    try:
        status = ui.run()
    finally:
        # The whole game, a hand in progress included: play is over, nothing is hidden any more.
        save(finished_only=False)
    if path is not None:
        print(_("The game record is saved in {path}.").format(path=path), file=stdout)
    return status


def _write_record(path: str, record: MatchRecord) -> None:
    # Written whole and then renamed, so that an interrupted write never leaves half a record.
    text = dumps(record) + "\n"
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
