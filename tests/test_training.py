"""The training pipeline of issue 20 (``training/``), end to end on its smoke
configuration: self-play chunks from a search player, a network trained on them
whose loss falls, and the export to the weights format ``sixtysix-net/1`` that the
package runs with numpy (checked here against PyTorch's own forward pass)."""

from __future__ import annotations

import itertools
import json
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from helpers import need_module
from sixtysix.envs.observation import OBSERVATION_SIZE, block

ROOT = Path(__file__).resolve().parent.parent

#: The arrays of a weights file by the format's specification, for hidden sizes (32, 32).
SPEC_ARRAYS = {
    "trunk.0.weight": (32, OBSERVATION_SIZE), "trunk.0.bias": (32,),
    "trunk.1.weight": (32, 32), "trunk.1.bias": (32,),
    "policy.weight": (56, 32), "policy.bias": (56,),
    "value.weight": (1, 32), "value.bias": (1,),
    "hand.weight": (24, 32), "hand.bias": (24,),
}


def _import_training() -> ModuleType:
    sys.path.insert(0, str(ROOT))
    try:
        import training.__main__ as main
        import training.export
        import training.generate
        import training.model
        import training.train  # noqa: F401  (imported while the root is on the path)
    finally:
        sys.path.remove(str(ROOT))
    return main


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, Path]:
    """The smoke run (generate, train, export) in a fresh directory."""
    need_module("torch", "pip install torch==2.13.0")
    main = _import_training()
    run = tmp_path_factory.mktemp("smoke")
    assert main.main(["smoke", "--out", str(run)]) == 0
    return main, run


def _chunks(run: Path) -> dict[str, Any]:
    import training.generate as generate
    config = _config()
    arrays, _ = generate.load_chunks(run / "data", config.generate.chunks)
    return arrays


def _config() -> Any:
    import training.config as config
    return config.load(ROOT / "training" / "configs" / "smoke.json")


def test_the_smoke_run_makes_a_few_hundred_positions_with_sound_targets(
        smoke: tuple[ModuleType, Path]) -> None:
    _, run = smoke
    data = _chunks(run)
    rows = len(data["value"])
    assert 200 <= rows <= 1000
    assert data["obs"].dtype == np.float32 and data["obs"].shape == (rows, OBSERVATION_SIZE)
    # The policy target is a distribution over the legal codes only.
    assert np.allclose(data["policy"].sum(axis=1), 1.0, atol=1e-5)
    assert not (data["policy"] * (1 - data["mask"])).any()
    assert (data["mask"].sum(axis=1) >= 2).all()  # forced moves are not recorded
    # Values are game points / 3 from the seat to act's side: both signs occur.
    assert set(np.round(np.unique(data["value"]) * 3).astype(int)) <= {-3, -2, -1, 0, 1, 2, 3}
    assert (data["value"] > 0).any() and (data["value"] < 0).any()
    # The opponent's cards are the target, never a feature: none of them is in my hand,
    # and each is either unseen or one the view shows the opponent to hold.
    mine = data["obs"][:, block("my_hand")] > 0
    known = data["obs"][:, block("opponent_known")] > 0
    held = data["hand"] > 0
    assert not (held & mine).any()
    assert ((held & ~(data["unseen"] > 0)) <= known).all()
    assert np.array_equal(data["unseen"], (data["obs"][:, block("unseen")] > 0).astype(np.int8))
    assert (held & (data["unseen"] > 0)).any()


def test_a_chunk_depends_only_on_the_seed_and_its_number(smoke: tuple[ModuleType, Path]) -> None:
    import training.generate as generate
    _, run = smoke
    config = _config()
    again = generate.make_chunk(config.generate, config.seed, 1)
    with np.load(generate.chunk_path(run / "data", 1), allow_pickle=False) as saved:
        for name in generate.ARRAYS:
            assert np.array_equal(again[name], saved[name]), name
    other = generate.make_chunk(config.generate, config.seed + 1, 1)
    assert not np.array_equal(other["obs"][:5], again["obs"][:5])


