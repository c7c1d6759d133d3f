"""Self-play data: positions of games a search player plays against itself (or, in the
chunks a configuration says, against another player), with the search's targets, in
numbered ``.npz`` chunks.

For each decision with more than one legal action, a chunk holds (one row each):

========== ============ =====================================================
array      shape, dtype meaning
========== ============ =====================================================
``obs``    229, float32 ``sixtysix.envs.observation.encode(view, match_info)``:
                        the seat's view only, never a hidden card
``mask``   56, int8     the legal actions (``action_mask(view)``)
``policy`` 56, float32  the root visit distribution of the search over action codes
``value``  float32      the hand's outcome for the seat to act: ±g/3 for g game
                        points won or lost (``Hand.result()``), 0 for a tie
``hand``   24, int8     1 for each card the opponent holds at that moment (from
                        the real hand: the inference target, never a feature)
``unseen`` 24, int8     1 for each card unseen by the seat (``view.unseen()``):
                        the cards the inference head is to predict
========== ============ =====================================================

plus ``meta``, a 0-d string array of JSON (the configuration, the chunk, its seed).
Chunk ``i`` depends only on the configuration's seed and ``i``: chunks can be made in
any order, by any number of processes, and a rerun skips the finished ones (each is
written under a temporary name and renamed when complete).
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from sixtysix.bots import make_bot
from sixtysix.envs.game import Episode, parse_rules
from sixtysix.envs.observation import OBSERVATION_SIZE, action_mask, encode
from sixtysix.game.actions import NUM_CODES
from training.config import Config, GenerateConfig

__all__ = ["ARRAYS", "chunk_path", "generate", "load_chunks", "make_chunk"]

#: The arrays of a chunk, in order.
ARRAYS = ("obs", "mask", "policy", "value", "hand", "unseen")


def chunk_path(data: Path, index: int) -> Path:
    return data / f"chunk-{index:05d}.npz"


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index`` of a run seeded ``seed`` (stable across Python versions)."""
    return random.Random(f"sixtysix-training:{seed}:{index}").getrandbits(63)


def make_chunk(config: GenerateConfig, seed: int, index: int) -> dict[str, npt.NDArray[Any]]:
    """Play the hands of chunk ``index`` and return its arrays (and ``meta``)."""
    rng = random.Random(chunk_seed(seed, index))
    rules = parse_rules(config.rules)
    bot = make_bot(config.bot, seed=rng.getrandbits(63))
    root_stats: Callable[..., dict[int, tuple[int, float, float]]] | None = getattr(bot, "root_stats", None)
    if root_stats is None:
        raise ValueError(f"bot {config.bot!r} has no root_stats: a search bot is needed for the targets")
    rows: dict[str, list[Any]] = {name: [] for name in ARRAYS}
    episode: Episode | None = None
    against = config.opponent is not None and index >= config.opponent_from
    opponent = make_bot(config.opponent, seed=rng.getrandbits(63)) if against and config.opponent else None
    searcher = 1  # the seat the search takes against an opponent (changes each episode)
    for _ in range(config.hands_per_chunk):
        if episode is None or not episode.next_hand():
            episode = Episode(rules, config.episode, rng)
            searcher = 1 - searcher
        hand = episode.hand
        seats: list[int] = []
        decisions = 0
        while not hand.is_over():
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            legal = view.legal
            if len(legal) == 1:
                hand.push(legal[0])
                continue
            if opponent is not None and seat != searcher:
                hand.push(opponent.choose(view, legal))
                continue
            stats = root_stats(view)
            policy = np.zeros(NUM_CODES, dtype=np.float32)
            for code, (visits, _total, _squares) in stats.items():
                policy[code] = visits
            if policy.sum() <= 0:  # nothing searched (cannot happen with a budget): uniform
                for action in legal:
                    policy[action.code] = 1.0
            policy /= policy.sum()
            held = np.zeros(24, dtype=np.int8)
            for card in hand.cards(1 - seat):
                held[card.index] = 1
            unseen = np.zeros(24, dtype=np.int8)
            for card in view.unseen():
                unseen[card.index] = 1
            rows["obs"].append(encode(view, episode.match_info(seat)))
            rows["mask"].append(action_mask(view))
            rows["policy"].append(policy)
            rows["hand"].append(held)
            rows["unseen"].append(unseen)
            seats.append(seat)
            if decisions < config.sample_moves:
                codes = [a.code for a in legal]
                weights = [float(policy[c]) for c in codes]
                code = rng.choices(codes, weights=weights)[0] if sum(weights) > 0 else codes[0]
            else:
                code = _most_visited(stats, [a.code for a in legal])
            decisions += 1
            hand.push_code(code)
        result = hand.result()
        assert result is not None
        for seat in seats:
            if result.winner is None:
                rows["value"].append(0.0)
            else:
                points = result.game_points / 3.0
                rows["value"].append(points if result.winner == seat else -points)
    close = getattr(bot, "close", None)
    if close is not None:
        close()
    out: dict[str, npt.NDArray[Any]] = {
        "obs": np.asarray(rows["obs"], dtype=np.float32).reshape(-1, OBSERVATION_SIZE),
        "mask": np.asarray(rows["mask"], dtype=np.int8).reshape(-1, NUM_CODES),
        "policy": np.asarray(rows["policy"], dtype=np.float32).reshape(-1, NUM_CODES),
        "value": np.asarray(rows["value"], dtype=np.float32),
        "hand": np.asarray(rows["hand"], dtype=np.int8).reshape(-1, 24),
        "unseen": np.asarray(rows["unseen"], dtype=np.int8).reshape(-1, 24),
    }
    meta = {"chunk": index, "seed": seed, "chunk_seed": chunk_seed(seed, index),
            "generate": {k: getattr(config, k) for k in
                         ("bot", "hands_per_chunk", "episode", "rules", "sample_moves")},
            "opponent": config.opponent if against else None,
            "positions": len(out["value"])}
    out["meta"] = np.array(json.dumps(meta))
    return out


