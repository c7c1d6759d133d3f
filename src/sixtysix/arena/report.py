"""Summaries of an arena: pair statistics, ratings, tables, JSON and a chart.

For each pair (A against B): the match win rate and the hand win rate of A
with 95% Wilson intervals (ties left out), the game points per hand of each
bot with a 95% interval, and the duplicate statistics: on how many boards
one bot won both games (from both seats), and on how many the boards were
split, which is what luck of the deal alone would give.

For each bot: its Bradley-Terry rating (see :mod:`sixtysix.arena.ratings`),
its games and its score (wins plus half the ties, as a share of its games).

The plain-text tables are meant for logs and tests; :func:`render_rich`
draws the same tables with ``rich`` when it is installed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from sixtysix.arena.executor import GameResult
from sixtysix.arena.ratings import MEAN_RATING, Rating, rate
from sixtysix.arena.schedule import derive_seed, pairs
from sixtysix.kernel.tables import SCORING_POINTS
from sixtysix.measure.stats import Mean, Proportion, mean_interval, proportion

__all__ = [
    "points_per_hand",
    "ArenaSummary",
    "PairSummary",
    "Table",
    "labels_for",
    "render_rich",
    "render_text",
    "save_plot",
    "summarize",
]


def labels_for(specs: Sequence[str]) -> list[str]:
    """Names for the tables: the specs, numbered when one appears twice.

    >>> labels_for(["random", "heuristic", "random"])
    ['random', 'heuristic', 'random#2']
    """
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return out


def points_per_hand(points: Sequence[int]) -> Mean:
    """The game points a bot scored per hand, with a 95% interval inside what a hand can
    give: 0 to 3 (R9.1), more only with the bonus of tied hands before it (R9.2).

    >>> m = points_per_hand([3, 3, 3, 1])
    >>> m.mean, round(m.low, 2), m.high
    (2.5, 1.52, 3.0)
    """
    return mean_interval(points, bounds=(0, max(max(SCORING_POINTS), *points)))


@dataclass
class PairSummary:
    """The results of one pair; side 0 is bot ``a`` (the first named), side 1 bot ``b``."""

    a: int
    b: int
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    ties: int = 0
    hands: int = 0
    hand_wins: list[int] = field(default_factory=lambda: [0, 0])
    hand_ties: int = 0
    points: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    #: Boards on which side 0 (side 1) won both games; split boards; boards with a tie.
    won_both: list[int] = field(default_factory=lambda: [0, 0])
    split: int = 0
    other: int = 0
    #: Per board: the score of side 0 (wins plus half the ties) and the number of games.
    board_scores: list[float] = field(default_factory=list)
    board_games: list[float] = field(default_factory=list)

    @property
    def boards(self) -> int:
        return len(self.board_scores)

    def win_rate(self, side: int) -> Proportion:
        return proportion(self.wins[side], self.wins[0] + self.wins[1])

    def hand_rate(self, side: int) -> Proportion:
        return proportion(self.hand_wins[side], self.hand_wins[0] + self.hand_wins[1])

    def points_per_hand(self, side: int) -> Mean | None:
        return points_per_hand(self.points[side]) if self.points[side] else None

    def both_rate(self, side: int) -> Proportion:
        return proportion(self.won_both[side], self.boards)

    def to_json(self, specs: Sequence[str]) -> dict[str, Any]:
        def interval(p: Proportion) -> list[float]:
            return [p.low, p.high]

        gp = [self.points_per_hand(s) for s in (0, 1)]
        return {
            "bots": [self.a, self.b],
            "specs": [specs[self.a], specs[self.b]],
            "games": self.games,
            "wins": list(self.wins),
            "ties": self.ties,
            "win_rate": [self.win_rate(s).estimate for s in (0, 1)],
            "win_rate_ci95": [interval(self.win_rate(s)) for s in (0, 1)],
            "hands": self.hands,
            "hand_wins": list(self.hand_wins),
            "hand_ties": self.hand_ties,
            "hand_win_rate": [self.hand_rate(s).estimate for s in (0, 1)],
            "hand_win_rate_ci95": [interval(self.hand_rate(s)) for s in (0, 1)],
            "game_points_per_hand": [m.mean if m else None for m in gp],
            "game_points_per_hand_ci95": [[m.low, m.high] if m else None for m in gp],
            "boards": self.boards,
            "won_both": list(self.won_both),
            "won_both_rate": [self.both_rate(s).estimate for s in (0, 1)],
            "won_both_rate_ci95": [interval(self.both_rate(s)) for s in (0, 1)],
            "split": self.split,
            "boards_with_ties": self.other,
        }


@dataclass
class ArenaSummary:
    """Everything the arena reports, without the raw games."""

    specs: list[str]
    rules: str
    seed: int
    unit: str  # "match" or "hand"
    deals: int
    pairs: list[PairSummary]
    ratings: list[Rating]
    games: list[int]
    scores: list[float]
    resamples: int
    hands: int = 0
    #: The seeds of the runs merged into this arena (see :mod:`sixtysix.arena.runs`), if several.
    seeds: tuple[int, ...] = ()

    @property
    def labels(self) -> list[str]:
        return labels_for(self.specs)

    @property
    def total_games(self) -> int:
        return sum(p.games for p in self.pairs)

    def ranking(self) -> list[Rating]:
        """The ratings, best first (ties in the order the bots were named)."""
        return sorted(self.ratings, key=lambda r: (-r.elo, r.bot))

    def connected(self) -> bool:
        """Whether every bot scored against some bot that scored against it, and
        so on around: without that (a bot that won or lost everything, or a
        group that beat every other) maximum likelihood alone gives no finite
        ratings, and the gap rests on the prior."""
        n = len(self.specs)
        beat = [[False] * n for _ in range(n)]
        for p in self.pairs:
            beat[p.a][p.b] = p.wins[0] > 0 or p.ties > 0
            beat[p.b][p.a] = p.wins[1] > 0 or p.ties > 0

        def reach(edges: list[list[bool]]) -> set[int]:
            seen, todo = {0}, [0]
            while todo:
                i = todo.pop()
                for j in range(n):
                    if edges[i][j] and j not in seen:
                        seen.add(j)
                        todo.append(j)
            return seen

        backwards = [[beat[j][i] for j in range(n)] for i in range(n)]
        return len(reach(beat)) == n and len(reach(backwards)) == n

    def separated(self) -> list[tuple[int, int]]:
        """Pairs (winner, loser) in which one bot won every decided game."""
        out = []
        for p in self.pairs:
            if p.wins[0] + p.wins[1] and 0 in p.wins:
                out.append((p.a, p.b) if p.wins[1] == 0 else (p.b, p.a))
        return out

    def interval_method(self) -> str:
        if self.resamples > 0:
            return f"bootstrap over deals, {self.resamples} resamples"
        return "Fisher information"

    def to_json(self) -> dict[str, Any]:
        labels = self.labels
        ranks = {r.bot: n for n, r in enumerate(self.ranking(), 1)}
        return {
            "pairs": [p.to_json(self.specs) for p in self.pairs],
            "ratings": [
                {
                    "bot": r.bot,
                    "spec": self.specs[r.bot],
                    "label": labels[r.bot],
                    "rank": ranks[r.bot],
                    "elo": r.elo,
                    "ci95": [r.low, r.high],
                    "fisher_se": r.fisher_se,
                    "fisher_ci95": [r.fisher_low, r.fisher_high],
                    "games": self.games[r.bot],
                    "score": self.scores[r.bot] / self.games[r.bot] if self.games[r.bot] else None,
                }
                for r in self.ratings
            ],
            "rating_scale": {"mean": MEAN_RATING, "interval": self.interval_method()},
            "games": self.total_games,
            "hands": self.hands,
        }

    # -- tables ---------------------------------------------------------------

    def headline(self) -> str:
        unit = "matches" if self.unit == "match" else "hands"
        deals = "deal" if self.deals == 1 else "deals"
        count = len(self.pairs)
        text = (f"Arena: {len(self.specs)} bots, {count} {'pair' if count == 1 else 'pairs'} x "
                f"{self.deals:,} {deals} x 2 seatings = {self.total_games:,} {unit}")
        if self.unit == "match":
            text += f", {self.hands:,} hands"
        return text + f" (rules {self.rules}, {self.seed_text})"

    @property
    def seed_text(self) -> str:
        """``seed S``, or ``seeds S, T, ...`` for merged runs."""
        if len(self.seeds) > 1:
            return "seeds " + ", ".join(str(s) for s in self.seeds)
        return f"seed {self.seed}"

    def rating_table(self) -> Table:
        labels = self.labels
        rows = []
        for n, r in enumerate(self.ranking(), 1):
            games = self.games[r.bot]
            score = f"{100 * self.scores[r.bot] / games:.1f}%" if games else "-"
            rows.append([str(n), labels[r.bot], f"{r.elo:.0f}", f"{r.low:.0f} to {r.high:.0f}",
                         f"{games:,}", score])
        return Table(
            title=f"Ratings (Bradley-Terry, Elo scale, mean {MEAN_RATING:.0f}; "
                  f"95% CI by {self.interval_method()})",
            headers=["#", "bot", "Elo", "95% CI", "games", "score"],
            right=[True, False, True, True, True, True],
            rows=rows,
        )

    def pair_table(self) -> Table:
        """The pairs, one row each (wide: meant for logs and files)."""
        labels = self.labels
        matches = self.unit == "match"
        headers = ["A", "B", "matches" if matches else "hands"]
        if matches:
            headers += ["A wins", "95% CI"]
        headers += ["A hands", "95% CI", "A pts/hand", "95% CI", "B pts/hand", "95% CI",
                    "A won both", "split", "B won both"]
        rows = []
        for p in self.pairs:
            row = [labels[p.a], labels[p.b], f"{p.games:,}"]
            for estimate, interval in self._pair_cells(p, 0, matches):
                row += [estimate, interval]
            rows.append(row + [f"{p.won_both[0]:,}", f"{p.split:,}", f"{p.won_both[1]:,}"])
        return Table(
            title="Pairs (A against B; win rates leave out ties)",
            headers=headers,
            right=[False, False] + [True] * (len(headers) - 2),
            rows=rows,
        )

    @staticmethod
    def _pair_cells(p: PairSummary, side: int, matches: bool) -> list[tuple[str, str]]:
        """(estimate, interval) texts of one side: match wins (in match
        mode), hand wins, then points per hand; then the points per hand of
        the other side."""
        cells: list[tuple[str, str]] = []
        rates = [p.win_rate(side)] if matches else []
        for rate_ in [*rates, p.hand_rate(side)]:
            cells.append((f"{100 * rate_.estimate:.1f}%", f"{100 * rate_.low:.1f}-{100 * rate_.high:.1f}"))
        for s in (side, 1 - side):
            m = p.points_per_hand(s)
            cells.append((f"{m.mean:.2f}", f"{m.low:.2f}-{m.high:.2f}") if m else ("-", "-"))
        return cells

    def pair_cards(self) -> list[Table]:
        """The pairs, one small table each with a column per bot (fits a terminal)."""
        labels = self.labels
        matches = self.unit == "match"
        out = []
        for p in self.pairs:
            sides = [self._pair_cells(p, side, matches) for side in (0, 1)]
            names = (["match wins"] if matches else []) + ["hand wins", "game points/hand"]
            rows = []
            for k, name in enumerate(names):
                rows.append([name] + [f"{sides[s][k][0]}  ({sides[s][k][1]})" for s in (0, 1)])
            rows.append(["won both games of a deal"] + [f"{p.won_both[s]:,} of {p.boards:,}" for s in (0, 1)])
            rows.append(["split deals", f"{p.split:,}", ""])
            count = f"{p.games:,} {'matches' if matches else 'hands'}"
            if matches:
                count += f", {p.hands:,} hands"
            out.append(Table(
                title=f"{labels[p.a]} against {labels[p.b]}: {count}",
                headers=["", labels[p.a], labels[p.b]],
                right=[False, True, True],
                rows=rows,
            ))
        return out

    def notes(self) -> list[str]:
        out = [f"\"won both\": deals on which a bot won the {'match' if self.unit == 'match' else 'hand'} "
               "from both seats; \"split\": one game each. Intervals are 95%."]
        labels = self.labels
        if not self.connected():
            beaten = "; ".join(f"{labels[w]} won every game against {labels[v]}"
                               for w, v in self.separated())
            out.append(f"{beaten}: the gap between such bots is set by the prior (one drawn game "
                       "per pair) and is a lower bound, its interval too narrow.")
        return out

    def describe(self) -> str:
        """The whole report as plain text."""
        parts = [self.headline(), "", render_text(self.rating_table()), "",
                 render_text(self.pair_table()), ""]
        parts += [f"  {note}" for note in self.notes()]
        return "\n".join(parts)


@dataclass
class Table:
    """A table with a title, column headers, right-aligned columns and text cells."""

    title: str
    headers: list[str]
    right: list[bool]
    rows: list[list[str]]


def render_text(table: Table) -> str:
    """A plain-text table, two spaces between columns.

    >>> print(render_text(Table("T", ["a", "bb"], [False, True], [["x", "1"], ["yyy", "22"]])))
    T
      a    bb
      x     1
      yyy  22
    """
    widths = [max(len(cell) for cell in column) for column in zip(table.headers, *table.rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "  " + "  ".join(cell.rjust(w) if right else cell.ljust(w)
                                for cell, w, right in zip(cells, widths, table.right, strict=True)).rstrip()

    return "\n".join([table.title, line(table.headers), *(line(row) for row in table.rows)])


def render_rich(summary: ArenaSummary, file: IO[str]) -> None:
    """Print the report with ``rich`` tables (``rich`` must be installed)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table as RichTable

    console = Console(file=file)
    console.print(summary.headline(), style="bold", highlight=False)
    for table in (summary.rating_table(), *summary.pair_cards()):
        out = RichTable(title=table.title, title_justify="left", box=box.SIMPLE_HEAD)
        for header, right in zip(table.headers, table.right, strict=True):
            out.add_column(header, justify="right" if right else "left")
        for row in table.rows:
            out.add_row(*row)
        console.print(out)
    for note in summary.notes():
        console.print(note, style="dim", highlight=False)