def test_chunks_against_an_opponent_hold_the_searchs_decisions_only(smoke: tuple[ModuleType, Path]) -> None:
    """From ``opponent_from`` on, the search plays ``opponent`` (league.json's heuristic
    player): a chunk before it is the self-play chunk it was; one after it holds only
    the search's decisions, of both seats in turn, with the opponent's real cards as the
    inference target (the rows' hands are the heuristic's, never the search's own)."""
    import training.generate as generate
    config = _config()
    league = replace(config.generate, opponent="heuristic", opponent_from=2, hands_per_chunk=6)
    plain = replace(config.generate, hands_per_chunk=6)
    before = generate.make_chunk(league, config.seed, 1)
    same = generate.make_chunk(plain, config.seed, 1)
    assert all(np.array_equal(before[k], same[k]) for k in generate.ARRAYS)
    after = generate.make_chunk(league, config.seed, 2)
    assert json.loads(str(after["meta"]))["opponent"] == "heuristic"
    selfplay = generate.make_chunk(plain, config.seed, 2)
    # About half the rows of self-play (one seat of two searches), and sound targets.
    assert 0.25 * len(selfplay["value"]) < len(after["value"]) < 0.75 * len(selfplay["value"])
    assert np.allclose(after["policy"].sum(axis=1), 1.0, atol=1e-5)
    assert not (after["policy"] * (1 - after["mask"])).any()
    mine = after["obs"][:, block("my_hand")] > 0
    assert not ((after["hand"] > 0) & mine).any()


def test_the_training_loss_falls(smoke: tuple[ModuleType, Path]) -> None:
    _, run = smoke
    history = json.loads((run / "history.json").read_text(encoding="utf-8"))
    assert len(history["epochs"]) == _config().train.epochs
    before, after = history["initial"]["train"], history["epochs"][-1]["train"]
    assert after["total"] < 0.9 * before["total"]
    for head in ("policy", "value", "hand"):
        assert after[head] < before[head], head
    # The net's favourite legal action agrees with the search's more often than before.
    assert after["agreement"] > before["agreement"]


