"""The bridge to the ``schnapsen`` course platform (sixtysix.compat.schnapsen):
its engine and ours agree on every deal under the preset ``course`` (docs/schnapsen.md
S13), our bots play inside its engine seeing only their own view, and the arena runs
its bots against ours."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from helpers import need_module
from sixtysix import Action, Hand
from sixtysix.cli import main
from sixtysix.game.cards import pack

need_module("schnapsen", "pip install -e '.[schnapsen]'")

from schnapsen.bots import BullyBot, RandBot, RdeepBot  # noqa: E402
from schnapsen.game import Bot, GamePhase, SchnapsenGamePlayEngine  # noqa: E402

from sixtysix.compat.schnapsen import (  # noqa: E402
    COURSE,
    BridgeError,
    SixtySixBot,
    course_bot,
    from_card,
    play_deal,
    to_card,
    to_move,
    view_of,
)
from sixtysix.errors import BotError  # noqa: E402


def test_cards_map_both_ways_for_the_20_card_pack() -> None:
    for card in pack(20):
        assert to_card(from_card(card)) == card
    assert len({from_card(c) for c in pack(20)}) == 20


class Checker(Bot):
    """Plays like ``inner`` and checks, at every decision, that the view the bridge
    builds says what the platform's perspective says; keeps the end perspective."""

    def __init__(self, inner: Any) -> None:
        super().__init__(str(inner))
        self.inner = inner
        self.decisions = 0
        self.end: Any = None
        self.won: bool | None = None

    def get_move(self, perspective: Any, leader_move: Any) -> Any:
        view = view_of(perspective, leader_move)
        seat = view.seat
        opp = 1 - seat
        assert view.rules == COURSE
        assert view.to_act == seat and (view.lead is None) == (leader_move is None)
        assert view.hand == {to_card(c) for c in perspective.get_hand()}
        # The legal actions are exactly the platform's valid moves (S13.2, S13.5, S13.6).
        moves = {repr(to_move(a, perspective)) for a in view.legal}
        assert moves == {repr(m) for m in perspective.valid_moves()}
        assert len(moves) == len(view.legal)
        # Scores: counted points and marriage points still pending (S13.4).
        mine, theirs = perspective.get_my_score(), perspective.get_opponent_score()
        assert view.scores[seat] == mine.direct_points and view.scores[opp] == theirs.direct_points
        waiting = [0, 0]
        waiting[seat], waiting[opp] = mine.pending_points, theirs.pending_points
        if leader_move is not None and leader_move.is_marriage():
            # Their engine scores a marriage with its trick; ours when it is announced.
            waiting[opp] += 40 if leader_move.suit == perspective.get_trump_suit() else 20
        assert view.pending_marriages == tuple(waiting)
        assert view.stock_size == perspective.get_talon_size()
        face_up = perspective.get_trump_card()
        assert view.trump_card == (None if face_up is None else to_card(face_up))
        # Hidden information: the view knows what the player has seen, and no more.
        # (Their list still holds a card he has just led to this trick; ours does not.)
        # Nor has it the Queen of a marriage he is leading now, which ours has.
        known = {to_card(c) for c in perspective.get_known_cards_of_opponent_hand()} - view.played
        if leader_move is not None and leader_move.is_marriage():
            known.add(to_card(leader_move.queen_card))
        if perspective.get_phase() == GamePhase.ONE:
            seen = {to_card(c) for c in perspective.seen_cards(leader_move)}
            assert view.known_opponent_cards() == known
            assert view.unseen() == set(pack(20)) - seen - known - view.played
        else:
            assert view.unseen() | view.known_opponent_cards() == known  # his whole hand
        self.decisions += 1
        return self.inner.get_move(perspective, leader_move=leader_move)

    def notify_trump_exchange(self, move: Any) -> None:
        self.inner.notify_trump_exchange(move)

    def notify_game_end(self, won: bool, perspective: Any) -> None:
        self.end, self.won = perspective, won
        self.inner.notify_game_end(won, perspective)


@pytest.mark.parametrize("kind", ["rand", "bully"])
def test_both_engines_agree_on_300_deals(kind: str) -> None:
    """Every deal of their engine, replayed in ours under the preset course, is legal
    action by action and ends the same way: same winner, same game points (S13)."""
    engine = SchnapsenGamePlayEngine()
    points_seen = set()
    decisions = 0
    for seed in range(150 if kind == "rand" else 100):
        rng = random.Random(seed)
        make = RandBot if kind == "rand" else BullyBot
        first = Checker(make(random.Random(rng.random())))
        second = Checker(RandBot(random.Random(rng.random())))
        winner, game_points, _ = engine.play_game(first, second, random.Random(seed))
        assert first.end is not None and first.won == (winner is first)
        # The whole deal as the first player saw it at the end, rebuilt in our engine.
        from sixtysix.compat.schnapsen import _rebuild

        hand = _rebuild(first.end, None, COURSE).hand
        result = hand.result()
        assert result is not None, "our engine did not end the deal where theirs did"
        assert result.winner == (0 if winner is first else 1)
        assert result.game_points == game_points
        points_seen.add(game_points)
        decisions += first.decisions + second.decisions
    assert points_seen == {1, 2, 3}
    assert decisions > 1000  # every one of them checked by Checker


