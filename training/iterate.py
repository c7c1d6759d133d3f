"""Iterated self-play (expert iteration): generation after generation, the search guided
by the previous generation's network plays itself, the next network learns from those
games, and it replaces the best network only if it beats it head to head.

Generation g, in ``OUT/gen-XX/`` (XX = g):

1. ``data/``: ``generate.chunks`` self-play chunks (:mod:`training.generate`'s format)
   of the search ``generate.bot`` with ``iterate.net_options`` and generation g-1's
   network (g = 1: ``iterate.start``), made on the arena's executors
   (:mod:`training.selfplay`); chunk i is seeded by the run's seed, g and i only;
2. ``checkpoint.pt``, ``history.json``: training on the chunks of generations
   g-window+1 .. g, from generation g-1's weights or from scratch;
3. ``weights.npz`` (``sixtysix-net/1``) and ``MODEL_CARD.md``;
4. ``gate-games.jsonl``, ``gate.json``: g against the best so far, duplicate deals at
   fixed iterations; g becomes the best if the lower end of the 95% Wilson interval of
   its win rate is above ``gate_threshold``.

``OUT/state.json`` says where the run is. Every step resumes where it stopped.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from sixtysix.arena.executor import GameResult, chunked
from sixtysix.arena.schedule import derive_seed, schedule
from sixtysix.measure.stats import wilson
from sixtysix.search.net import shipped_weights
from training.config import Config
from training.export import export, read
from training.generate import chunk_path
from training.selfplay import SHIPPED, Deadline, Weights, Workers, play_gate, search_spec, selfplay_chunk
from training.train import CHECKPOINT, HISTORY, load_checkpoint, train

__all__ = ["STATE", "iterate", "ship"]

STATE = "state.json"
WEIGHTS = "weights.npz"
CARD = "MODEL_CARD.md"
GATE = "gate.json"
GATE_GAMES = "gate-games.jsonl"
#: The steps of a generation, in order.
STEPS = ("generate", "train", "export", "gate")
#: Where the repository's root is (a configured start file is relative to it).
ROOT = Path(__file__).resolve().parent.parent

Log = Callable[[str], None]


def gen_dir(run: Path, generation: int) -> Path:
    return run / f"gen-{generation:02d}"


def gen_name(generation: int) -> str:
    return f"gen-{generation:02d}"


def generation_seed(config: Config, generation: int) -> int:
    """The seed of generation g's chunks: chunk i of generation g is chunk i of a
    one-generation run seeded ``1000 * seed + g``."""
    return 1000 * config.seed + generation


def command(config: Config) -> str:
    return f"python -m training iterate --config training/configs/{config.name}.json"


# The state file ---------------------------------------------------------------------------

def load_state(config: Config, run: Path) -> dict[str, Any]:
    """``state.json``, or the state of a run not begun."""
    path = run / STATE
    if path.exists():
        state: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return state
    return {"config": config.name, "seed": config.seed, "generation": 1, "step": STEPS[0], "done": False,
            "best": 0, "best_network": start_name(config), "generations": {}, "deleted": []}


def save_state(run: Path, state: dict[str, Any]) -> None:
    """Write ``state.json`` whole, then rename it into place."""
    partial = run / (STATE + ".partial")
    partial.write_text(json.dumps(state, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, run / STATE)


# The networks ----------------------------------------------------------------------------

def start_name(config: Config) -> str | None:
    start = config.iterate.start
    return None if start is None else SHIPPED if start == SHIPPED else "start"


def start_path(config: Config) -> Path | None:
    """The start's weights file (``None`` for the shipped network or none)."""
    start = config.iterate.start
    if start is None or start == SHIPPED:
        return None
    path = Path(start)
    return path if path.is_absolute() else ROOT / path


def network(config: Config, run: Path, generation: int) -> Weights | None:
    """The network of generation ``generation`` (0: the start) as a task carries it."""
    if generation > 0:
        return Weights.read(gen_name(generation), gen_dir(run, generation) / WEIGHTS)
    name, path = start_name(config), start_path(config)
    if name is None:
        return None
    return Weights(name) if path is None else Weights.read(name, path)


