"""A learned network, run with numpy: a policy over the actions, a value of the position
and the inference of the opponent's hand, all from one seat's view (needs numpy).

The network reads :func:`sixtysix.game.observation.encode` of a :class:`~sixtysix.game.views.View`,
so it sees what the seat may know and nothing else (R11). A trunk of fully
connected layers with ReLU feeds three heads:

- ``policy``: a logit per action code (56); the policy is their softmax over the
  legal actions only;
- ``value``: ``tanh`` of one output, the expected game points of the seat to act
  divided by 3 (a hand is worth -3..3, R9.1), the scale of the search's rewards;
- ``hand``: a logit per card (24); its sigmoid is the probability that the
  opponent holds the card, given for the cards whose place the seat does not know.

Weights are a ``.npz`` file in the format ``sixtysix-net/1``: float32 arrays
``trunk.0.weight`` (out × in, as PyTorch's ``Linear`` stores them),
``trunk.0.bias``, ``trunk.1.weight``, ..., ``policy.weight``, ``policy.bias``,
``value.weight``, ``value.bias``, ``hand.weight``, ``hand.bias``, and ``meta``: a
JSON text saying the format, the inputs, the sizes and how it was trained (the
model card's figures). They are read with ``allow_pickle=False``: loading weights
never runs code. The training pipeline that writes them is in the repository's
``training/`` directory.

>>> import random
>>> from sixtysix import Hand
>>> net = Network.random([32], seed=1)
>>> view = Hand.random(seed=4).view(1)
>>> judged = net.evaluate(view)
>>> round(sum(judged.policy.values()), 6), set(judged.policy) == set(view.legal)
(1.0, True)
>>> -1.0 <= judged.value <= 1.0, set(judged.hand) == set(view.unseen())
(True, True)
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from sixtysix.game.actions import NUM_CODES, Action
from sixtysix.game.cards import Card
from sixtysix.game.observation import OBSERVATION_SIZE, encode
from sixtysix.game.views import View

__all__ = ["FORMAT", "Evaluation", "Network", "NetworkError", "shipped_weights"]

#: The weights format this module reads and writes.
FORMAT = "sixtysix-net/1"
#: The heads and their sizes.
HEADS = {"policy": NUM_CODES, "value": 1, "hand": 24}
#: Where to learn how to make weights (named in errors).
HOW = "train them with the repository's training/ pipeline (see training/README.md)"

Array = npt.NDArray[np.float32]


def shipped_weights() -> Path:
    """The weights file that ships with the package (its model card lies beside it)."""
    return Path(__file__).parent.parent / "nets" / "sixtysix-net.npz"


class NetworkError(ValueError):
    """Weights that cannot be used: a missing or unreadable file, a wrong format, an
    array missing or of the wrong shape. The message names the file and what is wrong."""


@dataclass(frozen=True)
class Evaluation:
    """What the network thinks of a view: the probability of each legal action, the
    value (expected game points / 3 for the seat to act) and, for each card the seat
    has not located, the probability that the opponent holds it."""

    policy: Mapping[Action, float]
    value: float
    hand: Mapping[Card, float]


def _relu(x: Array) -> Array:
    return np.maximum(x, np.float32(0.0))


class Network:
    """The layers of a network (see the module's text); :meth:`load` reads a weights file."""

    def __init__(self, trunk: Sequence[tuple[Array, Array]], heads: Mapping[str, tuple[Array, Array]],
                 meta: Mapping[str, Any] | None = None) -> None:
        self.trunk = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in trunk]
        self.heads = {name: (np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
                      for name, (w, b) in heads.items()}
        inputs = OBSERVATION_SIZE
        for n, (w, b) in enumerate(self.trunk):
            _shape(f"trunk.{n}", w, b, inputs)
            inputs = w.shape[0]
        if set(self.heads) != set(HEADS):
            raise NetworkError(f"the heads are {sorted(HEADS)}, not {sorted(self.heads)}")
        for name, size in HEADS.items():
            w, b = self.heads[name]
            _shape(name, w, b, inputs, size)
        self.meta: dict[str, Any] = {"format": FORMAT, "features": "observation", "inputs": OBSERVATION_SIZE,
                                     "hidden": [w.shape[0] for w, _ in self.trunk], "activation": "relu",
                                     "heads": dict(HEADS)}
        if meta is not None:
            self.meta.update({k: v for k, v in meta.items() if k not in self.meta or k == "trained"})

    # Files -----------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> Network:
        """Read a weights file; a missing, corrupt or foreign file raises :class:`NetworkError`
        naming it. Nothing in the file is run (``allow_pickle=False``)."""
        path = Path(path)
        if not path.is_file():
            raise NetworkError(f"{path}: no such weights file; {HOW}")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
            raise NetworkError(f"{path}: not a weights file ({exc}); {HOW}") from None
        try:
            return cls._from_arrays(arrays)
        except NetworkError as exc:
            raise NetworkError(f"{path}: {exc}") from None

    @classmethod
    def _from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> Network:
        if "meta" not in arrays:
            raise NetworkError("no 'meta' entry: not a sixtysix network")
        text = arrays["meta"]
        if text.dtype.kind != "U" or text.size != 1:
            raise NetworkError(f"its 'meta' is {text.dtype} of shape {text.shape}, not one text")
        try:
            meta = json.loads(str(text.reshape(-1)[0]))
        except ValueError as exc:
            raise NetworkError(f"its 'meta' is not JSON text ({exc})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            found = meta.get("format") if isinstance(meta, dict) else None
            raise NetworkError(f"format {found!r}, not {FORMAT!r}")
        if meta.get("features") != "observation" or meta.get("inputs") != OBSERVATION_SIZE:
            raise NetworkError(f"it reads {meta.get('inputs')} {meta.get('features')!r} features; "
                               f"this version encodes {OBSERVATION_SIZE} 'observation' features")
        if meta.get("activation", "relu") != "relu":
            raise NetworkError(f"activation {meta.get('activation')!r}, not 'relu'")

        def pair(name: str) -> tuple[Array, Array]:
            try:
                w, b = arrays[f"{name}.weight"], arrays[f"{name}.bias"]
            except KeyError as exc:
                raise NetworkError(f"missing array {exc.args[0]!r}") from None
            if w.dtype.kind != "f" or b.dtype.kind != "f":
                raise NetworkError(f"{name} holds {w.dtype}/{b.dtype}, not floats")
            return w.astype(np.float32), b.astype(np.float32)

        layers = sorted({int(k.split(".")[1]) for k in arrays if k.startswith("trunk.")})
        if layers != list(range(len(layers))):
            raise NetworkError(f"trunk layers {layers} are not numbered 0, 1, ...")
        known = {"meta"} | {f"{n}.{p}" for n in [*(f"trunk.{i}" for i in layers), *HEADS]
                            for p in ("weight", "bias")}
        extra = sorted(set(arrays) - known)
        if extra:
            raise NetworkError(f"unknown arrays {extra}")
        return cls([pair(f"trunk.{i}") for i in layers], {name: pair(name) for name in HEADS}, meta)

    def save(self, path: str | Path) -> None:
        """Write the weights file (format :data:`FORMAT`)."""
        arrays: dict[str, npt.NDArray[Any]] = {"meta": np.array(json.dumps(self.meta, sort_keys=True))}
        for n, (w, b) in enumerate(self.trunk):
            arrays[f"trunk.{n}.weight"], arrays[f"trunk.{n}.bias"] = w, b
        for name, (w, b) in self.heads.items():
            arrays[f"{name}.weight"], arrays[f"{name}.bias"] = w, b
        # An .npz is a zip of .npy files; written here entry by entry, never pickled.
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
            for name, array in arrays.items():
                with archive.open(f"{name}.npy", "w") as entry:
                    np.lib.format.write_array(entry, array, allow_pickle=False)

    @classmethod
    def random(cls, hidden: Sequence[int], *, seed: int = 0) -> Network:
        """A network of random weights (He initialisation), for tests and timing."""
        rng = np.random.default_rng(seed)

        def layer(inputs: int, outputs: int) -> tuple[Array, Array]:
            w = rng.normal(0.0, np.sqrt(2.0 / inputs), size=(outputs, inputs)).astype(np.float32)
            return w, np.zeros(outputs, dtype=np.float32)

        trunk, inputs = [], OBSERVATION_SIZE
        for size in hidden:
            trunk.append(layer(inputs, size))
            inputs = size
        return cls(trunk, {name: layer(inputs, size) for name, size in HEADS.items()},
                   {"trained": {"random": True, "seed": seed}})

    # Running ---------------------------------------------------------------------------
    def forward(self, x: npt.ArrayLike) -> tuple[Array, Array, Array]:
        """The raw outputs for a batch of observations (rows): policy logits (N × 56), values
        after ``tanh`` (N) and hand logits (N × 24)."""
        h = np.asarray(x, dtype=np.float32)
        if h.ndim != 2 or h.shape[1] != OBSERVATION_SIZE:
            raise ValueError(f"observations are rows of {OBSERVATION_SIZE}, not shape {h.shape}")
        for w, b in self.trunk:
            h = _relu(h @ w.T + b)
        policy = h @ self.heads["policy"][0].T + self.heads["policy"][1]
        value = np.tanh(h @ self.heads["value"][0].T + self.heads["value"][1])[:, 0]
        hand = h @ self.heads["hand"][0].T + self.heads["hand"][1]
        return policy, value.astype(np.float32), hand

    def evaluate(self, view: View, match: tuple[int, int, int, int] | None = None) -> Evaluation:
        """The network's opinion of ``view`` (``match`` as for :func:`~sixtysix.game.observation.encode`)."""
        logits, value, hand = self.forward(encode(view, match)[None, :])
        legal = list(view.legal)
        policy: dict[Action, float] = {}
        if legal:
            chosen = logits[0, [a.code for a in legal]].astype(np.float64)
            p = np.exp(chosen - chosen.max())
            p /= p.sum()
            policy = {a: float(q) for a, q in zip(legal, p, strict=True)}
        probabilities = 1.0 / (1.0 + np.exp(-hand[0].astype(np.float64)))
        unseen = sorted(view.unseen(), key=lambda c: c.index)
        return Evaluation(policy, float(value[0]), {c: float(probabilities[c.index]) for c in unseen})

    def outputs(self, view: View, match: tuple[int, int, int, int] | None = None
                ) -> tuple[list[float], float, list[float]]:
        """The raw outputs for one view: the policy's logits by action code (all of them,
        legal or not), the value, and the hand head's logits by card index (the log-odds
        that the opponent holds each card; meaningful for the cards the seat has not
        located)."""
        policy, value, hand = self.forward(encode(view, match)[None, :])
        return [float(x) for x in policy[0]], float(value[0]), [float(x) for x in hand[0]]

    def best(self, view: View, legal: Sequence[Action] | None = None,
             match: tuple[int, int, int, int] | None = None) -> Action:
        """The action of ``legal`` (default: the view's) with the highest logit."""
        offer = list(view.legal if legal is None else legal)
        if not offer:
            raise ValueError("no action to choose from")
        logits, _, _ = self.forward(encode(view, match)[None, :])
        return max(offer, key=lambda a: float(logits[0, a.code]))

    def __repr__(self) -> str:
        return f"<Network {OBSERVATION_SIZE}-{'-'.join(str(w.shape[0]) for w, _ in self.trunk)} {FORMAT}>"


def _shape(name: str, w: Array, b: Array, inputs: int, outputs: int | None = None) -> None:
    if w.ndim != 2 or w.shape[1] != inputs or (outputs is not None and w.shape[0] != outputs):
        want = f"({'out' if outputs is None else outputs}, {inputs})"
        raise NetworkError(f"{name}.weight has shape {w.shape}, not {want}")
    if b.shape != (w.shape[0],):
        raise NetworkError(f"{name}.bias has shape {b.shape}, not ({w.shape[0]},)")

