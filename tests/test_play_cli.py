"""``sixtysix play``: a match against the computer in plain lines of text.

The tests play whole matches through the command with scripted answers that
read the legal actions from the screen, as a person would.
"""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sixtysix.bots import make_bot
from sixtysix.bots.analysis import Budget, advise, analyse
from sixtysix.cli import main
from sixtysix.cli.play import LineUI, pick_style
from sixtysix.errors import ParseError
from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.cards import CARDS, Card, Rank
from sixtysix.game.hand import Hand
from sixtysix.game.record import MatchReplay, load, replay
from sixtysix.play.session import PlaySession
from sixtysix.present.text.advice import advice_text
from sixtysix.present.text.prompt import parse_choice
from sixtysix.present.text.screen import render_hand, render_screen
from sixtysix.present.text.style import AnsiStyle, Style
from sixtysix.present.text.words import Seats
from sixtysix.rules import Rules

CHOOSE = "Choose by notation or number"
MAX_ANSWERS = 5000


def replay_file(path: Path) -> MatchReplay:
    result = replay(load(str(path)))
    assert isinstance(result, MatchReplay)
    return result


def listed_choices(text: str) -> list[tuple[int, str]]:
    """The numbered actions of the last choice list printed in ``text``."""
    block = text[text.rindex(CHOOSE):]
    lines = block.splitlines()[1:]
    choices: list[tuple[int, str]] = []
    for line in lines:
        if line.startswith(">"):
            break
        cards = re.findall(r"(\d+)=(\S+)", line)
        if cards:
            choices.extend((int(n), token) for n, token in cards)
            continue
        m = re.match(r"\s+(\d+)\s+(\S+)\s", line)
        if m:
            choices.append((int(m.group(1)), m.group(2)))
    return choices


class ScriptedStdin(io.TextIOBase):
    """A player at the keyboard: ``answer`` gets everything printed so far and returns a line."""

    def __init__(self, out: io.StringIO, answer: Callable[[str], str]) -> None:
        self.out = out
        self.answer = answer
        self.calls = 0

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.calls += 1
        if self.calls > MAX_ANSWERS:
            return ""  # end of input: a match never needs this many answers
        return self.answer(self.out.getvalue())


def first_choice(text: str) -> str:
    return "1\n"


def sensible_player(seed: int) -> Callable[[str], str]:
    """Picks a listed action at random, by number or by (lower-case) notation;
    declares only when the screen shows 66 or more, never declares falsely."""
    rng = random.Random(seed)

    def answer(text: str) -> str:
        choices = listed_choices(text)
        points = re.findall(r"^Points: You (\d+)", text, re.MULTILINE)
        mine = int(points[-1]) if points else 0
        declare = [c for c in choices if c[1] == "66"]
        if declare and mine >= 66:
            return "66\n"
        plain = [c for c in choices if not c[1].startswith("66")] or choices
        number, token = rng.choice(plain)
        return f"{number}\n" if rng.random() < 0.5 else f"{token.lower()}\n"

    return answer


def run_play(monkeypatch: pytest.MonkeyPatch, args: list[str],
             answer: Callable[[str], str] | str) -> tuple[int, str]:
    """Run ``sixtysix play ARGS`` with scripted (or fixed) input; returns the status and output."""
    out = io.StringIO()
    stdin: io.TextIOBase
    stdin = io.StringIO(answer) if isinstance(answer, str) else ScriptedStdin(out, answer)
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", out)
    status = main(["play", *args])
    return status, out.getvalue()


# A whole match --------------------------------------------------------------------

@pytest.mark.parametrize(("seed", "player"), [(7, "first"), (11, "sensible"), (23, "sensible")])
def test_whole_match_and_record(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed: int,
                                player: str) -> None:
    path = tmp_path / "game.json"
    answer = first_choice if player == "first" else sensible_player(seed)
    status, out = run_play(monkeypatch, ["--seed", str(seed), "--opponent", "random",
                                         "--save", str(path), "--name", "Ann"], answer)
    assert status == 0
    end = re.search(r"^(You win|Computer wins) the match, (\d+)-(\d+)", out, re.MULTILINE)
    assert end, out[-2000:]
    result = replay_file(path)
    assert result.finished
    score = result.score
    # The human is seat 0: "You a-b" puts the human's score first.
    assert (int(end.group(2)), int(end.group(3))) == (score[0], score[1])
    assert (end.group(1) == "You win") == (result.winner == 0)
    last_match_line = re.findall(r"^Match: You (\d+), Computer (\d+) \(first to 7\)\.", out, re.MULTILINE)[-1]
    assert tuple(map(int, last_match_line)) == score
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["players"] == ["Ann", "computer (random)"]
    assert record["seed"] == seed
    # Every hand's result was reported.
    assert len(re.findall(r"the hand: \d game points?|The hand is tied", out)) == len(result.hands)
    assert f"The game record is saved in {path}." in out


