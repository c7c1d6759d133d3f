"""Iterated self-play (``python -m training iterate``, issue 33) on its smoke
configuration: two generations, each with self-play chunks from the search guided by
the previous network, a tiny network trained on a window of generations, and a gate
against the best on duplicate deals; resumed after interruptions at every step it gives
the same run; the best generation ships into a directory."""

from __future__ import annotations

import concurrent.futures
import json
import multiprocessing
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from helpers import need_module

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "training" / "configs" / "iterate-smoke.json"
#: The exit status of a run stopped by --stop-after.
STOPPED = 3


def _import_training() -> ModuleType:
    need_module("torch", "pip install torch==2.13.0")
    sys.path.insert(0, str(ROOT))
    try:
        import training.__main__ as main
        import training.iterate
        import training.selfplay  # noqa: F401  (imported while the root is on the path)
    finally:
        sys.path.remove(str(ROOT))
    return main


def _config(path: Path = SMOKE) -> Any:
    import training.config as config
    return config.load(path)


def _state(run: Path) -> dict[str, Any]:
    state: dict[str, Any] = json.loads((run / "state.json").read_text(encoding="utf-8"))
    return state


def _gate(run: Path, generation: int) -> dict[str, Any]:
    path = run / f"gen-{generation:02d}" / "gate.json"
    gate: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return gate


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, Path]:
    """The smoke configuration run in one go."""
    main = _import_training()
    run = tmp_path_factory.mktemp("whole")
    assert main.main(["iterate", "--config", str(SMOKE), "--out", str(run)]) == 0
    return main, run


