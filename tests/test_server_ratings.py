"""The server's ratings (sixtysix.server.ratings): Glicko-2 per rule set, computer levels
fixed, a match rated once. The arithmetic itself is checked against the Glicko-2
paper's worked example in tests/test_glicko.py; here, that the server applies it as
docs/web.md says: a match is a rating period, both players' ratings as they stood
before it, deviations growing a period a day."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from helpers import need_module

need_module("sqlalchemy", "the web extra")

from server_support import ManualTime  # noqa: E402
from sixtysix.measure.glicko import Rating  # noqa: E402
from sixtysix.rules import PRESETS, Rules  # noqa: E402
from sixtysix.server.opponents import COMPUTER_LEVELS  # noqa: E402
from sixtysix.server.ratings import (  # noqa: E402
    LEVEL_RATINGS,
    PROVISIONAL,
    Computer,
    Person,
    Ratings,
    level_ratings,
    pool_of,
)
from sixtysix.server.storage import Storage  # noqa: E402

DAY = 86_400.0




@pytest.fixture
def clock() -> ManualTime:
    return ManualTime(1_700_000_000.0)


@pytest.fixture
def ratings(database_url: str, clock: ManualTime) -> Iterator[Ratings]:
    storage = Storage(database_url)
    yield Ratings(storage.engine, now=clock, levels={"medium": Rating(1500, 30), "easy": Rating(980, 38)})
    storage.close()


def test_only_a_presets_own_rules_are_rated_the_target_aside() -> None:
    for name, preset in PRESETS.items():
        assert pool_of(preset) == name
        assert pool_of(preset.replace(target=preset.target + 4)) == name
    assert pool_of(Rules.parse("classic,tie_bonus=0")) is None
    assert pool_of(Rules.parse("santase,target=11")) == "santase"


def test_the_shipped_level_ratings_are_ordered_by_strength_and_name_only_levels() -> None:
    assert set(LEVEL_RATINGS) <= set(COMPUTER_LEVELS) and "medium" in LEVEL_RATINGS
    assert LEVEL_RATINGS["medium"].rating == 1500  # the anchor
    order = [level for level in COMPUTER_LEVELS if level in LEVEL_RATINGS]
    shown = [LEVEL_RATINGS[level].rating for level in order]
    # Calibrated levels in the order of strength they are offered in (random < easy < medium ...),
    # except the two search levels, measured level with each other.
    weak = [r for level, r in zip(order, shown, strict=True) if level not in ("hard", "expert")]
    assert weak == sorted(weak)
    assert level_ratings('{"ratings": {"x": {"rating": 1000, "deviation": 40}}}') == {
        "x": Rating(1000, 40, LEVEL_RATINGS["medium"].volatility)}


def test_a_match_against_a_level_moves_only_the_persons_rating(ratings: Ratings) -> None:
    anna = Person(1, "Anna")
    new = ratings.standing(1, "classic")
    assert new.rating == Rating() and new.games == 0 and new.provisional
    changes = ratings.rate("g1", "classic", (anna, Computer("medium")), winner=0)
    assert [c.user_id for c in changes] == [1]
    expected = Rating().update([(Rating(1500, 30), 1.0)])
    assert changes[0].after == expected
    assert ratings.standing(1, "classic").rating == expected
    assert ratings.levels["medium"] == Rating(1500, 30)  # the level's rating is fixed
    # A second attempt to rate the same match changes nothing.
    assert ratings.rate("g1", "classic", (anna, Computer("medium")), winner=1) == []
    assert ratings.standing(1, "classic").rating == expected and ratings.standing(1, "classic").games == 1


def test_a_match_between_people_is_a_period_for_both_with_the_ratings_before(ratings: Ratings,
                                                                             clock: ManualTime) -> None:
    anna, bob = Person(1, "Anna"), Person(2, "Bob")
    ratings.rate("warm-up", "classic", (anna, Computer("easy")), winner=0)
    a0 = ratings.standing(1, "classic").rating
    b0 = ratings.standing(2, "classic").rating
    clock.t += 60  # the same day: no period passes, the deviation has not grown
    assert ratings.standing(1, "classic").rating.deviation == pytest.approx(a0.deviation, abs=0.01)
    a0 = ratings.standing(1, "classic").rating
    changes = ratings.rate("g2", "classic", (bob, anna), winner=1)
    after = {c.user_id: c.after for c in changes}
    assert after[1] == a0.update([(b0, 1.0)]) and after[2] == b0.update([(a0, 0.0)])
    assert after[1].rating > a0.rating and after[2].rating < b0.rating
    # Other pools are apart.
    assert ratings.standing(1, "santase").rating == Rating()
    assert [s.pool for s in ratings.standings(1)] == ["classic"]
    history = ratings.history(1)
    assert [h["game"] for h in history] == ["g2", "warm-up"]  # newest first
    assert {h["opponent"] for h in history} == {"Bob", "computer:easy"}


def test_a_deviation_grows_a_period_a_day_without_games(ratings: Ratings, clock: ManualTime) -> None:
    ratings.rate("g", "classic", (Person(1, "Anna"), Computer("medium")), winner=0)
    now = ratings.standing(1, "classic").rating
    clock.t += 10 * DAY
    later = ratings.standing(1, "classic").rating
    assert later.rating == now.rating
    grown = math.hypot(now.deviation, math.sqrt(10) * now.volatility * 173.7178)
    assert later.deviation == pytest.approx(grown)


def test_the_leaderboard_marks_provisional_ratings_or_leaves_them_off(ratings: Ratings,
                                                                      clock: ManualTime) -> None:
    for user in (1, 2):
        for n in range(60 if user == 1 else 1):
            ratings.rate(f"g{user}-{n}", "classic", (Person(user, f"P{user}"), Computer("medium")),
                         winner=n % 2)
    board = ratings.leaderboard("classic", established=True)
    assert [s.user_id for s in board] == [1]
    everyone = ratings.leaderboard("classic")
    assert {s.user_id for s in everyone} == {1, 2}
    assert [s.provisional for s in everyone if s.user_id == 2] == [True]
    assert [s.rating.rating for s in everyone] == sorted((s.rating.rating for s in everyone), reverse=True)
    assert board[0].rating.deviation <= PROVISIONAL and board[0].games == 60
    assert ratings.standing(2, "classic").provisional


def test_unrateable_sides_and_bad_winners_are_refused(ratings: Ratings) -> None:
    with pytest.raises(ValueError, match="has no rating"):
        ratings.rate("x", "classic", (Person(1, "A"), Computer("mybot")), winner=0)
    with pytest.raises(ValueError, match="the winner is seat 0 or 1"):
        ratings.rate("x", "classic", (Person(1, "A"), Person(2, "B")), winner=None)  # type: ignore[arg-type]


def test_a_match_ended_but_not_rated_when_the_process_stopped_is_rated_at_start_up(
        database_url: str, clock: ManualTime) -> None:
    import random

    from sixtysix.server.games import GameManager

    storage = Storage(database_url)
    levels = {"medium": Rating(1500, 30)}
    before = Ratings(storage.engine, now=clock, levels=levels)
    first = GameManager(storage, rng=random.Random(2), ratings=before)
    first._rate = lambda game: None  # type: ignore[method-assign]  # the process stops before rating
    game, _ = first.create(rules=Rules.parse("classic,target=1"), kind="person", user=(1, "Anna"), rated=True)
    first.join(game.id, user=(2, "Bob"))
    rng = random.Random(3)
    while game.status == "playing":
        hand = game.hand
        assert hand is not None and hand.to_act is not None
        first.act(game, hand.to_act, rng.choice(hand.legal_actions()))
    winner = game.winner
    assert winner in (0, 1)
    ratings = Ratings(storage.engine, now=clock, levels=levels)
    assert ratings.changes(game.id) == {}
    second = GameManager(storage, rng=random.Random(4), ratings=ratings)
    second.resume_all()
    after = ratings.changes(game.id)
    expected = {1 + winner: Rating().update([(Rating(), 1.0)]).rating,
                2 - winner: Rating().update([(Rating(), 0.0)]).rating}
    assert {user: round(b, 6) for user, (_, b) in after.items()} == \
        {user: round(r, 6) for user, r in expected.items()}
    assert second.rate_missing() == 0 and ratings.standing(1, "classic").games == 1  # never twice
    storage.close()