def test_a_rerun_resumes_without_redoing_anything(smoke: tuple[ModuleType, Path],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    main, run = smoke
    weights = dict(np.load(run / "weights.npz", allow_pickle=False))
    assert main.main(["smoke", "--out", str(run)]) == 0
    out = capsys.readouterr().out
    assert "4 of 4 chunks already made, skipped" in out
    assert "resuming after epoch 30" in out and "epoch 1/" not in out
    again = dict(np.load(run / "weights.npz", allow_pickle=False))
    assert set(again) == set(weights)
    for name in SPEC_ARRAYS:
        assert np.array_equal(again[name], weights[name])


def test_the_export_has_exactly_the_arrays_of_the_format(smoke: tuple[ModuleType, Path]) -> None:
    _, run = smoke
    with np.load(run / "weights.npz", allow_pickle=False) as npz:
        arrays = {name: npz[name] for name in npz.files}
    assert set(arrays) == {*SPEC_ARRAYS, "meta"}
    for name, shape in SPEC_ARRAYS.items():
        assert arrays[name].dtype == np.float32 and arrays[name].shape == shape, name
    meta_array = arrays["meta"]
    assert meta_array.shape == () and meta_array.dtype.kind == "U"
    meta = json.loads(str(meta_array[()]))
    assert {k: v for k, v in meta.items() if k != "trained"} == {
        "format": "sixtysix-net/1", "features": "observation", "inputs": OBSERVATION_SIZE,
        "hidden": [32, 32], "activation": "relu", "heads": {"policy": 56, "value": 1, "hand": 24}}
    trained = meta["trained"]
    assert list(trained) == ["config", "seed", "positions", "epochs", "command", "date", "losses"]
    assert trained["config"] == "smoke" and trained["seed"] == 1 and trained["epochs"] == 30
    assert trained["positions"] == json.loads((run / "history.json").read_text())["positions"]
    assert trained["command"] == "python -m training run --config training/configs/smoke.json"
    assert set(trained["losses"]["train"]) == {"policy", "value", "hand", "total"}


def _numpy_forward(arrays: dict[str, Any], obs: Any, mask: Any) -> tuple[Any, Any, Any]:
    """The format's semantics, written out here independently of training.export."""
    h = obs.astype(np.float64)
    for layer in range(2):
        h = np.maximum(h @ arrays[f"trunk.{layer}.weight"].T + arrays[f"trunk.{layer}.bias"], 0)
    logits = h @ arrays["policy.weight"].T + arrays["policy.bias"]
    exp = np.where(mask > 0, np.exp(logits - logits.max(axis=1, keepdims=True)), 0.0)
    policy = exp / exp.sum(axis=1, keepdims=True)
    value = np.tanh(h @ arrays["value.weight"].T + arrays["value.bias"])[:, 0]
    hand = 1 / (1 + np.exp(-(h @ arrays["hand.weight"].T + arrays["hand.bias"])))
    return policy, value, hand


def test_numpy_on_the_exported_weights_equals_torch(smoke: tuple[ModuleType, Path]) -> None:
    torch = need_module("torch", "pip install torch==2.13.0")
    import training.export as export
    import training.model as model
    import training.train as train
    _, run = smoke
    data = _chunks(run)
    net = model.Net((32, 32))
    state = train.load_checkpoint(run)
    assert state is not None
    net.load_state_dict(state["model"])
    net.eval()
    with torch.no_grad():
        logits, value, hand = net(torch.from_numpy(data["obs"]))
        legal = torch.from_numpy(data["mask"]).bool()
        expected = (torch.softmax(logits.masked_fill(~legal, float("-inf")), dim=1).numpy(),
                    torch.tanh(value).numpy(), torch.sigmoid(hand).numpy())
    arrays, meta = export.read(run / "weights.npz")
    assert meta["hidden"] == [32, 32]
    for got in (_numpy_forward(arrays, data["obs"], data["mask"]),
                export.forward(arrays, data["obs"], data["mask"])):
        for mine, theirs in zip(got, expected, strict=True):
            assert mine.shape == theirs.shape
            np.testing.assert_allclose(mine, theirs, atol=1e-5, rtol=0)
    assert not (expected[0] * (1 - data["mask"])).any()
    # The package's own loader (sixtysix.search.net, numpy only) reads the export and agrees.
    from sixtysix.search.net import Network

    logits_np, value_np, hand_np = Network.load(run / "weights.npz").forward(data["obs"])
    masked = np.where(data["mask"] > 0, np.exp(logits_np - logits_np.max(axis=1, keepdims=True)), 0.0)
    package = (masked / masked.sum(axis=1, keepdims=True), value_np, 1 / (1 + np.exp(-hand_np)))
    for mine, theirs in zip(package, expected, strict=True):
        np.testing.assert_allclose(mine, theirs, atol=1e-5, rtol=0)


def test_the_cosine_schedule_falls_from_the_rate_to_its_floor() -> None:
    need_module("torch", "pip install torch==2.13.0")
    _import_training()
    import training.train as train
    config = _config()
    cosine = replace(config, train=replace(config.train, schedule="cosine", lr=0.01, lr_floor=0.1, epochs=10))
    rates = [train.learning_rate(cosine, epoch) for epoch in range(10)]
    assert rates[0] == pytest.approx(0.01)
    assert all(a > b for a, b in itertools.pairwise(rates))
    assert rates[-1] == pytest.approx(0.001)
    assert train.learning_rate(config, 7) == config.train.lr  # the smoke run's: constant
