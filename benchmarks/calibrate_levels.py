"""Calibrate the computer levels' ratings: the fixed ratings the game server rates
people's games against the computer with (docs/web.md, "Ratings").

Run:  python benchmarks/calibrate_levels.py [--pairs random:easy,easy:medium,...]
                                            [--matches 200] [--seed 9901] [--jobs 2]
                                            [--runs DIR] [--write]

Each pair of levels plays ``sixtysix arena A B --matches N`` (whole matches to 7 under
the classic rules, every deal from both seats) with the specs the server plays them
with (``Opponents().spec``: the search levels on one process, at their clocks), and
saves the run in ``--runs`` (default ``benchmarks/results/levels``); runs already
there are reused, so pairs can be played at different times. Then every saved run
is fitted together: Bradley-Terry strengths on the Elo scale (the logistic scale of
Glicko-2, which the server uses), ``medium`` anchored at 1500, each with its standard
error from the Fisher information (against ``medium``). ``--write`` stores them in
``src/sixtysix/server/level_ratings.json``, with the games behind each and the
machine, where the server reads them. The search levels' strength depends on the
machine's speed: calibrate on a quiet machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import subprocess
import sys
from pathlib import Path

from machine import machine

from sixtysix.arena.ratings import fisher_covariance, fit
from sixtysix.server.opponents import COMPUTER_LEVELS, Opponents

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "src" / "sixtysix" / "server" / "level_ratings.json"
ANCHOR = "medium"
#: Elo points per unit of Bradley-Terry strength.
ELO = 400.0 / math.log(10.0)
PAIRS = "random:easy,easy:medium,random:medium,medium:net,medium:hard,medium:expert"


def play(a: str, b: str, args: argparse.Namespace, runs: Path) -> Path:
    out = runs / f"{a}-{b}-{args.seed}.json"
    if out.exists():
        return out
    specs = Opponents()
    command = [sys.executable, "-m", "sixtysix", "arena", specs.spec(a), specs.spec(b),
               "--matches", str(args.matches), "--seed", str(args.seed), "--jobs", str(args.jobs),
               "--save", str(out), "--quiet"]
    print("$", " ".join(command[2:]), flush=True)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return out


def level_of(spec: str) -> str:
    return spec.split(":", 1)[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", default=PAIRS)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=9901)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=Path, default=ROOT / "benchmarks" / "results" / "levels")
    parser.add_argument("--play", action=argparse.BooleanOptionalAction, default=True,
                        help="play the pairs missing from --runs (default); --no-play fits what is there")
    parser.add_argument("--write", action="store_true", help=f"store the ratings in {TARGET.name}")
    args = parser.parse_args()
    args.runs.mkdir(parents=True, exist_ok=True)
    if args.play:
        for pair in args.pairs.split(","):
            a, b = pair.split(":")
            if a not in COMPUTER_LEVELS or b not in COMPUTER_LEVELS:
                parser.error(f"{pair}: levels are {', '.join(COMPUTER_LEVELS)}")
            play(a, b, args, args.runs)

    levels = list(COMPUTER_LEVELS)
    index = {name: i for i, name in enumerate(levels)}
    wins = [[0.0] * len(levels) for _ in levels]
    games = [0] * len(levels)
    sources: list[str] = []
    for path in sorted(args.runs.glob("*.json")):
        run = json.loads(path.read_text())
        for pair in run["summary"]["pairs"]:
            i, j = (index[level_of(s)] for s in pair["specs"])
            half = pair["ties"] / 2.0
            wins[i][j] += pair["wins"][0] + half
            wins[j][i] += pair["wins"][1] + half
            games[i] += pair["games"]
            games[j] += pair["games"]
        sources.append(f"{path.name}: {' vs '.join(run.get('bots', []))}")
    played = [name for name in levels if games[index[name]]]
    if ANCHOR not in played or len(played) < 2:
        print("no runs with medium and another level: nothing to fit", file=sys.stderr)
        return 1
    keep = [index[name] for name in played]
    table = [[wins[i][j] for j in keep] for i in keep]
    thetas = fit(table)
    cov = fisher_covariance(table, thetas)
    a = played.index(ANCHOR)
    ratings = {}
    for k, name in enumerate(played):
        var = cov[k][k] + cov[a][a] - 2 * cov[k][a]
        ratings[name] = {"rating": round(1500.0 + ELO * (thetas[k] - thetas[a]), 1),
                         "deviation": round(max(ELO * math.sqrt(max(var, 0.0)), 30.0), 1),
                         "games": games[index[name]]}
    print(f"{'level':8} {'rating':>7} {'± (1 SE)':>9} {'games':>6}")
    for name, r in ratings.items():
        print(f"{name:8} {r['rating']:7.0f} {r['deviation']:9.0f} {r['games']:6d}")
    print(machine())
    if args.write:
        document = {
            "about": "Fixed ratings of the computer levels on the Glicko-2 scale, fitted from arena "
                     "runs of the levels as the server plays them (benchmarks/calibrate_levels.py); "
                     "medium is anchored at 1500; deviation is one standard error, at least 30.",
            "rules": "classic",
            "date": dt.date.today().isoformat(),
            "machine": machine(),
            "runs": sources,
            "ratings": ratings,
        }
        TARGET.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
        print(f"written: {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