def summarize(
    specs: Sequence[str],
    results: Sequence[GameResult],
    *,
    rules: str,
    seed: int,
    unit: str,
    deals: int,
    resamples: int = 1000,
    seeds: Sequence[int] = (),
) -> ArenaSummary:
    """Gather the statistics of an arena from its games (in schedule order)."""
    if not results:
        raise ValueError("no games were played")
    pair_list = pairs(len(specs))
    summaries = [PairSummary(a, b) for a, b in pair_list]
    games = [0] * len(specs)
    scores = [0.0] * len(specs)
    boards: dict[tuple[int, int], list[GameResult]] = {}
    total_hands = 0
    for result in results:
        game = result.game
        p = summaries[game.pair]
        side_of_a = game.side(p.a)  # the seat of side 0
        p.games += 1
        p.hands += len(result.hands)
        total_hands += len(result.hands)
        for bot in game.bots:
            games[bot] += 1
        if result.winner is None:
            p.ties += 1
            for bot in game.bots:
                scores[bot] += 0.5
        else:
            p.wins[0 if result.winner == side_of_a else 1] += 1
            scores[game.bots[result.winner]] += 1.0
        for hand in result.hands:
            if hand.winner is None:
                p.hand_ties += 1
            else:
                p.hand_wins[0 if hand.winner == side_of_a else 1] += 1
            for side in (0, 1):
                p.points[side].append(hand.scored(side_of_a ^ side))
        boards.setdefault((game.pair, game.board), []).append(result)
    for (number, _board), played in sorted(boards.items()):
        p = summaries[number]
        score = 0.0
        for result in played:
            if result.winner is None:
                score += 0.5
            elif result.winner == result.game.side(p.a):
                score += 1.0
        p.board_scores.append(score)
        p.board_games.append(float(len(played)))
        if len(played) == 2 and all(r.winner is not None for r in played):
            if score == 2.0:
                p.won_both[0] += 1
            elif score == 0.0:
                p.won_both[1] += 1
            else:
                p.split += 1
        else:
            p.other += 1
    if len({p.boards for p in summaries}) != 1:
        raise ValueError("every pair must play the same boards")
    ratings = rate(len(specs), pair_list, [p.board_scores for p in summaries],
                   [p.board_games for p in summaries], resamples=resamples,
                   seed=derive_seed(seed, "bootstrap"))
    return ArenaSummary(
        specs=list(specs), rules=rules, seed=seed, unit=unit, deals=deals, pairs=summaries,
        ratings=ratings, games=games, scores=scores, resamples=resamples, hands=total_hands,
        seeds=tuple(seeds),
    )