def _most_visited(stats: dict[int, tuple[int, float, float]], codes: list[int]) -> int:
    """The most visited of ``codes`` (ties: the higher mean reward, then the first)."""
    def key(code: int) -> tuple[int, float]:
        visits, total, _ = stats.get(code, (0, 0.0, 0.0))
        return visits, (total / visits if visits else float("-inf"))
    return max(codes, key=key)


def _write_chunk(config: GenerateConfig, seed: int, index: int, data: str) -> tuple[int, int, float]:
    start = time.perf_counter()
    arrays = make_chunk(config, seed, index)
    path = chunk_path(Path(data), index)
    partial = path.with_name(f"{path.stem}.partial-{os.getpid()}.npz")
    np.savez_compressed(partial, **arrays)  # type: ignore[arg-type]
    os.replace(partial, path)
    return index, len(arrays["value"]), time.perf_counter() - start


def generate(config: Config, data: Path, *, workers: int | None = None, stop_after: float | None = None,
             log: Callable[[str], None] = print) -> int:
    """Make the chunks of ``config`` missing in ``data``; returns how many are still missing
    (more than 0 only when ``stop_after`` seconds ran out first)."""
    data.mkdir(parents=True, exist_ok=True)
    for stale in data.glob("*.partial-*.npz"):
        stale.unlink()
    todo = [i for i in range(config.generate.chunks) if not chunk_path(data, i).exists()]
    done = config.generate.chunks - len(todo)
    if done:
        log(f"generate: {done} of {config.generate.chunks} chunks already made, skipped")
    workers = max(1, workers if workers is not None else config.generate.workers)
    start = time.perf_counter()
    positions = 0
    finished: set[int] = set()

    def report(index: int, count: int, seconds: float) -> None:
        nonlocal positions
        positions += count
        finished.add(index)
        elapsed = time.perf_counter() - start
        log(f"generate: chunk {index}: {count} positions in {seconds:.1f} s "
            f"({positions / elapsed:.0f} positions/s overall, {len(finished)}/{len(todo)} chunks)")

    def out_of_time() -> bool:
        return stop_after is not None and time.perf_counter() - start > stop_after

    if workers == 1:
        for index in todo:
            if out_of_time():
                break
            report(*_write_chunk(config.generate, config.seed, index, str(data)))
    else:
        with ProcessPoolExecutor(workers) as pool:
            pending = list(todo)
            running: dict[Any, int] = {}
            while pending or running:
                while pending and len(running) < workers and not out_of_time():
                    index = pending.pop(0)
                    running[pool.submit(_write_chunk, config.generate, config.seed, index, str(data))] = index
                if not running:
                    break
                ready, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for future in ready:
                    del running[future]
                    report(*future.result())
    missing = config.generate.chunks - sum(1 for i in range(config.generate.chunks)
                                             if chunk_path(data, i).exists())
    if missing:
        log(f"generate: stopped after {stop_after} s; {missing} chunks to go (run again to resume)")
    return missing


def load_chunks(data: Path, chunks: int) -> tuple[dict[str, npt.NDArray[Any]], list[int]]:
    """The arrays of chunks 0..chunks-1 of ``data`` concatenated, and each chunk's row count."""
    parts: dict[str, list[npt.NDArray[Any]]] = {name: [] for name in ARRAYS}
    sizes: list[int] = []
    for index in range(chunks):
        path = chunk_path(data, index)
        if not path.exists():
            raise FileNotFoundError(f"{path}: chunk {index} is missing (run `python -m training generate`)")
        with np.load(path, allow_pickle=False) as chunk:
            for name in ARRAYS:
                parts[name].append(chunk[name])
            sizes.append(len(chunk["value"]))
    return {name: np.concatenate(arrays) for name, arrays in parts.items()}, sizes