def network_file(config: Config, generation: int, run: Path) -> Path | None:
    """The weights file of generation ``generation`` (0: the start; shipped: the package's)."""
    if generation > 0:
        return gen_dir(run, generation) / WEIGHTS
    if start_name(config) == SHIPPED:
        return Path(shipped_weights())
    return start_path(config)


# 1. Self-play ----------------------------------------------------------------------------

def step_generate(config: Config, run: Path, generation: int, workers: Workers,
                  deadline: Deadline, log: Log) -> bool:
    """Make generation g's missing chunks; whether all are made."""
    data = gen_dir(run, generation) / "data"
    data.mkdir(parents=True, exist_ok=True)
    for stale in data.glob("*.partial-*.npz"):
        stale.unlink()
    todo = [i for i in range(config.generate.chunks) if not chunk_path(data, i).exists()]
    guide = network(config, run, generation - 1)
    seed = generation_seed(config, generation)
    log(f"generation {generation}: self-play, {len(todo)} of {config.generate.chunks} chunks to make, "
        f"guided by {guide.name if guide else 'no network'}")
    tasks = [(selfplay_chunk, (config.generate, config.iterate.net_options, guide, seed, i)) for i in todo]

    def save(number: int, arrays: dict[str, Any]) -> None:
        path = chunk_path(data, todo[number])
        partial = path.with_name(f"{path.stem}.partial-{os.getpid()}.npz")
        np.savez_compressed(partial, **arrays)
        os.replace(partial, path)
        log(f"generation {generation}: chunk {todo[number]}: {len(arrays['value'])} positions")

    workers.run(tasks, save, deadline)
    return all(chunk_path(data, i).exists() for i in range(config.generate.chunks))


# 2. Training -----------------------------------------------------------------------------

def train_config(config: Config, generation: int) -> Config:
    """The configuration generation g trains with (its own seed)."""
    return replace(config, seed=generation_seed(config, generation))


def window(config: Config, generation: int) -> list[int]:
    """The generations whose chunks generation g trains on."""
    return list(range(max(1, generation - config.iterate.window + 1), generation + 1))


def initial_state(config: Config, run: Path, generation: int, log: Log) -> dict[str, torch.Tensor] | None:
    """The weights generation g starts from: g-1's (or the start's) when configured and
    of the same shape, else ``None`` (fresh weights)."""
    if config.iterate.init == "scratch":
        return None
    if config.iterate.init != "previous":
        raise ValueError(f"iterate.init must be previous or scratch, not {config.iterate.init!r}")
    path = network_file(config, generation - 1, run)
    if path is None:
        return None
    arrays, meta = read(path)
    if tuple(meta["hidden"]) != tuple(config.train.hidden):
        log(f"generation {generation}: {path.name} has hidden sizes {meta['hidden']}, "
            f"not {list(config.train.hidden)}: training from scratch")
        return None
    return {name: torch.from_numpy(array.copy()) for name, array in arrays.items()}


def step_train(config: Config, run: Path, generation: int, state: dict[str, Any], deadline: Deadline,
               log: Log) -> bool:
    """Train (or go on training) generation g; whether all its epochs are done."""
    folder = gen_dir(run, generation)
    dirs = [gen_dir(run, g) / "data" for g in window(config, generation)]
    init = None
    if not (folder / CHECKPOINT).exists():
        init = initial_state(config, run, generation, log)
        source = (gen_name(generation - 1) if generation > 1 else start_name(config)) if init else None
        record(state, generation)["init"] = f"{source}'s weights" if source else "fresh weights"
        save_state(run, state)
    history = train(train_config(config, generation), folder, stop_after=deadline.left(), log=log,
                    data_dirs=dirs, init=init)
    return len(history["epochs"]) >= config.train.epochs


# 3. Export and model card ----------------------------------------------------------------

