"""``sixtysix play``: a match against the computer, in plain lines of text.

The game loop is :class:`PlaySession`: it holds the match, lets the computer
act through the bot protocol (with its own view only) and reports what
happened as events; it asks nothing and prints nothing. :class:`LineUI` is the
line-by-line front end: it prints events and the human's screen with
:mod:`sixtysix.present.text` and reads answers from a text stream, so it works the
same on a terminal and with piped input. Another front end (a full-screen UI,
say) can drive the same session.

Everything the human is shown comes from ``hand.view(human_seat)`` and the
public match score (R11, docs/design.md §6).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable
from typing import Protocol, TextIO

from sixtysix import i18n, tui
from sixtysix.bots import make_bot
from sixtysix.bots.analysis import ActionValue, Budget, analyse
from sixtysix.bots.net_bot import shipped_network
from sixtysix.cli.options import BOT_HELP, HelpFormatter
from sixtysix.errors import ParseError
from sixtysix.extras import install_command
from sixtysix.game.actions import Action
from sixtysix.game.record import MatchRecord, dumps
from sixtysix.game.views import View
from sixtysix.i18n import _
from sixtysix.play.session import (
    Acted,
    HandOver,
    HandStarted,
    MatchStarted,
    PlayEvent,
    PlaySession,
)
from sixtysix.present.text.advice import advice_text
from sixtysix.present.text.narration import (
    describe_action,
    describe_cuts,
    describe_deal,
    describe_match,
    describe_match_end,
    describe_result,
)
from sixtysix.present.text.prompt import HELP, RefusedChoice, parse_choice
from sixtysix.present.text.questions import risk_question
from sixtysix.present.text.screen import describe_score, render_choices, render_hint, render_screen
from sixtysix.present.text.style import AnsiStyle, Style
from sixtysix.present.text.words import Seats, level_name
from sixtysix.rules import Rules
from sixtysix.tui.options import GameOptions
from sixtysix.tui.storage import find_resumable, load_settings

__all__ = [
    "LineSource",
    "LineUI",
    "match_line",
    "pick_style",
    "register",
    "run",
]


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
                 hint: Callable[[View], list[ActionValue]] | None = None,
                 opponent: str | None = None, confirm: bool = False) -> None:
        self.session = session
        #: How the computer is named at the start: its level or spec, else the bot's name.
        self.opponent = opponent
        self.hint = hint
        self.stdin = stdin
        self.stdout = stdout
        self.style = style
        self.memory = memory
        self.seats = seats or Seats(session.human_seat)
        self.save = save
        self.interactive = _isatty(stdin)
        #: Ask before closing or declaring under 66 (the setting the full-screen game keeps).
        self.confirm = confirm
        #: The last hint's position and analysis (asked again: its numbers).
        self._hinted: tuple[View, list[ActionValue]] | None = None

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout)

    def hint_for(self, view: View) -> str:
        """The hint in words; asked again in the same position, the numbers behind it."""
        assert self.hint is not None
        if self._hinted is not None and self._hinted[0] == view:
            return render_hint(self._hinted[1], view, self.style)
        lines = self.hint(view)
        self._hinted = (view, lines)
        return (_("Hint: {advice}").format(advice=advice_text(lines, view, self.style)) + " "
                + _("(type hint again for the numbers)"))

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
            try:
                line = self.read("> ")
            except KeyboardInterrupt:  # Ctrl-C says where the match stopped, as Ctrl-D does
                self.say()
                self.say(self._stopped(_("Interrupted")))
                raise
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
                    self.say(self.hint_for(view))
                self.say(render_choices(view, self.style, self.seats))
                continue
            if word in self.SHOW:
                self.say(render_screen(view, self.style, self.seats, self.session.info(),
                                       memory=self.memory))
                self.say(render_choices(view, self.style, self.seats))
                continue
            try:
                action = parse_choice(line, view, self.style)
            except RefusedChoice as exc:  # a sentence naming the action in words
                self.say(self.style.bad(str(exc)))
                self.say(render_choices(view, self.style, self.seats))
                continue
            except ParseError as exc:
                self.say(self.style.bad(_("Sorry: {problem}.").format(problem=exc)))
                self.say(render_choices(view, self.style, self.seats))
                continue
            if self.confirmed(action, view):
                return action
            self.say(render_choices(view, self.style, self.seats))

    def confirmed(self, action: Action, view: View) -> bool:
        """Whether to go ahead with ``action``: at once, or after asking when it may cost
        the hand (``confirm``); the end of input answers no."""
        if not self.confirm:
            return True
        declared = view.declared_total(action) if action.is_declaration else 0
        question = risk_question(action, self.session.at_stake(action), declared=declared)
        if question is None:
            return True
        self.say(self.style.strong(question.title) + " " + question.text)
        answer = self.read(_("{yes}? (y/n) ").format(yes=question.yes))
        yes = _("Yes").lower()
        return answer is not None and answer.strip().lower() in {"y", "yes", yes, yes[:1]}

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
                    opponent=level_name(self.opponent or self.session.opponent.name), rules=rules,
                    target=rules.target)))
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
    """``Match: You 3, Computer 5 (first to 7).``, after a hand (:func:`console.describe_match`)."""
    return describe_match(event.score, event.pending_bonus, seats, style, target)


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
        formatter_class=HelpFormatter,
        epilog=BOT_HELP,
    )
    parser.add_argument("--plain", action="store_true",
                        help="play in plain lines of text even on a terminal")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed for the deals and the computer (same seed, same game)")
    parser.add_argument("--rules", default=None, metavar="RULES",
                        help="a preset and options, e.g. santase or classic,target=11 (default classic, "
                             "or the full-screen game's settings)")
    parser.add_argument("--opponent", default=None, metavar="BOT",
                        help="the computer player: a level (random, easy, medium, hard, expert) "
                             "or any BOT (see below) such as pimc:time=0.5 (default medium, or the "
                             "full-screen game's settings)")
    parser.add_argument("--memory", action="store_true",
                        help="hide the running scores: remember your points as in a real game")
    parser.add_argument("--seat", type=int, choices=(0, 1), default=0,
                        help="your seat in the record (default 0)")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="write the game record (JSON) to FILE, also when stopped early (the "
                             "full-screen game saves every match in its data directory as well)")
    parser.add_argument("--resume", nargs="?", const="", default=None, metavar="FILE",
                        help="continue an unfinished match: the newest one the full-screen game "
                             "saved, or the one in the record FILE")
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
        if tui.available():
            from sixtysix.tui.run import run_game  # Textual: the tui extra

            return run_game(GameOptions.from_args(args))
        print(_("sixtysix: the full-screen game needs Textual ({command}); playing in plain lines.").format(
            command=install_command("tui")), file=sys.stderr)
    return run_plain(args)


def run_plain(args: argparse.Namespace) -> int:
    """The match in plain lines of text (:class:`LineUI`)."""
    resume = find_resumable(args.resume) if getattr(args, "resume", None) is not None else None
    if resume is not None:  # the saved match's players, rules, seat and seed
        args.opponent, args.name, args.seat = resume.level, resume.name, resume.human_seat
        saved_seed = resume.record.extra.get("seed")
        args.seed = saved_seed if isinstance(saved_seed, int) else args.seed
        args.save = args.save or str(resume.path)
    args.opponent = args.opponent or "medium"  # the heuristic player, named as every front end names it
    args.name = args.name or "Human"
    rules = Rules.parse(args.rules or "classic")
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    # The computer's own random stream, derived from the seed but not the same as the deals'.
    bot_seed = random.Random(f"sixtysix-play-opponent-{seed}").randrange(2**32)
    opponent = make_bot(args.opponent, seed=bot_seed)
    if hasattr(opponent, "opponent"):  # an external engine is told whom it plays
        opponent.opponent = args.name
    if resume is None:
        session = PlaySession(opponent, rules=rules, human_seat=args.seat, seed=seed)
    else:
        session = PlaySession.resume(resume.record, opponent, human_seat=resume.human_seat)
        print(_("You continue the match saved in {file}: {summary}.").format(
            file=resume.path, summary=resume.summary()))
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
        return analyse(view, Budget(time=args.hint_time), rng=hint_rng, network=shipped_network())

    ui = LineUI(session, stdin=sys.stdin, stdout=stdout, style=pick_style(stdout, args.color),
                memory=args.memory, save=save if path is not None else None, hint=hint,
                opponent=args.opponent)
    # A person at the keyboard is asked before an action that may cost the hand, as the
    # setting says (on unless turned off); answers piped from a script are taken as they come.
    ui.confirm = ui.interactive and _confirm_setting()
    try:
        status = ui.run()
    finally:
        # The whole game, a hand in progress included: play is over, nothing is hidden any more.
        save(finished_only=False)
    if path is not None:
        print(_("The game record is saved in {path}.").format(path=path), file=stdout)
    return status


def _confirm_setting() -> bool:
    """The ``confirm`` setting the full-screen game keeps (on when it cannot be read)."""
    try:
        return load_settings().confirm
    except ModuleNotFoundError:  # no platformdirs: no settings folder
        return True


def _write_record(path: str, record: MatchRecord) -> None:
    # Written whole and then renamed, so that an interrupted write never leaves half a record.
    text = dumps(record) + "\n"
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
