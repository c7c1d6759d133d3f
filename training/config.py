"""A run's configuration: one JSON file under ``training/configs/`` per run."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

__all__ = ["Config", "GenerateConfig", "IterateConfig", "TrainConfig", "load"]


@dataclass(frozen=True)
class GenerateConfig:
    """Self-play: ``chunks`` files of ``hands_per_chunk`` hands each, played by ``bot``
    against itself (whole matches when ``episode`` is ``"match"``)."""

    bot: str = "ismcts:iterations=2700,c=0.4,bias=2.0"
    chunks: int = 1
    hands_per_chunk: int = 100
    episode: str = "match"
    rules: str = "classic"
    #: The first decisions of each hand (both seats together) are played by sampling
    #: the root visit distribution instead of taking the most visited action, so
    #: that the games differ more.
    sample_moves: int = 4
    workers: int = 1
    #: Chunks from ``opponent_from`` on are played against ``opponent`` (a bot spec,
    #: e.g. ``"heuristic"``) instead of self-play: the search takes each seat in turn,
    #: match by match, and only its decisions are rows (their ``hand`` target is the
    #: opponent's real hand, so the inference head learns how that player's hands
    #: show in his play too).
    opponent: str | None = None
    opponent_from: int = 0


@dataclass(frozen=True)
class TrainConfig:
    """The network and its training."""

    hidden: tuple[int, ...] = (256, 256, 256)
    epochs: int = 20
    batch_size: int = 512
    lr: float = 1e-3
    #: ``"constant"``, or ``"cosine"``: the learning rate falls from ``lr`` to
    #: ``lr * lr_floor`` along half a cosine, reaching it at the last epoch (set per epoch, so a
    #: resumed run follows the same schedule).
    schedule: str = "constant"
    lr_floor: float = 0.05
    weight_decay: float = 1e-5
    value_weight: float = 1.0
    hand_weight: float = 1.0
    #: The share of positions (whole chunks, the last ones) kept out of training to
    #: measure the losses on.
    validation: float = 0.05
    threads: int = 2


@dataclass(frozen=True)
class IterateConfig:
    """Iterated self-play (``python -m training iterate``): each generation's chunks
    (``generate``, with ``generate.bot`` guided by the previous generation's network
    through ``net_options``), its training (``train``) and its gate against the best."""

    generations: int = 2
    #: The network guiding generation 1: ``"shipped"`` (the package's), a weights file
    #: (relative to the repository's root unless absolute), or ``None`` for the plain
    #: search (``net_options`` left out).
    start: str | None = "shipped"
    #: Options added to the search (``generate.bot`` and ``gate_bot``) whenever it has a
    #: network: ``network=...`` is added to them.
    net_options: str = "net_prior=2"
    #: Generation g trains on the chunks of generations g-window+1 .. g.
    window: int = 2
    #: ``"previous"``: start from generation g-1's weights (generation 1: the start's,
    #: when its hidden sizes are the configuration's); ``"scratch"``: fresh weights.
    init: str = "previous"
    #: The gate's search (the generation's and the best's network added); ``None``: ``generate.bot``.
    gate_bot: str | None = None
    #: Matches of the gate (rounded up to an even number: duplicate deals).
    gate_matches: int = 200
    #: A generation becomes the best when the lower end of the 95% Wilson interval of its
    #: win rate against the best (ties left out) is above this.
    gate_threshold: float = 0.5
    #: Delete the weights, card and checkpoint of the generations a new best beats.
    prune: bool = True
    #: ``--ship`` refuses weights larger than this many bytes.
    ship_limit: int = 5_000_000


@dataclass(frozen=True)
class Config:
    name: str
    seed: int
    generate: GenerateConfig = field(default_factory=GenerateConfig)
    train: TrainConfig = field(default_factory=TrainConfig)
    iterate: IterateConfig = field(default_factory=IterateConfig)
    #: Where the run keeps its data, checkpoints and weights, relative to the
    #: repository's root unless absolute (``--out`` overrides it).
    out: str = "training/runs/{name}"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _section(cls: type[Any], data: dict[str, Any], where: str) -> Any:
    known = {f.name for f in fields(cls)}
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"{where}: unknown keys {', '.join(sorted(unknown))} "
                         f"(expected some of {', '.join(sorted(known))})")
    if "hidden" in data:
        data = {**data, "hidden": tuple(int(h) for h in data["hidden"])}
    return cls(**data)


def load(path: str | Path) -> Config:
    """The configuration in the JSON file ``path``."""
    path = Path(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    where = str(path)
    top = {"name", "seed", "generate", "train", "iterate", "out", "comment"}
    unknown = set(data) - top
    if unknown:
        raise ValueError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    return Config(
        name=str(data.get("name", path.stem)),
        seed=int(data["seed"]),
        generate=_section(GenerateConfig, data.get("generate", {}), f"{where}: generate"),
        train=_section(TrainConfig, data.get("train", {}), f"{where}: train"),
        iterate=_section(IterateConfig, data.get("iterate", {}), f"{where}: iterate"),
        out=str(data.get("out", "training/runs/{name}")),
    )