def step_export(config: Config, run: Path, generation: int, state: dict[str, Any], log: Log) -> bool:
    """Write generation g's weights file and its model card (the gate still to play)."""
    folder = gen_dir(run, generation)
    checkpoint = load_checkpoint(folder)
    assert checkpoint is not None, "export before training"
    history = json.loads(checkpoint["history"])
    last = history["epochs"][-1]
    losses = {part: {k: v for k, v in last[part].items() if k != "agreement"}
              for part in ("train", "validation")}
    trained = {"config": config.name, "seed": generation_seed(config, generation),
               "positions": history["positions"], "epochs": len(history["epochs"]),
               "command": command(config), "generation": generation,
               "data": [gen_name(g) for g in window(config, generation)], "losses": losses}
    path = export(checkpoint["model"], list(config.train.hidden), folder / WEIGHTS, trained)
    log(f"generation {generation}: exported {path.name} ({path.stat().st_size:,} bytes)")
    write_card(config, run, generation, state, None)
    return True


def record(state: dict[str, Any], generation: int) -> dict[str, Any]:
    """What ``state.json`` holds of generation g."""
    entry: dict[str, Any] = state["generations"].setdefault(str(generation), {})
    return entry


def write_card(config: Config, run: Path, generation: int, state: dict[str, Any],
               gate: dict[str, Any] | None) -> None:
    """``gen-XX/MODEL_CARD.md``: the network, its data, losses, command and gate."""
    folder = gen_dir(run, generation)
    _, meta = read(folder / WEIGHTS)
    history = json.loads((folder / HISTORY).read_text(encoding="utf-8"))
    guide = gen_name(generation - 1) if generation > 1 else start_name(config)
    games = search_spec(config.generate.bot, config.iterate.net_options, guide)
    lines = [f"# Model card: generation {generation} of the run `{config.name}`", "",
             f"- **Network**: `sixtysix-net/1`, 229 → {' → '.join(map(str, meta['hidden']))} (ReLU), heads "
             f"policy (56), value (1), hand (24); {(folder / WEIGHTS).stat().st_size:,} bytes.",
             f"- **Data**: the chunks of {', '.join(meta['trained']['data'])} "
             f"({config.generate.chunks} chunks of {config.generate.hands_per_chunk} hands each): "
             f"{history['positions']:,} positions trained on, {history['validation_positions']:,} held out. "
             f"This generation's games: `{games}` "
             "playing itself.",
             "- **Targets**: the search's root visit distribution (policy), the hand's result "
             "(value), the opponent's real cards (hand).",
             f"- **Training**: {len(history['epochs'])} epochs from "
             f"{record(state, generation).get('init', 'fresh weights')}, "
             f"seed {generation_seed(config, generation)}.",
             f"- **Command**: `{command(config)}`", "", *loss_table(history), "", *gate_lines(gate)]
    (folder / CARD).write_text("\n".join(lines) + "\n", encoding="utf-8")


def loss_table(history: dict[str, Any]) -> list[str]:
    part = "validation" if history["epochs"][-1]["validation"] else "train"
    before, after = history["initial"][part], history["epochs"][-1][part]
    rows = [f"| {name} | {before[name]:.4f} | {after[name]:.4f} |" for name in before]
    return [f"## Losses ({part} positions)", "", "| loss | before | after |", "| --- | --- | --- |", *rows]


def gate_lines(gate: dict[str, Any] | None) -> list[str]:
    if gate is None:
        return ["## Head to head", "", "Not played yet."]
    verdict = ("the new best" if gate["accepted"]
               else "not the best (kept until a later generation beats the best)")
    return ["## Head to head", "",
            f"Against {gate['against']}: {gate['wins']} wins, {gate['losses']} losses, {gate['ties']} ties "
            f"of {gate['matches']} matches (duplicate deals, `{gate['specs'][0]}`), "
            f"**{100 * gate['rate']:.1f}% (95% Wilson interval "
            f"{100 * gate['low']:.1f}–{100 * gate['high']:.1f}%)**; "
            f"threshold {100 * gate['threshold']:.0f}%: {verdict}."]


# 4. The gate -----------------------------------------------------------------------------