def save_plot(summary: ArenaSummary, path: str | Path) -> None:
    """Draw the ratings with their intervals into a PNG (needs matplotlib)."""
    from matplotlib.figure import Figure

    ranking = summary.ranking()[::-1]  # best at the top
    labels = summary.labels
    height = 1.2 + 0.45 * len(ranking)
    fig = Figure(figsize=(7.0, height), dpi=110)
    ax = fig.add_subplot()
    ys = list(range(len(ranking)))
    xs = [r.elo for r in ranking]
    below = [r.elo - r.low for r in ranking]
    above = [r.high - r.elo for r in ranking]
    ax.errorbar(xs, ys, xerr=[below, above], fmt="o", capsize=4, color="tab:blue", ecolor="tab:gray")
    ax.set_yticks(ys, [labels[r.bot] for r in ranking])
    ax.axvline(MEAN_RATING, linestyle=":", color="tab:gray", linewidth=1)
    ax.set_xlabel(f"Elo (Bradley-Terry, mean {MEAN_RATING:.0f}); bars: 95% CI")
    lows, highs = [r.low for r in ranking], [r.high for r in ranking]
    span = max(highs) - min(lows)
    margin = max(25.0, 0.08 * span) if math.isfinite(span) else 25.0
    ax.set_xlim(min(lows) - margin, max(highs) + margin)
    ax.set_ylim(-0.6, len(ranking) - 0.4)
    ax.grid(axis="x", alpha=0.3)
    unit = "matches" if summary.unit == "match" else "hands"
    ax.set_title(f"sixtysix arena: {summary.total_games:,} {unit}, rules {summary.rules}, "
                 f"{summary.seed_text}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, format="png")
