"""The terminal game through Textual's pilot: keys and clicks, and what the screen shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from need import need_tui

need_tui()

from support import (  # noqa: E402
    game,
    log,
    make_app,
    play_one_hand,
    play_one_hand_step,
    settle,
    shown_hand,
    synchronous,
    text,
    visible_buttons,
)
from textual.widgets import Label, Static  # noqa: E402

from sixtysix.game.actions import (  # noqa: E402
    Action,
    ActionKind,
)
from sixtysix.game.record import MatchRecord, MatchReplay, load, replay  # noqa: E402
from sixtysix.present.text.screen import sorted_cards  # noqa: E402
from sixtysix.tui.app import SixtySixApp  # noqa: E402
from sixtysix.tui.statistics import Statistics  # noqa: E402
from sixtysix.tui.storage import SPEEDS, Settings  # noqa: E402
from sixtysix.tui.widgets import CardRow, MessageLog  # noqa: E402


@synchronous
async def test_a_whole_hand_through_the_screen(data_dir: Path) -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        status = text(screen.query_one("#status"))
        assert "Hand 1" in status and "Match: You 0, Computer 0 (to 7)" in status
        assert "Cut for the deal" in log(screen) and "--- Hand 1:" in log(screen)
        moves = await play_one_hand(pilot, screen)
        assert moves >= 3
        # The hand's end: the result with its reason and game points, the match score.
        session = screen.session
        replayed = replay(session.record())
        assert isinstance(replayed, MatchReplay)
        result = replayed.hands[0].result
        assert result is not None and result.winner is not None
        story = log(screen)
        assert ("You win the hand" in story) == (result.winner == 0)
        assert ("Computer wins the hand" in story) == (result.winner == 1)
        gp = result.game_points
        assert f"{gp} game point{'s' if gp != 1 else ''}" in story
        score = session.score
        assert f"Match: You {score[0]}, Computer {score[1]}" in text(screen.query_one("#status"))
        prompt = text(screen.query_one("#prompt"))
        assert f"the hand: {gp} game point" in prompt and "Enter: next hand" in prompt
        assert visible_buttons(screen) == {"next-hand"}
        # The finished hand is saved and counted.
        record = load(str(screen.record_path))
        assert isinstance(record, MatchRecord) and len(record.hands) == 1
        assert record.extra["players"] == ["Human", "computer (medium)"]
        assert record.extra["seed"] == 5
        stats = Statistics(data_dir / "statistics.sqlite3")
        assert stats.totals()[2:] == (1, int(result.winner == 0))
        stats.close()
        # Enter deals the next hand.
        await pilot.press("enter")
        await settle(pilot)
        assert "Hand 2" in text(screen.query_one("#status"))
        assert "--- Hand 2:" in log(screen)
        await pilot.press("q")
    # Leaving saves the whole record, the hand in progress included.
    record = load(str(screen.record_path))
    assert isinstance(record, MatchRecord) and len(record.hands) == 2


@synchronous
async def test_the_same_seed_gives_the_same_game() -> None:
    stories = []
    for _ in range(2):
        app = make_app(seed=11)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await play_one_hand(pilot, game(app))
            stories.append(log(game(app)))
            await pilot.press("q")
    assert stories[0] == stories[1]


@synchronous
async def test_an_illegal_card_is_refused_with_the_reason() -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        # A key for an action that is not legal says why and changes nothing.
        before = screen.session.view
        await pilot.press("x")  # no exchange before winning a trick (R4.1)
        await settle(pilot)
        assert screen.session.view == before
        # In words, not the notation the player never typed (issue 37, item 3).
        assert "You cannot exchange the trump card now: the exchange needs a trick won first" in log(screen)
        assert "X is not allowed" not in log(screen)
        await pilot.press("9")  # there is no ninth card: ignored
        await settle(pilot)
        assert screen.session.view == before


#: What each kind of action is called in a hint, written apart from the code (as the page
#: names them); cards are added as on the card.
HINT_WORDS = {ActionKind.CLOSE: "Close the stock", ActionKind.DRAW: "Draw", ActionKind.DECLARE: "Declare 66",
              ActionKind.EXCHANGE: "Exchange", ActionKind.DECLARE_MARRIAGE: "Show the "}


def hint_words(action: Action, sentence: bool = False) -> str:
    """How the numbers name an action; at the head of the hint's sentence (``sentence``) a
    marriage is said in words of its own."""
    if action.card is None or action.kind is ActionKind.EXCHANGE:
        return HINT_WORDS[action.kind]
    card = ("10" if action.card.rank.letter == "T" else action.card.rank.letter) + action.card.suit.symbol
    if action.kind is ActionKind.MARRIAGE:
        suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[action.card.suit.letter]
        return (f"Announce the marriage in {suit} and lead {card}" if sentence else
                f"Marriage: {card} and lead it")
    return f"Play {card}"


@synchronous
async def test_the_hint_speaks_words_and_marks_the_best_and_h_again_gives_the_numbers() -> None:
    """Issue 37, item 4: h says the best action in words, what it wins on average and how
    sure; h again shows every legal action in words with its game points. No action is
    named by its code (D, C)."""
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        await pilot.press("h")
        await settle(pilot)
        view = screen.session.view
        assert view is not None and screen.hinted in view.legal
        advice = [line for line in log(screen).splitlines() if line.startswith("Hint: ")]
        assert len(advice) == 1
        assert advice[0].startswith(f"Hint: {hint_words(screen.hinted, sentence=True)}: ")
        sure = r"\((quite sure|fairly sure|a rough guess: the hidden cards could change it)\)"
        assert re.search(rf": (it (wins|loses) about \d\.\d game points on average {sure}|it is about even|"
                         r"with best play)", advice[0])
        assert "Game points for you" not in log(screen)
        if screen.hinted.card is not None and screen.hinted.kind is ActionKind.PLAY:
            places = screen.query_one("#hand", CardRow).places
            assert [p.card for p in places if p.has_class("hinted")] == [screen.hinted.card]
            assert [p.card for p in places if p.border_title == "★"] == [screen.hinted.card]
        await pilot.press("h")
        await settle(pilot)
        numbers = log(screen)[log(screen).index("Game points for you with each action, best first: "):]
        parts = numbers.split(": ", 1)[1].split(" · ")
        assert len(parts) == len(view.legal)
        for action in view.legal:
            assert sum(part.startswith(hint_words(action) + " ") for part in parts) == 1, (action, parts)
        assert not [part for part in parts if re.match(r"(C|D|66|X) ", part)]


@synchronous
async def test_undo_is_off_by_default_and_marked_in_the_record_when_on() -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        await pilot.press("1")
        await settle(pilot)
        before = screen.session.view
        await pilot.press("u")
        await settle(pilot)
        assert screen.session.view == before and "Undo is off" in log(screen)
        assert "undo" not in visible_buttons(screen)
        await pilot.press("q")
    assert "undo" not in load(str(screen.record_path)).extra

    app = make_app(seed=5, undo=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        start = screen.session.view
        assert "undo" not in visible_buttons(screen)  # nothing to take back yet
        await pilot.press("1")
        await settle(pilot)
        assert screen.session.view != start
        assert "undo" in visible_buttons(screen)
        await pilot.click("#undo")
        await settle(pilot)
        assert screen.session.view == start
        assert shown_hand(screen) == sorted_cards(start.hand, start.trump)
        assert "You took your last action back" in log(screen)
        assert text(screen.query_one("#status")).endswith("· undo")
        await pilot.press("q")
    record = load(str(screen.record_path))
    assert record.extra["undo"] == {"allowed": True, "taken_back": 1}


@synchronous
async def test_memory_mode_hides_the_running_scores() -> None:
    app = make_app(seed=5, memory=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        await pilot.press("1")
        await settle(pilot)
        shown = text(screen.query_one("#info")) + text(screen.query_one("#opponent")) + log(screen)
        assert "points hidden" in shown
        assert " points)" not in log(screen)  # "wins the trick (14 points)" is left out
        assert "points" not in text(screen.query_one("#opponent"))


@synchronous
async def test_settings_screen_saves_and_starts_a_new_match(data_dir: Path) -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first = game(app)
        await pilot.press("o")
        await pilot.pause()
        from textual.widgets import Select

        from sixtysix.tui.screens import SettingsScreen

        settings_screen = app.screen
        assert isinstance(settings_screen, SettingsScreen)
        settings_screen.query_one("#level", Select).value = "random"
        settings_screen.query_one("#preset", Select).value = "santase"
        settings_screen.query_one("#language", Select).value = "hu"  # from the next start on
        await pilot.click("#save-new")
        await settle(pilot)
        second = game(app)
        assert second is not first
        status = text(second.query_one("#status"))
        assert "santase" in status and "(to 11)" in status
        assert "Computer (random)" in text(second.query_one("#opponent"))
        await pilot.press("q")
    from sixtysix.tui.storage import load_settings

    assert (load_settings().level, load_settings().preset) == ("random", "santase")
    # The language saved is the one the game starts in next, unless --lang says otherwise.
    from sixtysix.tui.run import start_language

    assert load_settings().language == "hu"
    assert start_language(load_settings(), None) == "hu"
    assert start_language(load_settings(), "de") == "de"


@synchronous
async def test_rules_statistics_and_records_screens(data_dir: Path, tmp_path: Path) -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_one_hand(pilot, game(app))
        record_path = game(app).record_path
        await pilot.press("r")
        await pilot.pause()
        from textual.widgets import DataTable, MarkdownViewer

        from sixtysix.tui.replay import ReplayScreen
        from sixtysix.tui.screens import RecordsScreen, RulesScreen, StatisticsScreen

        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.pause()
        from sixtysix.tui.screens import KeysScreen

        assert isinstance(app.screen, KeysScreen)
        assert "declare 66" in text(app.screen.query(Static).first())
        await pilot.press("escape")
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.query_one(MarkdownViewer).document.source.startswith("# How to play Sixty-six")
        await pilot.press("escape")
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, StatisticsScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1
        row = table.get_row_at(0)
        # The match is unfinished: neither won nor lost (issue 37), counted apart.
        assert row[:4] == ["medium", "classic", "0/0", f"{int(game(app).info.score[0] > 0)}/1"]
        notes = text(app.screen.query_one("#stats-notes"))
        assert "0 of 0 finished matches" in notes and "1 match is unfinished" in notes
        await pilot.press("escape")
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, RecordsScreen)
        assert [info.path for info in app.screen.records] == [record_path]
        # Export to a folder.
        await pilot.press("e")
        await pilot.pause()
        from textual.widgets import Input

        app.screen.query_one("#export-path", Input).value = str(tmp_path)
        await pilot.press("enter")
        await pilot.pause()
        assert (tmp_path / record_path.name).read_text() == record_path.read_text()
        # Open the replay viewer.
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RecordsScreen)
        await pilot.press("q")


@pytest.mark.parametrize(("seed", "preset"), [(1, "classic"), (2, "pagat"), (3, "santase"), (4, "classic")])
@synchronous
async def test_the_screen_never_shows_a_hidden_card(seed: int, preset: str) -> None:
    # play_one_hand checks the whole screen's text at every turn and at the end (R11.2).
    app = make_app(seed=seed, level="random", preset=preset)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        assert await play_one_hand(pilot, game(app)) > 0
        await pilot.press("q")


@synchronous
async def test_save_writes_the_record_to_a_second_file_too(tmp_path: Path) -> None:
    also = tmp_path / "mine.json"
    app = SixtySixApp(seed=5, settings=Settings(speed="off"), save=also)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_one_hand(pilot, game(app))
        assert load(str(also)) == load(str(game(app).record_path))
        await pilot.press("q")
    assert app.last_record == also


@synchronous
async def test_animation_shows_one_action_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # A pause far longer than the test: each step is then taken by hand below.
    monkeypatch.setitem(SPEEDS, "slow", 3600.0)
    app = make_app(seed=6, speed="slow")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        while screen.busy:  # the computer may have led: show its actions one by one
            screen._drain()
        await pilot.pause()
        assert screen.my_turn
        lines = len(screen.query_one(MessageLog).lines())
        await pilot.press("1")
        await settle(pilot)
        # Only the human's card is shown; the computer's answer waits its turn.
        assert screen.busy and screen.queue and not screen.my_turn
        story = screen.query_one(MessageLog).lines()[lines:]
        assert len(story) == 1 and story[0].startswith("You lead")
        assert "playing" in text(screen.query_one("#prompt"))
        screen._drain()  # the pause is over
        await pilot.pause()
        story = screen.query_one(MessageLog).lines()[lines:]
        assert story[1].startswith("Computer plays")


@pytest.mark.parametrize("auto", [True, False])
@synchronous
async def test_automatic_66_for_beginners(auto: bool) -> None:
    app = make_app(seed=5, auto_declare=auto)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        assert screen.session.rules.auto_declare == auto
        offered: set[str] = set()
        while not screen.paused:
            offered |= visible_buttons(screen)
            await play_one_hand_step(pilot, screen)
        # Without the option, declaring is offered after a won trick (R8.1); with it, never.
        assert any(name.startswith("declare") for name in offered) == (not auto)
        if auto:
            assert "You declare 66" not in log(screen)
        await pilot.press("q")


@synchronous
async def test_n_leaves_the_match_saved_and_starts_the_next_seed(data_dir: Path) -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first = game(app)
        await play_one_hand(pilot, first)
        await pilot.press("n")
        await settle(pilot)
        second = game(app)
        assert second is not first and second.setup.seed == 6
        assert "Hand 1" in text(second.query_one("#status"))
        await pilot.press("q")
    record = load(str(first.record_path))
    assert isinstance(record, MatchRecord) and len(record.hands) == 2  # the second hand unfinished
    stats = Statistics(data_dir / "statistics.sqlite3")
    (line,) = stats.summary()
    assert (line.matches, line.matches_finished, line.hands) == (1, 0, 1)
    stats.close()


class ClosingBot:
    """The medium bot, with a ``close`` that counts its calls (as bots with helper
    processes have)."""

    def __init__(self, seed: int) -> None:
        from sixtysix.bots import make_bot

        self.inner = make_bot("medium", seed=seed)
        self.name = "medium"
        self.closed = 0

    def new_hand(self, view: object) -> None:
        self.inner.new_hand(view)  # type: ignore[attr-defined]

    def observe(self, event: object) -> None:
        self.inner.observe(event)  # type: ignore[attr-defined]

    def choose(self, view: object, legal: object) -> object:
        assert not self.closed, "a closed bot was asked to play"
        return self.inner.choose(view, legal)  # type: ignore[arg-type]

    def close(self) -> None:
        self.closed += 1


@synchronous
async def test_the_computer_player_is_closed_when_the_match_is_left(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from sixtysix.tui.game import MatchSetup

    bots: list[ClosingBot] = []

    def make_opponent(setup: MatchSetup) -> ClosingBot:
        bots.append(ClosingBot(setup.seed))
        return bots[-1]

    monkeypatch.setattr(MatchSetup, "make_opponent", make_opponent)
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_one_hand_step(pilot, game(app))
        assert [b.closed for b in bots] == [0]
        await pilot.press("n")
        await settle(pilot)
        assert [b.closed for b in bots] == [1, 0]
        await pilot.press("q")
    assert [b.closed for b in bots] == [1, 1]


@synchronous
async def test_with_one_card_left_the_prompt_names_one_key() -> None:
    """Issue 37, item 5: with one card in hand the prompt says "press 1", not "press 1–1"."""
    app = make_app(seed=5, level="random", auto_declare=False)  # nobody declares early
    prompts: dict[int, str] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        while 1 not in prompts and not screen.match_over:  # hands until one is played to its last card
            if screen.paused:
                await pilot.press("enter")
                await settle(pilot)
                continue
            view = screen.session.view
            assert view is not None
            if Action.parse("D") not in view.legal:
                prompts[len(view.hand)] = text(screen.query_one("#prompt"))
            await play_one_hand_step(pilot, screen)
    assert 1 in prompts, prompts
    assert re.search(r"press 1[ .]", prompts[1]) and "1–1" not in prompts[1], prompts[1]
    assert all(f"press 1–{n}" in p for n, p in prompts.items() if n > 1), prompts


@synchronous
async def test_a_settings_list_opens_as_a_framed_menu_and_no_label_is_cut(data_dir: Path) -> None:
    """Issue 37, item 5: an opened list of the settings is a menu with a frame of its own
    (not bare lines spilled over the game behind the dialog), on the screen; and every
    setting's name is shown whole (not "Ask before closing or")."""
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()
        dialog = app.screen
        for label in dialog.query("#settings-grid Label"):
            assert isinstance(label, Label)
            assert label.region.width >= len(str(label.render())), str(label.render())
        await pilot.click("#language")
        await pilot.pause()
        overlay = dialog.query_one("#language SelectOverlay")
        assert overlay.display and overlay.region.height > 0
        assert overlay.styles.border_top[0] not in ("", "none", "hidden")  # a frame of its own
        assert app.screen.region.contains_region(overlay.region)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@synchronous
async def test_every_list_of_the_settings_opens_inside_the_dialog(data_dir: Path,
                                                                 size: tuple[int, int]) -> None:
    """Each list of the settings (the languages above all), opened with Enter, lies wholly
    inside the dialog's frame with all its choices in sight, on a terminal of 80×24 and a
    larger one: no line of it over the game behind."""
    from textual.widgets import Select
    from textual.widgets._select import SelectOverlay

    from sixtysix.i18n import LANGUAGES
    from sixtysix.tui.screens import SettingsScreen

    app = make_app(seed=5)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        box = screen.query_one("#settings-box").region
        lists = list(screen.query(Select))
        assert "language" in [select.id for select in lists]
        for select in lists:
            select.focus()
            await pilot.press("enter")
            await pilot.pause()
            overlay = select.query_one(SelectOverlay)
            assert select.expanded and overlay.display, select.id
            if select.id == "language":
                assert overlay.option_count == len(LANGUAGES) + 1  # "as the system", then each
            assert overlay.region.height >= overlay.option_count + 2, select.id  # none scrolled away
            assert box.contains_region(overlay.region), (select.id, box, overlay.region)
            await pilot.press("escape")
            await pilot.pause()
            assert not select.expanded and isinstance(app.screen, SettingsScreen)