class Spy:
    """A sixtysix bot that records the views it is given and plays the first legal action."""

    name = "spy"

    def __init__(self) -> None:
        self.views: list[Any] = []
        self.events: list[Any] = []
        self.hands = 0

    def new_hand(self, view: Any) -> None:
        self.hands += 1

    def observe(self, event: Any) -> None:
        self.events.append(event)

    def choose(self, view: Any, legal: Any) -> Action:
        self.views.append(view)
        return legal[-1]


def test_a_wrapped_bot_gets_views_hooks_and_a_new_hand_each_deal() -> None:
    spy = Spy()
    ours = SixtySixBot(spy)
    engine = SchnapsenGamePlayEngine()
    for seed in range(4):
        engine.play_game(ours, RandBot(random.Random(seed)), random.Random(seed))
    assert spy.hands == 4
    assert spy.views and all(v.rules == COURSE and v.seat == 0 for v in spy.views)
    # observe saw every action, both seats', in the order of the views' histories.
    last = spy.views[-1]
    assert [(e.seat, e.action) for e in spy.events[-len(last.history):]] == list(last.history)


def test_a_full_deal_on_their_engine_with_our_search_bot() -> None:
    """The issue's check: our bot (here the ISMCTS searcher at a small budget) plays a
    whole deal inside their engine against their strongest bot."""
    ours = SixtySixBot("ismcts:iterations=60,workers=1", seed=3)
    theirs = RdeepBot(num_samples=4, depth=4, rand=random.Random(4))
    for seed, players in ((11, (ours, theirs)), (11, (theirs, ours))):
        result = play_deal(list(players), seed)
        assert result.game_points in (1, 2, 3)
        assert result.points[result.winner] >= 66 or result.reason == "played_out"


def test_actions_the_platform_does_not_have_are_refused_with_the_reason() -> None:
    engine = SchnapsenGamePlayEngine()
    caught: list[str] = []

    class Closer(Bot):
        def get_move(self, perspective: Any, leader_move: Any) -> Any:
            for token in ("C", "66"):
                try:
                    to_move(Action.parse(token), perspective)
                except BridgeError as exc:
                    caught.append(str(exc))
            return perspective.valid_moves()[0]

    engine.play_game(Closer(), RandBot(random.Random(1)), random.Random(1))
    assert caught and all("no counterpart" in text for text in caught)


class Liar:
    """A sixtysix bot that answers with an action that is not legal."""

    name = "liar"

    def choose(self, view: Any, legal: Any) -> Action:
        return Action.parse("C")


def test_a_bot_answering_an_illegal_action_is_named() -> None:
    with pytest.raises(BridgeError, match="liar chose C, not one of") as caught:
        SchnapsenGamePlayEngine().play_game(SixtySixBot(Liar()), RandBot(random.Random(1)), random.Random(1))
    # The game loop's one error type for an illegal choice (issue 19), as everywhere else.
    assert isinstance(caught.value, BotError) and caught.value.bot == "liar"


def test_their_bots_are_built_by_name_and_bad_names_are_refused() -> None:
    assert str(course_bot("schnapsen:rdeep")) == "rdeep(16,4)"
    assert str(course_bot("rdeep:samples=4,depth=2")) == "rdeep(4,2)"
    with pytest.raises(ValueError, match="expected one of rand, bully, rdeep, alphabeta"):
        course_bot("schnapsen:deep")
    with pytest.raises(ValueError, match="rand takes no option"):
        course_bot("schnapsen:rand:samples=3")
    with pytest.raises(ValueError, match="positive integer"):
        course_bot("schnapsen:rdeep:samples=0")


def test_alphabeta_plays_whole_deals_with_rdeep_in_phase_one() -> None:
    players = [course_bot("schnapsen:alphabeta:samples=2,depth=2", seed=1), course_bot("schnapsen:rand", 2)]
    assert play_deal(players, 5).game_points in (1, 2, 3)


def test_the_arena_runs_their_bots_against_ours_on_their_engine(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Any) -> None:
    out = tmp_path / "run.json"
    status = main(["arena", "heuristic", "schnapsen:rand", "schnapsen:bully", "--platform", "schnapsen",
                   "--matches", "3", "--jobs", "1", "--quiet", "--bootstrap", "0", "--save", str(out)])
    assert status == 0
    text = capsys.readouterr().out
    assert "schnapsen package's engine" in text and "rules course" in text
    doc = json.loads(out.read_text())
    assert doc["run"]["engine"] == "schnapsen" and len(doc["games"]) == 18
    # Each deal is played from both seats with the same cards (a duplicate pair).
    for game in doc["games"]:
        (hand,) = game["hands"]
        assert hand["winner"] == game["winner"] and hand["game_points"] in (1, 2, 3)


