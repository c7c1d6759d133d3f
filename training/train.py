"""Training on the CPU: seeded, resumable from the checkpoint written after every epoch."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from training.config import Config
from training.generate import load_chunks
from training.model import Batch, Net, losses

__all__ = ["CHECKPOINT", "HISTORY", "load_checkpoint", "split", "train"]

CHECKPOINT = "checkpoint.pt"
HISTORY = "history.json"
#: The training losses reported are those of the first this many training positions.
EVALUATE_ROWS = 65_536


def split(config: Config, sizes: list[int]) -> int:
    """How many rows (whole chunks from the start) are for training; the rest validate."""
    held = round(config.train.validation * len(sizes)) if len(sizes) > 1 else 0
    held = min(held, len(sizes) - 1)
    if config.train.validation > 0 and len(sizes) > 1:
        held = max(held, 1)
    return sum(sizes[: len(sizes) - held])


def _tensors(arrays: dict[str, npt.NDArray[Any]], rows: slice) -> Batch:
    return {name: torch.from_numpy(np.ascontiguousarray(array[rows])) for name, array in arrays.items()}


def _evaluate(net: Net, data: Batch, config: Config, batch_size: int = 8192) -> dict[str, float]:
    """The mean losses of ``net`` over ``data`` (weighted by rows), and its ``agreement``:
    the share of positions where its likeliest legal action is the search's most visited."""
    rows = len(data["value"])
    sums: dict[str, float] = {}
    net.eval()
    with torch.no_grad():
        for start in range(0, rows, batch_size):
            batch = {k: v[start:start + batch_size] for k, v in data.items()}
            count = len(batch["value"])
            for name, loss in losses(net, batch, config.train.value_weight, config.train.hand_weight).items():
                sums[name] = sums.get(name, 0.0) + float(loss) * count
            logits = net(batch["obs"])[0].masked_fill(~batch["mask"].bool(), float("-inf"))
            same = logits.argmax(dim=-1) == batch["policy"].argmax(dim=-1)
            sums["agreement"] = sums.get("agreement", 0.0) + float(same.sum())
    return {name: total / max(rows, 1) for name, total in sums.items()}


def load_checkpoint(run: Path) -> dict[str, Any] | None:
    path = run / CHECKPOINT
    if not path.exists():
        return None
    state: dict[str, Any] = torch.load(path, weights_only=True)
    return state


def train(config: Config, run: Path, *, stop_after: float | None = None,
          log: Callable[[str], None] = print, data_dirs: Sequence[Path] | None = None,
          init: Mapping[str, torch.Tensor] | None = None) -> dict[str, Any]:
    """Train (or go on training) the network of ``config`` on the chunks in ``run/data``
    (or in each of ``data_dirs``, in turn); returns the history: the losses before
    training and after every epoch. A fresh network starts from ``init`` (a state dict)
    when it is given. With ``stop_after`` it stops after the first epoch that ends
    after that many seconds (at least one epoch is trained)."""
    settings = config.train
    torch.set_num_threads(max(1, settings.threads))
    arrays, sizes = _load(data_dirs if data_dirs is not None else [run / "data"], config.generate.chunks)
    cut = split(config, sizes)
    data = _tensors(arrays, slice(0, cut))
    held = _tensors(arrays, slice(cut, None))
    rows = len(data["value"])
    # The training losses are measured on a fixed sample (the first rows), to save time.
    sample = {name: tensor[:EVALUATE_ROWS] for name, tensor in data.items()}
    if rows == 0:
        raise ValueError("no training positions: generate more hands")
    torch.manual_seed(config.seed)
    net = Net(settings.hidden)
    if init is not None:
        net.load_state_dict(init)
    optimizer = torch.optim.Adam(net.parameters(), lr=settings.lr, weight_decay=settings.weight_decay)
    state = load_checkpoint(run)
    if state is not None:
        net.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        history: dict[str, Any] = json.loads(state["history"])
        log(f"train: resuming after epoch {len(history['epochs'])}")
    else:
        history = {"positions": rows, "validation_positions": len(held["value"]),
                   "initial": {"train": _evaluate(net, sample, config),
                               "validation": _evaluate(net, held, config) if len(held["value"]) else {}},
                   "epochs": []}
        log(f"train: {rows} positions ({len(held['value'])} held out); untrained losses "
            + _show(history["initial"]["train"]))
    start = time.perf_counter()
    resumed_at = len(history["epochs"])
    for epoch in range(resumed_at, settings.epochs):
        if stop_after is not None and epoch > resumed_at and time.perf_counter() - start > stop_after:
            log(f"train: stopped after {stop_after} s at epoch {epoch} of {settings.epochs} "
                "(run again to resume)")
            break
        began = time.perf_counter()
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(config, epoch)
        net.train()
        order = torch.randperm(rows, generator=torch.Generator().manual_seed(config.seed * 100_003 + epoch))
        for first in range(0, rows, settings.batch_size):
            index = order[first:first + settings.batch_size]
            batch = {name: tensor[index] for name, tensor in data.items()}
            loss = losses(net, batch, settings.value_weight, settings.hand_weight)["total"]
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
        seconds = time.perf_counter() - began
        record: dict[str, Any] = {
            "epoch": epoch + 1, "seconds": round(seconds, 3), "train": _evaluate(net, sample, config),
            "validation": _evaluate(net, held, config) if len(held["value"]) else {}}
        history["epochs"].append(record)
        log(f"train: epoch {epoch + 1}/{settings.epochs} in {seconds:.1f} s: train " + _show(record["train"])
            + (", validation " + _show(record["validation"]) if record["validation"] else ""))
        _save(run, net, optimizer, history)
    return history


def _load(dirs: Sequence[Path], chunks: int) -> tuple[dict[str, npt.NDArray[Any]], list[int]]:
    """The chunks of every directory of ``dirs`` concatenated, and each chunk's row count."""
    parts = [load_chunks(data, chunks) for data in dirs]
    if len(parts) == 1:
        return parts[0]
    arrays = {name: np.concatenate([p[0][name] for p in parts]) for name in parts[0][0]}
    return arrays, [size for p in parts for size in p[1]]


def learning_rate(config: Config, epoch: int) -> float:
    """The learning rate of epoch ``epoch`` (from 0) of ``config``'s schedule."""
    settings = config.train
    if settings.schedule == "constant":
        return settings.lr
    if settings.schedule == "cosine":
        fall = 0.5 * (1 + math.cos(math.pi * epoch / max(settings.epochs - 1, 1)))  # last epoch: the floor
        return settings.lr * (settings.lr_floor + (1 - settings.lr_floor) * fall)
    raise ValueError(f"schedule must be constant or cosine, not {settings.schedule!r}")


def _show(values: dict[str, float]) -> str:
    return " ".join(f"{name} {value:.4f}" for name, value in values.items())


def _save(run: Path, net: Net, optimizer: torch.optim.Optimizer, history: dict[str, Any]) -> None:
    """The checkpoint (written whole, then renamed) and a readable copy of the history."""
    partial = run / (CHECKPOINT + ".partial")
    torch.save({"model": net.state_dict(), "optimizer": optimizer.state_dict(),
                "history": json.dumps(history)}, partial)
    os.replace(partial, run / CHECKPOINT)
    (run / HISTORY).write_text(json.dumps(history, indent=1) + "\n", encoding="utf-8")