def gate_games(config: Config, generation: int, best: int, best_name: str | None) -> list[Any]:
    """The gate's schedule: generation g (bot 0) against the best (bot 1)."""
    bot = config.iterate.gate_bot or config.generate.bot
    specs = [search_spec(bot, config.iterate.net_options, gen_name(generation)),
             search_spec(bot, config.iterate.net_options, best_name if best == 0 else gen_name(best))]
    return schedule(specs, deals=max(1, math.ceil(config.iterate.gate_matches / 2)),
                    seed=derive_seed(config.seed, "gate", generation), rules=config.generate.rules)


def played(path: Path) -> dict[int, dict[str, Any]]:
    """The gate games already played (by number in the schedule)."""
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            out[int(record["index"])] = record["result"]
    return out


def step_gate(config: Config, run: Path, generation: int, state: dict[str, Any], workers: Workers,
              deadline: Deadline, log: Log) -> bool:
    """Play generation g's gate games not played yet; when all are, decide and write ``gate.json``."""
    folder = gen_dir(run, generation)
    best = int(state["best"])
    games = gate_games(config, generation, best, state["best_network"])
    done = played(folder / GATE_GAMES)
    todo = [i for i in range(len(games)) if i not in done]
    networks = [n for n in (network(config, run, generation), network(config, run, best)) if n is not None]
    batches = chunked([games[i] for i in todo], workers.jobs)
    offsets = [sum(len(b) for b in batches[:k]) for k in range(len(batches))]
    log(f"generation {generation}: gate against {state['best_network'] if best == 0 else gen_name(best)}, "
        f"{len(todo)} of {len(games)} matches to play")

    def save(number: int, results: list[GameResult]) -> None:
        with (folder / GATE_GAMES).open("a", encoding="utf-8") as out:
            for k, result in enumerate(results):
                out.write(json.dumps({"index": todo[offsets[number] + k], "result": result.to_json()}) + "\n")

    workers.run([(play_gate, (batch, networks)) for batch in batches], save, deadline)
    done = played(folder / GATE_GAMES)
    if len(done) < len(games):
        return False
    decide(config, run, generation, state, games, done, log)
    return True