def test_the_arena_refuses_other_rules_on_their_engine(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["arena", "heuristic", "schnapsen:rand", "--platform", "schnapsen", "--rules", "schnapsen"])
    assert status == 2
    assert "plays the platform's own rules" in capsys.readouterr().err


def test_our_engine_replays_the_bridge_deal_in_the_same_seat_order() -> None:
    """Seat 0 is the first leader: the rebuilt hand is dealt by seat 1 (S2.1)."""
    seen: list[Hand] = []

    class Keep(Bot):
        def get_move(self, perspective: Any, leader_move: Any) -> Any:
            from sixtysix.compat.schnapsen import _rebuild

            seen.append(_rebuild(perspective, leader_move, COURSE).hand)
            return perspective.valid_moves()[0]

    SchnapsenGamePlayEngine().play_game(Keep(), RandBot(random.Random(3)), random.Random(3))
    assert seen and all(h.dealer == 1 for h in seen)
    assert seen[0].to_act == 0 and not seen[0].actions


def test_random_games_end_alike_in_both_engines() -> None:
    """Two random players in our engine (random_game, preset course) and in theirs
    (RandBot): the same shares of game points 1/2/3 and of wins by the first leader,
    within a chi-square test at 1e-4 on 3,000 deals each (fixed seeds)."""
    from sixtysix.bots.rollout import random_game

    n = 3000
    ours = [0] * 6
    theirs = [0] * 6
    engine = SchnapsenGamePlayEngine()
    a, b = RandBot(random.Random(1)), RandBot(random.Random(2))
    rng = random.Random(3)
    for seed in range(n):
        result = random_game(COURSE, rng).result()
        assert result is not None and result.winner is not None
        ours[3 * result.winner + result.game_points - 1] += 1
        winner, points, _ = engine.play_game(a, b, random.Random(seed))
        theirs[3 * (0 if winner is a else 1) + points - 1] += 1
    # Chi-square test of homogeneity, 5 degrees of freedom: 1e-4 critical value 25.74.
    chi2 = 0.0
    for o, t in zip(ours, theirs, strict=True):
        expected = (o + t) / 2
        chi2 += (o - expected) ** 2 / expected + (t - expected) ** 2 / expected
    assert chi2 < 25.74, (ours, theirs)


@pytest.mark.slow
def test_the_bridge_rebuilds_every_deal_of_600_random_ones() -> None:
    """Our random bot through the bridge against RandBot, from both seats: every game
    so far rebuilt at every decision. Seed 288 has the opponent exchange the jack and
    take it back with the last draw (it must hold the jack before the exchange)."""
    engine = SchnapsenGamePlayEngine()
    for seed in range(600):
        ours = SixtySixBot("random", seed=seed)
        theirs = RandBot(random.Random(seed))
        players = (theirs, ours) if seed % 2 == 0 else (ours, theirs)
        _, points, _ = engine.play_game(players[0], players[1], random.Random(seed))
        assert points in (1, 2, 3)


def test_a_deal_the_bridge_cannot_go_on_with_is_forfeited_and_the_arena_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A BridgeError in one deal costs our bot that deal (reason forfeit, 3 game points
    to the other side), not the whole run."""
    from sixtysix.arena.executor import play_game
    from sixtysix.arena.schedule import schedule
    from sixtysix.compat import schnapsen as bridge

    calls = {"n": 0}
    real = bridge.play_deal

    def failing(players: Any, seed: int) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise BridgeError("a made-up failure")
        return real(players, seed)

    monkeypatch.setattr(bridge, "play_deal", failing)
    games = schedule(["heuristic", "schnapsen:rand"], deals=2, seed=1, hands=True, rules="course",
                     engine="schnapsen")
    results = [play_game(g) for g in games]
    failed = results[1]
    (hand,) = failed.hands
    assert hand.reason == "forfeit" and failed.game.specs[1 - hand.winner] == "heuristic"  # type: ignore[operator]
    assert hand.game_points == 3
    assert all(r.hands[0].reason != "forfeit" for i, r in enumerate(results) if i != 1)


def test_the_schnapsen_page_example_runs() -> None:
    """docs/schnapsen.md's example of our bot on the platform (with the heuristic
    player standing in for expert, to keep the test short)."""
    import re
    from pathlib import Path

    page = (Path(__file__).parent.parent / "docs" / "schnapsen.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```(\w*)\n(.*?)^```$", page, flags=re.DOTALL | re.MULTILINE)
    (code,) = [body for lang, body in blocks if lang == "python" and "SixtySixBot" in body]
    namespace: dict[str, Any] = {}
    exec(code.replace('SixtySixBot("expert")', 'SixtySixBot("heuristic")'), namespace)
    assert namespace["game_points"] in (1, 2, 3)
    assert namespace["winner"] in (namespace["ours"], namespace["theirs"])