@pytest.fixture(scope="module")
def pieces(whole: tuple[ModuleType, Path],
           tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The same run stopped at every chance (``--stop-after 0``: one chunk, epoch, export
    or gate batch at a time), and the step ``state.json`` named after each stop."""
    main, _ = whole
    run = tmp_path_factory.mktemp("pieces")
    steps = []
    for _ in range(200):
        status = main.main(["iterate", "--config", str(SMOKE), "--out", str(run), "--stop-after", "0"])
        state = _state(run)
        if status == 0:
            break
        assert status == STOPPED
        steps.append(f"{state['generation']}:{state['step']}")
        if steps[-1] == "1:generate" and len(steps) == 1:
            # A chunk abandoned half written, as by a crash: removed, the chunk made again.
            (run / "gen-01" / "data" / "chunk-00002.partial-1.npz").write_bytes(b"half a chunk")
    else:
        pytest.fail("the run never finished")
    return run, steps


def test_two_generations_each_gated_against_the_best(whole: tuple[ModuleType, Path]) -> None:
    _, run = whole
    config = _config()
    state = _state(run)
    assert state["done"] and state["step"] == "done" and state["generation"] == 2
    best = 0
    for generation in (1, 2):
        gate = _gate(run, generation)
        assert gate["matches"] == config.iterate.gate_matches
        assert gate["wins"] + gate["losses"] + gate["ties"] == gate["matches"]
        assert gate["low"] <= gate["rate"] <= gate["high"]
        assert gate["accepted"] == (gate["low"] > config.iterate.gate_threshold)
        assert gate["against"] == ("shipped" if best == 0 else f"gen-{best:02d}")
        assert state["generations"][str(generation)]["gate"]["accepted"] == gate["accepted"]
        best = generation if gate["accepted"] else best
        folder = run / f"gen-{generation:02d}"
        card = (folder / "MODEL_CARD.md").read_text(encoding="utf-8")
        assert "## Head to head" in card and "Wilson interval" in card
        assert "python -m training iterate --config training/configs/iterate-smoke.json" in card
    assert state["best"] == best
    assert state["best_network"] == ("shipped" if best == 0 else f"gen-{best:02d}")
    assert state["generations"]["2"]["init"] == "gen-01's weights"  # shipped's hidden sizes differ


def test_each_generation_plays_with_the_previous_network(whole: tuple[ModuleType, Path]) -> None:
    import training.generate as generate
    _, run = whole
    config = _config()
    for generation, guide in ((1, "shipped"), (2, "gen-01")):
        data = run / f"gen-{generation:02d}" / "data"
        arrays, sizes = generate.load_chunks(data, config.generate.chunks)
        assert len(sizes) == config.generate.chunks and min(sizes) > 0
        # The policy target is the search's root visit distribution over the legal codes.
        assert np.allclose(arrays["policy"].sum(axis=1), 1.0, atol=1e-5)
        assert not (arrays["policy"] * (1 - arrays["mask"])).any()
        with np.load(generate.chunk_path(data, 0), allow_pickle=False) as chunk:
            meta = json.loads(str(chunk["meta"]))
        assert meta["network"]["name"] == guide
        assert meta["generate"]["bot"].endswith(f"net_prior=2,network={guide}")
    # Generation 2 trained on both generations' chunks (the window of 2).
    history = json.loads((run / "gen-02" / "history.json").read_text(encoding="utf-8"))
    one = json.loads((run / "gen-01" / "history.json").read_text(encoding="utf-8"))
    assert history["positions"] > one["positions"] + one["validation_positions"]


def test_the_gate_plays_duplicate_deals(whole: tuple[ModuleType, Path]) -> None:
    _, run = whole
    lines = (run / "gen-02" / "gate-games.jsonl").read_text(encoding="utf-8").splitlines()
    games = sorted((json.loads(line) for line in lines), key=lambda g: g["index"])
    assert [g["index"] for g in games] == list(range(_config().iterate.gate_matches))
    for first, second in zip(games[::2], games[1::2], strict=True):
        a, b = first["result"], second["result"]
        assert a["board"] == b["board"] and (a["swap"], b["swap"]) == (0, 1)
        assert a["deal_seed"] == b["deal_seed"] and a["specs"] == b["specs"][::-1]
        assert "network=gen-02" in a["specs"][0] and "iterations=" in a["specs"][0]


def test_a_chunk_depends_only_on_the_seed_the_generation_and_its_number(
        whole: tuple[ModuleType, Path]) -> None:
    import training.generate as generate
    import training.iterate as iterate
    import training.selfplay as selfplay
    _, run = whole
    config = _config()
    guide = selfplay.Weights.read("gen-01", run / "gen-01" / "weights.npz")
    args = (config.generate, config.iterate.net_options, guide, iterate.generation_seed(config, 2), 1)
    # In another process, started (spawned) while the repository's root is on the path, so
    # that it imports training/ as the pipeline's own workers do (they run from the root).
    sys.path.insert(0, str(ROOT))
    try:
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as executor:
            again = executor.submit(selfplay.selfplay_chunk, *args).result()
    finally:
        sys.path.remove(str(ROOT))
    with np.load(generate.chunk_path(run / "gen-02" / "data", 1), allow_pickle=False) as saved:
        for name in (*generate.ARRAYS, "meta"):
            assert np.array_equal(again[name], saved[name]), name
    other = selfplay.selfplay_chunk(config.generate, config.iterate.net_options, guide,
                                    iterate.generation_seed(config, 3), 1)
    assert not np.array_equal(other["obs"][:5], again["obs"][:5])


def test_a_run_stopped_at_every_step_ends_as_the_whole_run(whole: tuple[ModuleType, Path],
                                                          pieces: tuple[Path, list[str]]) -> None:
    _, one = whole
    run, steps = pieces
    config = _config()
    for generation in (1, 2):
        # Every chunk, epoch and gate game was a stop of its own.
        assert steps.count(f"{generation}:generate") == config.generate.chunks
        assert steps.count(f"{generation}:train") == config.train.epochs
        assert f"{generation}:export" in steps and f"{generation}:gate" in steps
    assert not list(run.glob("gen-*/data/*.partial-*"))
    for folder in sorted(p.name for p in one.glob("gen-*")):
        for path in sorted((one / folder / "data").glob("*.npz")):
            with np.load(path) as a, np.load(run / folder / "data" / path.name) as b:
                assert all(np.array_equal(a[k], b[k]) for k in a.files), path.name
        with np.load(one / folder / "weights.npz") as a, np.load(run / folder / "weights.npz") as b:
            assert all(np.array_equal(a[k], b[k]) for k in a.files if k != "meta")
        assert _gate(one, int(folder[4:])) == _gate(run, int(folder[4:]))
    assert _state(one) == _state(run)


def test_a_new_best_deletes_the_beaten_generations_and_ships(tmp_path: Path) -> None:
    """With a threshold every result passes, both generations become the best in turn:
    generation 1's weights, card and checkpoint go when generation 2 beats it (its data
    and gate stay), and ``--ship`` copies generation 2 into a directory."""
    main = _import_training()
    import training.iterate as iterate

    from sixtysix.search.net import Network
    data = json.loads(SMOKE.read_text(encoding="utf-8"))
    data["iterate"].update(gate_threshold=-1.0, generations=2)
    config_path = tmp_path / "iterate-smoke.json"
    config_path.write_text(json.dumps(data), encoding="utf-8")
    run = tmp_path / "run"
    assert main.main(["iterate", "--config", str(config_path), "--out", str(run)]) == 0
    state = _state(run)
    assert state["best"] == 2 and state["best_network"] == "gen-02"
    assert _gate(run, 2)["against"] == "gen-01"
    assert state["deleted"] == [{"generation": 1, "files": ["weights.npz", "MODEL_CARD.md", "checkpoint.pt"],
                                 "beaten_by": "gen-02"}]
    assert not (run / "gen-01" / "weights.npz").exists()
    assert (run / "gen-01" / "gate.json").exists() and list((run / "gen-01" / "data").glob("*.npz"))
    nets = tmp_path / "nets"
    ship = ["iterate", "--config", str(config_path), "--out", str(run), "--ship-to", str(nets)]
    assert main.main(ship) == 0
    assert sorted(p.name for p in nets.iterdir()) == ["MODEL_CARD.md", "sixtysix-net.npz"]
    assert (nets / "sixtysix-net.npz").read_bytes() == (run / "gen-02" / "weights.npz").read_bytes()
    assert Network.load(nets / "sixtysix-net.npz") is not None
    small = _config(config_path)
    small = replace(small, iterate=replace(small.iterate, ship_limit=1000))
    with pytest.raises(SystemExit, match="more than 1,000"):
        iterate.ship(small, run, tmp_path / "elsewhere")


def test_nothing_ships_while_the_start_is_the_best(whole: tuple[ModuleType, Path], tmp_path: Path) -> None:
    """A run whose gates all refused (a threshold no win rate passes) has nothing to ship,
    whatever the smoke networks would have won."""
    import training.iterate as iterate
    main, _ = whole
    data = json.loads(SMOKE.read_text(encoding="utf-8"))
    data["iterate"].update(gate_threshold=1.0, generations=1)
    config_path = tmp_path / "iterate-smoke.json"
    config_path.write_text(json.dumps(data), encoding="utf-8")
    run = tmp_path / "run"
    assert main.main(["iterate", "--config", str(config_path), "--out", str(run)]) == 0
    assert _state(run)["best"] == 0
    nets = tmp_path / "nets"
    with pytest.raises(SystemExit, match="nothing to ship"):
        iterate.ship(_config(config_path), run, nets)
    assert not nets.exists()


def test_a_dask_cluster_makes_the_same_run(whole: tuple[ModuleType, Path], tmp_path: Path) -> None:
    """``--cluster local``: the chunks and gates are those of the run in this process
    (the tasks carry the networks as bytes and the code of ``training/`` by value)."""
    need_module("distributed", "pip install -e '.[cluster]'")
    main, one = whole
    run = tmp_path / "dask"
    assert main.main(["iterate", "--config", str(SMOKE), "--out", str(run), "--cluster", "local",
                      "--jobs", "2"]) == 0
    for generation in (1, 2):
        assert _gate(run, generation) == _gate(one, generation)
        for path in sorted((one / f"gen-{generation:02d}" / "data").glob("*.npz")):
            with np.load(path) as a, np.load(run / f"gen-{generation:02d}" / "data" / path.name) as b:
                assert all(np.array_equal(a[k], b[k]) for k in a.files), path.name
    assert _state(run) == _state(one)
