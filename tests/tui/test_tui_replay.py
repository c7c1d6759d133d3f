"""The replay viewer through the pilot: stepping, both hands, the verdicts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from need import need_tui

need_tui()

from support import settle, synchronous, text  # noqa: E402

from sixtysix import i18n  # noqa: E402
from sixtysix.bots import make_bot  # noqa: E402
from sixtysix.bots.analysis import Budget  # noqa: E402
from sixtysix.cli import main  # noqa: E402
from sixtysix.cli import view as view_cli  # noqa: E402
from sixtysix.game.record import Record, load  # noqa: E402
from sixtysix.play.session import PlaySession  # noqa: E402
from sixtysix.present.text.screen import sorted_cards  # noqa: E402
from sixtysix.tui.app import SixtySixApp  # noqa: E402
from sixtysix.tui.replay import ReplayScreen  # noqa: E402
from sixtysix.tui.widgets import CardRow  # noqa: E402

EXAMPLE = Path(__file__).parent.parent / "examples" / "0000.json"


def viewer(app: SixtySixApp) -> ReplayScreen:
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


def shown(screen: ReplayScreen, row: str) -> list[object]:
    return [p.card for p in screen.query_one(row, CardRow).places if p.display]


@synchronous
async def test_stepping_through_a_hand_shows_both_hands_and_a_verdict() -> None:
    record = load(str(EXAMPLE))
    app = SixtySixApp(replay=(record, EXAMPLE.name), replay_budget=Budget(worlds=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = viewer(app)
        assert "action 0/30" in text(screen.query_one("#replay-status"))
        assert text(screen.query_one("#step")).startswith("The deal: Player 0 deals")
        for k in range(1, 31):
            await pilot.press("right")
            await settle(pilot)
            hand = screen.review.position(0, k)
            assert shown(screen, "#bottom-hand") == sorted_cards(hand.cards(0), hand.trump)
            assert shown(screen, "#top-hand") == sorted_cards(hand.cards(1), hand.trump)
            assert f"action {k}/30" in text(screen.query_one("#replay-status"))
            assert text(screen.query_one("#step")).startswith(f"{k}. Player ")
            verdict = text(screen.query_one("#verdict"))
            assert verdict.startswith(("A best action", "As good as any", "This action lost")), verdict
        assert "wins" in text(screen.query_one("#info"))
        await pilot.press("right")  # past the end: stays
        assert screen.k == 30
        await pilot.press("home")
        assert screen.k == 0
        await pilot.press("end")
        assert screen.k == 30
        await pilot.press("a")
        assert "Analysis off" in text(screen.query_one("#verdict"))
        await pilot.press("escape")  # the viewer alone: closing it ends the app
    assert app.return_code == 0


@synchronous
async def test_a_match_record_steps_across_hands() -> None:
    session = PlaySession(make_bot("random", seed=4), seed=4)
    session.start()
    while not session.over:
        view = session.view
        assert view is not None
        session.play(view.legal[0])
    record = session.record(players=["Ann", "Bob"])
    app = SixtySixApp(replay=(record, "match.json"), replay_budget=Budget(worlds=2))
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        screen = viewer(app)
        assert "hand 1/" in text(screen.query_one("#replay-status"))
        assert "Ann" in text(screen.query_one("#bottom-label"))
        await pilot.press("down")
        await settle(pilot)
        assert screen.h == 1 and screen.k == 0
        a, b = screen.review.score_before(1)
        assert f"match {a}-{b}" in text(screen.query_one("#replay-status"))
        await pilot.press("left")  # back over the start of hand 2: the end of hand 1
        await settle(pilot)
        assert (screen.h, screen.k) == (0, screen.review.steps(0))
        await pilot.press("q")


# -- Issue 37, item 5: the viewer in words, the score it shows, whole names ---------------

#: A card or an action written as a code (KH, TD, 66+H), which the viewer must not show.
CODE = re.compile(r"(?<![\w♣♦♥♠])([9TJQKA][CDHS]\+?|66\+[CDHS])(?![\w])")


def finished_match(players: list[str]) -> Record:
    session = PlaySession(make_bot("random", seed=4), seed=4)
    session.start()
    while not session.over:
        view = session.view
        assert view is not None
        session.play(view.legal[0])
    return session.record(players=players)


@synchronous
async def test_the_verdicts_name_the_best_action_in_words_and_cards_as_on_the_card() -> None:
    record = load(str(EXAMPLE))
    app = SixtySixApp(replay=(record, EXAMPLE.name), replay_budget=Budget(worlds=4))
    lost = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = viewer(app)
        for _ in range(30):
            await pilot.press("right")
            await settle(pilot)
            verdict = text(screen.query_one("#verdict"))
            assert not CODE.search(verdict), verdict
            if verdict.startswith("This action lost"):
                lost.append(verdict)
        await pilot.press("q")
    assert lost  # the example has worse actions than the best: each names the best in words
    best = re.compile(r"\. Best: (Play|Marriage|Exchange|Close|Draw|Declare|Show) ")
    assert all(best.search(v) for v in lost), lost


@synchronous
async def test_the_match_score_counts_a_hand_once_it_is_over() -> None:
    record = finished_match(["Ann", "Bob"])
    app = SixtySixApp(replay=(record, "match.json"), replay_budget=Budget(worlds=2))
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        screen = viewer(app)
        assert "match 0-0" in text(screen.query_one("#replay-status"))
        await pilot.press("end")  # the last action of hand 1: its game points are scored
        await settle(pilot)
        result = screen.review.position(0, screen.review.steps(0)).result()
        assert result is not None and result.winner is not None
        score = [0, 0]
        score[result.winner] = result.game_points + result.bonus
        assert f"match {score[0]}-{score[1]}" in text(screen.query_one("#replay-status"))
        assert screen.review.score_before(1) == tuple(score)  # as the next hand starts from
        await pilot.press("q")


@synchronous
async def test_names_over_the_trick_are_whole() -> None:
    record = finished_match(["Human", "computer (medium)"])
    app = SixtySixApp(replay=(record, "match.json"), replay_budget=Budget(worlds=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = viewer(app)
        assert text(screen.query_one("#top-name")) == "computer"
        assert text(screen.query_one("#bottom-name")) == "Human"
        assert "computer (medium)" in text(screen.query_one("#top-label"))
        await pilot.press("q")


def test_view_speaks_the_language_asked_for(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    languages = []

    def run(app: SixtySixApp) -> None:
        languages.append(i18n.language())

    monkeypatch.setattr(SixtySixApp, "run", run)
    monkeypatch.setattr(view_cli, "_isatty", lambda stream: True)
    for lang in ("de", "hu"):
        assert main(["view", str(EXAMPLE), "--lang", lang]) == 0
    assert languages == ["de", "hu"]
