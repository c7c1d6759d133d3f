"""The weights file the package loads with numpy (format ``sixtysix-net/1``).

One ``.npz`` written by :func:`numpy.savez`, readable with
``numpy.load(path, allow_pickle=False)``: float32 arrays ``trunk.0.weight`` (out × in,
as ``torch.nn.Linear``), ``trunk.0.bias``, ``trunk.1.weight`` ... for each hidden
layer in order, ``policy.weight`` (56 × H), ``policy.bias``, ``value.weight`` (1 × H),
``value.bias``, ``hand.weight`` (24 × H), ``hand.bias``; and ``meta``, a 0-d unicode
string array of JSON describing the network and how it was trained.

Semantics: ``h = relu(W h + b)`` through the trunk; the policy is the softmax of the
policy logits over the legal codes; the value is ``tanh`` of its output (expected game
points of the seat to act / 3); the hand is ``sigmoid`` of its logits (the probability
that the opponent holds each card). :func:`forward` is that, in numpy.
"""

from __future__ import annotations

import datetime
import itertools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from sixtysix.envs.observation import NUM_ACTIONS, OBSERVATION_SIZE

__all__ = ["FORMAT", "expected_arrays", "export", "forward", "read"]

FORMAT = "sixtysix-net/1"
HEADS = {"policy": NUM_ACTIONS, "value": 1, "hand": 24}
Array = npt.NDArray[np.float32]


def expected_arrays(hidden: list[int], inputs: int = OBSERVATION_SIZE) -> dict[str, tuple[int, ...]]:
    """The name and shape of every array of a weights file, ``meta`` aside."""
    shapes: dict[str, tuple[int, ...]] = {}
    sizes = [inputs, *hidden]
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        shapes[f"trunk.{i}.weight"] = (b, a)
        shapes[f"trunk.{i}.bias"] = (b,)
    for head, size in HEADS.items():
        shapes[f"{head}.weight"] = (size, sizes[-1])
        shapes[f"{head}.bias"] = (size,)
    return shapes


def export(state: Mapping[str, Any], hidden: list[int], path: Path, trained: dict[str, Any]) -> Path:
    """Write the weights in ``state`` (a state dict: tensors or arrays by name) to ``path``."""
    shapes = expected_arrays(hidden)
    arrays: dict[str, Array] = {}
    for name, shape in shapes.items():
        value = state[name]
        array = np.asarray(value.detach().cpu().numpy() if hasattr(value, "detach") else value,
                           dtype=np.float32)
        if array.shape != shape:
            raise ValueError(f"{name}: shape {array.shape}, expected {shape}")
        arrays[name] = np.ascontiguousarray(array)
    extra = set(state) - set(shapes)
    if extra:
        raise ValueError(f"parameters the format has no place for: {', '.join(sorted(extra))}")
    meta = {"format": FORMAT, "features": "observation", "inputs": OBSERVATION_SIZE,
            "hidden": list(hidden), "activation": "relu", "heads": dict(HEADS),
            "trained": _trained(trained)}
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial.npz")
    np.savez(partial, meta=np.array(json.dumps(meta, sort_keys=False)), **arrays)  # type: ignore[arg-type]
    partial.replace(path)
    return path


def _trained(trained: dict[str, Any]) -> dict[str, Any]:
    """How the weights were made, the date added, in the format's order of keys."""
    first = ("config", "seed", "positions", "epochs", "command")
    out = {key: trained[key] for key in first if key in trained}
    out["date"] = datetime.date.today().isoformat()
    out.update({key: value for key, value in trained.items() if key not in out})
    return out


def read(path: Path) -> tuple[dict[str, Array], dict[str, Any]]:
    """The arrays and the meta of a weights file (checked against the format)."""
    with np.load(path, allow_pickle=False) as npz:
        arrays = {name: npz[name] for name in npz.files}
    meta = json.loads(str(arrays.pop("meta")[()]))
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path}: format {meta.get('format')!r}, expected {FORMAT!r}")
    shapes = expected_arrays(list(meta["hidden"]), int(meta["inputs"]))
    if set(arrays) != set(shapes):
        raise ValueError(f"{path}: arrays {sorted(arrays)}, expected {sorted(shapes)}")
    for name, shape in shapes.items():
        if arrays[name].shape != shape or arrays[name].dtype != np.float32:
            raise ValueError(f"{path}: {name} is {arrays[name].dtype} {arrays[name].shape}, "
                             f"expected float32 {shape}")
    return arrays, meta


def forward(arrays: Mapping[str, Array], obs: Array, mask: npt.NDArray[Any]) -> tuple[Array, Array, Array]:
    """Policy (probabilities over the legal codes), value (in [-1, 1]) and hand
    (probabilities) for a batch of observations ``obs`` (rows) and legal masks ``mask``."""
    h = np.asarray(obs, dtype=np.float32)
    layer = 0
    while f"trunk.{layer}.weight" in arrays:
        h = np.maximum(h @ arrays[f"trunk.{layer}.weight"].T + arrays[f"trunk.{layer}.bias"], 0.0)
        layer += 1
    logits = h @ arrays["policy.weight"].T + arrays["policy.bias"]
    logits = np.where(np.asarray(mask) > 0, logits, -np.inf)
    logits = logits - logits.max(axis=-1, keepdims=True)
    exp = np.exp(logits)
    policy = exp / exp.sum(axis=-1, keepdims=True)
    value = np.tanh(h @ arrays["value.weight"].T + arrays["value.bias"])[..., 0]
    hand = 1.0 / (1.0 + np.exp(-(h @ arrays["hand.weight"].T + arrays["hand.bias"])))
    return policy.astype(np.float32), value.astype(np.float32), hand.astype(np.float32)