def test_default_opponent_is_medium_the_heuristic_player(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """The plain mode's default opponent is named as every front end names it (issue 19)."""
    path = tmp_path / "h.json"
    status, out = run_play(monkeypatch, ["--seed", "12", "--save", str(path)], sensible_player(12))
    assert status == 0
    assert out.startswith("Sixty-six against the computer (medium)")
    assert re.search(r"^(You win|Computer wins) the match", out, re.MULTILINE)
    assert replay_file(path).finished


def test_same_seed_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    _, first = run_play(monkeypatch, ["--seed", "5", "--opponent", "random"], first_choice)
    _, second = run_play(monkeypatch, ["--seed", "5", "--opponent", "random"], first_choice)
    assert first == second


def test_seat_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    status, out = run_play(monkeypatch, ["--seed", "3", "--seat", "1", "--opponent", "random",
                                         "--save", str(path), "--name", "Bo"], sensible_player(3))
    assert status == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["players"] == ["computer (random)", "Bo"]
    result = replay_file(path)
    end = re.search(r"^(You win|Computer wins) the match, (\d+)-(\d+)", out, re.MULTILINE)
    assert end
    # "You a-b": the human (seat 1) first.
    assert (int(end.group(2)), int(end.group(3))) == (result.score[1], result.score[0])


def test_other_rules(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    status, out = run_play(monkeypatch, ["--seed", "2", "--rules", "santase", "--opponent", "random",
                                         "--save", str(path)], sensible_player(2))
    assert status == 0
    assert "first to 11" in out
    result = replay_file(path)
    assert result.finished and max(result.score) >= 11


def test_subprocess_with_piped_input(tmp_path: Path) -> None:
    path = tmp_path / "piped.json"
    proc = subprocess.run(
        [sys.executable, "-m", "sixtysix", "play", "--seed", "1", "--opponent", "random",
         "--save", str(path)],
        input="1\n" * 3000, capture_output=True, text=True, encoding="utf-8", check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert re.search(r"^(You win|Computer wins) the match", proc.stdout, re.MULTILINE)
    assert "\x1b[" not in proc.stdout  # not a terminal: plain text
    assert replay_file(path).finished


def test_subprocess_empty_input_ends_cleanly() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sixtysix", "play", "--seed", "1", "--opponent", "random"],
        input="", capture_output=True, text=True, encoding="utf-8", check=False,
    )
    assert proc.returncode == 0
    assert "Traceback" not in proc.stderr
    assert "End of input" in proc.stdout


# Input ------------------------------------------------------------------------------

def _hand_on_screen(text: str) -> set[str]:
    line = re.findall(r"^Your hand: (.*)$", text, re.MULTILINE)[-1]
    return {token.rstrip("*") for token in line.replace("|", " ").split()}


def test_bad_input_reprompts_and_loses_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean = tmp_path / "clean.json"
    run_play(monkeypatch, ["--seed", "4", "--opponent", "random", "--save", str(clean)], "1\n1\nquit\n")
    bad_inputs = ["zz", "99", "0", "", "X", "66", "D", "KH+ now", "help me"]
    script = iter(bad_inputs)
    state = {"not_held": False}

    def answer(text: str) -> str:
        for line in script:
            return line + "\n"
        if not state["not_held"]:
            state["not_held"] = True
            held = _hand_on_screen(text)
            return next(str(c) for c in CARDS if str(c) not in held) + "\n"
        return "1\n"

    messy = tmp_path / "messy.json"

    def player(text: str) -> str:
        # Two good answers after the bad ones, then quit.
        if text.count("\n> 1\n") >= 2:
            return "quit\n"
        return answer(text)

    status, out = run_play(monkeypatch, ["--seed", "4", "--opponent", "random", "--save", str(messy)],
                           player)
    assert status == 0
    sorries = re.findall(r"^(?:Sorry: |You cannot )(.*)$", out, re.MULTILINE)
    assert len(sorries) == len(bad_inputs) + 1
    assert any("not an action" in s for s in sorries)
    assert any("there is no choice 99" in s for s in sorries)
    assert any("you do not hold" in s for s in sorries)
    # A refused action is named in words, as the full-screen game names it, not by the
    # letter typed ("X is not allowed"), and the rule book's "phase 2" is not said (issue 37, item 3).
    assert any(s.startswith("exchange the trump card now: ") for s in sorries)
    assert any(s.startswith("declare 66 now: ") for s in sorries)
    assert "is not allowed" not in out and "in phase 2" not in out
    # Each refusal lists the legal choices again.
    assert out.count(CHOOSE) >= len(sorries) + 2
    # Nothing was played by the bad answers: the same game as without them.
    assert load(str(messy)).to_json() == load(str(clean)).to_json()


def test_help_and_show(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out = run_play(monkeypatch, ["--seed", "4", "--opponent", "random"], "?\nshow\nquit\n")
    assert status == 0
    assert "How to play" in out
    assert "66+H" in out
    assert out.count("Your hand:") == 2


#: What each kind of choice is called in a hint, written here apart from the code
#: (the page's words: Play K♥, Close the stock ...).
HINT_WORDS = {"C": "Close the stock", "D": "Draw", "66": "Declare 66", "X": "Exchange your "}


def hint_words(token: str, sentence: bool = False) -> str:
    """How the numbers name an action; at the head of the hint's sentence (``sentence``) a
    marriage is said in words of its own."""
    if token in HINT_WORDS:
        return HINT_WORDS[token]
    if token.startswith("66+"):
        return "Show the "
    if token.endswith("+"):
        return "Announce the marriage in " if sentence else f"Marriage: {token[:-1]} and lead it"
    return f"Play {token}"


def test_the_hint_speaks_words_and_gives_the_numbers_when_asked_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 37, item 4: the hint says the best action in words, what it wins on average
    and how sure; asked again, every legal action in words with its game points. No
    action is named by its code (D, C)."""
    status, out = run_play(monkeypatch, ["--seed", "4", "--opponent", "random", "--hint-time", "0.05"],
                           "hint\nhint\nquit\n")
    assert status == 0
    legal = [token for _, token in listed_choices(out[:out.index("> hint")])]
    advice = re.findall(r"^Hint: (.*)$", out, re.MULTILINE)
    assert len(advice) == 1
    sure = r"\((quite sure|fairly sure|a rough guess: the hidden cards could change it)\)"
    worth = (rf"it (wins|loses) about \d\.\d game points on average {sure}|it is about even on average {sure}"
             r"|with best play .*")
    assert re.fullmatch(rf"(.+): ({worth})\.( .* is about as good\.)? \(type hint again for the numbers\)",
                        advice[0]), advice[0]
    assert any(advice[0].startswith(hint_words(token, sentence=True)) for token in legal)
    numbers = out[out.index("Game points for you with each action, best first:"):]
    rows = [line.strip() for line in numbers.splitlines()[1:len(legal) + 1]]
    assert all(re.search(r"([+−]\d\.\d\d ± \d\.\d\d|[+−]\d exactly)", row) for row in rows), rows
    for token in legal:
        assert sum(row.startswith(hint_words(token)) for row in rows) == 1, (token, rows)
    assert not [row for row in rows if re.match(r"(C|D|66|X)\b", row)]


def test_lenient_notation() -> None:
    hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
    view = hand.view(1)
    assert parse_choice("10c", view) == Action.parse("TC")
    assert parse_choice(" ad ", view) == Action.parse("AD")
    assert parse_choice("A♦", view) == Action.parse("AD")
    assert parse_choice("close", view) == Action.parse("C")
    with pytest.raises(ParseError, match=r"^You cannot play K♥ now: you do not hold K♥\.$"):
        parse_choice("kh", view)
    with pytest.raises(ParseError, match=r"who has won a trick may declare \(R8\.1\)"):
        parse_choice("declare", view)
    hand.push(Action.parse("KS"))
    hand.push(Action.parse("9C"))
    view = hand.view(0)
    assert parse_choice("", view) == Action.parse("D")  # Enter draws
    assert parse_choice("draw", view) == Action.parse("D")
    assert parse_choice("66", view) == Action.parse("66")
    with pytest.raises(ParseError, match="first draw"):
        parse_choice(str(next(iter(view.hand))), view)


def test_quit_stops_cleanly_and_saves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    status, out = run_play(monkeypatch, ["--seed", "9", "--opponent", "random", "--save", str(path)],
                           "1\n1\n1\nquit\n")
    assert status == 0
    assert "You stopped the game" in out
    record = load(str(path))
    result = replay(record)
    assert not result.finished
    assert len(record.to_json()["hands"]) == 1


def test_eof_stops_cleanly_and_saves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "eof.json"
    status, out = run_play(monkeypatch, ["--seed", "9", "--opponent", "random", "--save", str(path)],
                           "1\n1\n")
    assert status == 0
    assert "End of input" in out
    assert not replay_file(path).finished
    status, out = run_play(monkeypatch, ["--seed", "9", "--opponent", "random"], "")
    assert status == 0 and "End of input" in out


def test_bad_options_are_one_line_errors(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--rules", "classic,nonsense=1"]) == 2
    assert main(["play", "--opponent", "no-such-bot"]) == 2
    assert main(["play", "--opponent", "random", "--save", str(tmp_path / "no" / "dir.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("sixtysix: error:") == 3
    assert "Traceback" not in err


# What is shown ---------------------------------------------------------------------

def test_memory_hides_running_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    _, normal = run_play(monkeypatch, ["--seed", "6", "--opponent", "random"], first_choice)
    assert re.search(r"^Points: You \d+ \(\d+ tricks?\), Computer", normal, re.MULTILINE)
    assert re.search(r"wins? the trick \(\d+ points\)", normal)
    status, out = run_play(monkeypatch, ["--seed", "6", "--opponent", "random", "--memory"],
                           first_choice)
    assert status == 0
    screens = [s for s in out.split("\n== Hand ")[1:]]
    assert screens
    for screen in screens:
        table = screen[:screen.index(CHOOSE)]
        assert "Points:" not in table
        assert "Known in" not in table
        assert "points hidden" in table
        assert not re.search(r"\(\d+ points\)", table)
    assert not re.search(r"wins? the trick \(", out)
    # The result of each hand still shows the totals (the cards are counted at the end).
    assert re.search(r"^Points: You \d+ .*\.$", out, re.MULTILINE)
    assert re.search(r"^(You win|Computer wins) the match", out, re.MULTILINE)


def test_plain_and_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    _, plain = run_play(monkeypatch, ["--seed", "2", "--opponent", "random"], "quit\n")
    assert "\x1b[" not in plain
    assert not set("♣♦♥♠") & set(plain)
    _, colour = run_play(monkeypatch, ["--seed", "2", "--opponent", "random", "--color"], "quit\n")
    assert "\x1b[" in colour
    assert "Your hand:" in colour


class FakeTerminal(io.StringIO):
    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


def test_style_follows_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert isinstance(pick_style(FakeTerminal(), None), AnsiStyle)
    assert type(pick_style(io.StringIO(), None)) is Style
    assert type(pick_style(FakeTerminal(), False)) is Style
    assert isinstance(pick_style(io.StringIO(), True), AnsiStyle)
    monkeypatch.setenv("NO_COLOR", "1")
    assert type(pick_style(FakeTerminal(), None)) is Style
    style = AnsiStyle()
    assert style.card(Card.parse("TH"), None) == "\x1b[31m10♥\x1b[0m"
    # A red card inside a coloured sentence gives the sentence its colour back.
    assert style.other(f"x {style.card(Card.parse('KD'))} y").endswith("\x1b[0m\x1b[36m y\x1b[0m")


def _tokens(card: Card) -> list[str]:
    rank = "10" if card.rank is Rank.TEN else card.rank.letter
    return [str(card), rank + card.suit.symbol]


def _hidden(session: PlaySession) -> set[Card]:
    """Cards the human must not see: the computer's unknown cards and the stock's hidden ones."""
    hand = session._match.hand
    assert hand is not None
    view = hand.view(session.human_seat)
    hidden = set(hand.cards(session.bot_seat)) | set(hand.stock)
    hidden -= view.known_opponent_cards()
    hidden.discard(view.dealt_trump_card)  # it lay face up
    if view.exchange is not None:
        hidden.discard(Card(view.trump, Rank.NINE))  # the nine given lay face up
    return hidden


@pytest.mark.parametrize("style", [Style(), AnsiStyle(color=False, symbols=True)],
                         ids=["plain", "symbols"])
def test_screen_never_shows_hidden_cards(style: Style) -> None:
    steps = 0
    for seed in range(30):
        rng = random.Random(seed)
        session = PlaySession(make_bot("random", seed=seed), rules=Rules(), human_seat=seed % 2,
                              seed=seed)
        out = io.StringIO()

        def answer(text: str, session: PlaySession = session, rng: random.Random = rng) -> str:
            nonlocal steps
            steps += 1
            hand_text = text[text.rindex("--- Hand"):]
            for card in _hidden(session):
                for token in _tokens(card):
                    assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(token)}(?![0-9A-Za-z])",
                                         hand_text), (token, hand_text)
            view = session.view
            assert view is not None
            legal = [a for a in view.legal if not a.is_declaration] or list(view.legal)
            return f"{rng.choice(legal)}\n"

        ui = LineUI(session, stdin=ScriptedStdin(out, answer), stdout=out, style=style,
                    seats=Seats(session.human_seat))
        assert ui.run() == 0
        assert session.over
    assert steps > 500


def test_render_screen_shows_the_table() -> None:
    hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
    for token in ("AD", "9C", "D", "9D", "QD", "D", "KS+"):
        hand.push(Action.parse(token))
    text = render_screen(hand.view(1), Style(), Seats(1))
    assert "Trump: clubs, turned up QC   Stock: 8 cards" in text
    assert "On the table: You led KS" in text
    assert "Marriages: you: spades KS QS (20)" in text
    assert "Points: You 23 (1 trick), Computer 11 (1 trick)" in text
    assert "Your hand: AC* TC* | JD | AS QS" in text
    assert "Last trick" not in text  # a card is led: the last trick is turned (R3.5)
    before = hand.copy()
    before.pop()
    text = render_screen(before.view(1), Style(), Seats(1), memory=True)
    assert "Last trick: Computer led 9D, you played QD - you won it" in text
    assert "Points" not in text and "(3 points)" not in text
    assert "Tricks: You 1 trick, Computer 1 trick (points hidden: memory mode)" in text


def test_session_without_io() -> None:
    """The game loop runs without any text I/O (a front end drives it)."""
    rng = random.Random(1)
    session = PlaySession(make_bot("random", seed=1), seed=1)
    events = session.start()
    count = 0
    while not session.over:
        view = session.view
        assert view is not None and session.waiting
        legal = [a for a in view.legal if not a.is_declaration] or list(view.legal)
        events += session.play(rng.choice(legal))
        count += 1
    assert type(events[-1]).__name__ == "MatchOver"
    assert session.record().to_json()["hands"]
    assert count > 10


def seeded_position(seed: int, moves: int) -> Hand:
    """A seeded deal after ``moves`` random actions (seeded too)."""
    hand = Hand.random(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        hand.push(rng.choice(list(hand.legal_actions())))
    return hand


#: The plain mode's cards: notation, as its hand and its choices show them (``KS``).
PLAIN_CARD = re.compile(r"\b[9TJQKA][CDHS]\b")


@pytest.mark.parametrize(("seed", "moves"), [(32, 0), (185, 0), (75, 3)])
def test_the_plain_hint_reads_as_sentences_with_cards_as_the_plain_mode_shows_them(seed: int,
                                                                                   moves: int) -> None:
    """A hint whose best action is a marriage, with an action about as good (a card or
    the other marriage), in the plain line mode: the marriage is said in words ("Announce
    the marriage in hearts and lead KH: ..."), the action as good in a sentence of its
    own ("9C is about as good."), never "Marriage: KH and lead it is about as good"; every
    card is named as the plain mode's hand and choices name it, never otherwise."""
    hand = seeded_position(seed, moves)
    view = hand.view(hand.to_act)  # type: ignore[arg-type]
    style = pick_style(io.StringIO(), None)  # what `sixtysix play` uses off a terminal
    lines = analyse(view, Budget(worlds=16), seed=1)
    advice = advise(lines)
    best = advice.best.action
    rival = advice.rival.action if advice.rival is not None else None
    assert best.kind is ActionKind.MARRIAGE and rival is not None  # the position is one that asks for it
    text = advice_text(lines, view, style)
    shown = set(PLAIN_CARD.findall(render_hand(view, style)))
    assert set(PLAIN_CARD.findall(text)) <= shown and "♥" not in text and "10" not in text, text
    assert "Marriage:" not in text and "and lead it" not in text, text
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    first, second = re.fullmatch(r"(.+?(?:\)|[a-z])\.) (\S.+\.)", text).groups()  # type: ignore[union-attr]
    marriage = f"Announce the marriage in {suits[str(best)[1]]} and lead {str(best)[:2]}: "
    assert first.startswith(marriage), text
    if rival.kind is ActionKind.MARRIAGE:
        want = (f"Announcing the marriage in {suits[str(rival)[1]]} and leading {str(rival)[:2]} "
                "is about as good.")
    else:
        want = f"{rival} is about as good."
    assert second == want, text