def decide(config: Config, run: Path, generation: int, state: dict[str, Any], games: list[Any],
           done: dict[int, dict[str, Any]], log: Log) -> None:
    """Count the gate, write ``gate.json`` and the card, and make g the best if it won."""
    winners = [done[i]["winner_bot"] for i in range(len(games))]
    wins, losses = winners.count(0), winners.count(1)
    low, high = wilson(wins, wins + losses)
    best = int(state["best"])
    gate = {"generation": generation, "against": state["best_network"] if best == 0 else gen_name(best),
            "matches": len(games), "wins": wins, "losses": losses, "ties": len(games) - wins - losses,
            "rate": wins / max(1, wins + losses), "low": low, "high": high,
            "threshold": config.iterate.gate_threshold, "accepted": low > config.iterate.gate_threshold,
            "specs": list(games[0].specs)}
    write_card(config, run, generation, state, gate)
    partial = gen_dir(run, generation) / (GATE + ".partial")
    partial.write_text(json.dumps(gate, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, gen_dir(run, generation) / GATE)
    log(f"generation {generation}: {wins}-{losses} against {gate['against']}, {100 * gate['rate']:.1f}% "
        f"({100 * low:.1f}–{100 * high:.1f}%): {'the new best' if gate['accepted'] else 'rejected'}")
    sync(config, run, state, log)


def sync(config: Config, run: Path, state: dict[str, Any], log: Log) -> None:
    """The best so far and each generation's gate, from the ``gate.json`` files (the
    truth, whenever a run stopped), and the pruning they call for."""
    state["best"], state["best_network"] = 0, start_name(config)
    for generation in range(1, config.iterate.generations + 1):
        path = gen_dir(run, generation) / GATE
        if not path.exists():
            break
        gate = json.loads(path.read_text(encoding="utf-8"))
        record(state, generation)["gate"] = {k: gate[k] for k in ("against", "wins", "losses", "ties", "rate",
                                                                  "low", "high", "accepted")}
        if gate["accepted"]:
            state["best"], state["best_network"] = generation, gen_name(generation)
    if config.iterate.prune:
        prune(run, int(state["best"]), state, log)


def prune(run: Path, best: int, state: dict[str, Any], log: Log) -> None:
    """Delete the weights, card and checkpoint of the generations before the new best
    (it beat the best before it, which had beaten the rest); their data stay."""
    for generation in range(1, best):
        folder = gen_dir(run, generation)
        gone = [name for name in (WEIGHTS, CARD, CHECKPOINT) if (folder / name).exists()]
        for name in gone:
            (folder / name).unlink()
        if gone:
            state["deleted"].append({"generation": generation, "files": gone, "beaten_by": gen_name(best)})
            log(f"generation {generation}: beaten by {gen_name(best)}; deleted {', '.join(gone)}")


# The loop --------------------------------------------------------------------------------

def finished(config: Config, run: Path, generation: int, step: str) -> bool:
    """Whether generation g's ``step`` is done, judging by its files."""
    folder = gen_dir(run, generation)
    if step == "generate":
        return all(chunk_path(folder / "data", i).exists() for i in range(config.generate.chunks))
    if step == "train":
        path = folder / HISTORY
        return path.exists() and len(json.loads(path.read_text())["epochs"]) >= config.train.epochs
    if step == "export":
        return (folder / WEIGHTS).exists() or (folder / GATE).exists()
    return (folder / GATE).exists()


def iterate(config: Config, run: Path, workers: Workers, *, stop_after: float | None = None,
            log: Log = print) -> bool:
    """Run (or go on with) the configured generations; ``False`` when ``stop_after``
    seconds ran out first (run again to go on)."""
    run.mkdir(parents=True, exist_ok=True)
    state = load_state(config, run)
    sync(config, run, state, log)
    deadline = Deadline(stop_after)
    for generation in range(1, config.iterate.generations + 1):
        for step in STEPS:
            if finished(config, run, generation, step):
                continue
            state.update(generation=generation, step=step, done=False)
            save_state(run, state)
            complete = do_step(step, config, run, generation, state, workers, deadline, log)
            save_state(run, state)
            if not complete or deadline.passed():
                log(f"stopped in generation {generation} at {step} (run again to go on)")
                return False
    state.update(generation=config.iterate.generations, step="done", done=True)
    save_state(run, state)
    log(f"done: {config.iterate.generations} generations, "
        f"the best is {state['best_network'] or 'no network'}")
    return True


def do_step(step: str, config: Config, run: Path, generation: int, state: dict[str, Any], workers: Workers,
            deadline: Deadline, log: Log) -> bool:
    if step == "generate":
        return step_generate(config, run, generation, workers, deadline, log)
    if step == "train":
        return step_train(config, run, generation, state, deadline, log)
    if step == "export":
        return step_export(config, run, generation, state, log)
    return step_gate(config, run, generation, state, workers, deadline, log)


# Shipping --------------------------------------------------------------------------------

def ship(config: Config, run: Path, destination: Path, log: Log = print) -> Path:
    """Copy the best generation's weights (as ``sixtysix-net.npz``, checked against the
    format and ``ship_limit``) and its card into ``destination``."""
    state = load_state(config, run)
    best = int(state["best"])
    if best == 0:
        raise SystemExit(f"{run}: no generation has beaten the start yet: nothing to ship")
    source = gen_dir(run, best)
    size = (source / WEIGHTS).stat().st_size
    if size > config.iterate.ship_limit:
        raise SystemExit(f"{source / WEIGHTS}: {size:,} bytes, more than {config.iterate.ship_limit:,}")
    read(source / WEIGHTS)
    destination.mkdir(parents=True, exist_ok=True)
    for name, target in ((WEIGHTS, "sixtysix-net.npz"), (CARD, CARD)):
        partial = destination / (target + ".partial")
        shutil.copyfile(source / name, partial)
        os.replace(partial, destination / target)
    log(f"shipped {gen_name(best)} ({size:,} bytes) and its card to {destination}")
    return destination / "sixtysix-net.npz"
