"""The learned network run with numpy (sixtysix.search.net, issue 20): its outputs against a
plain-Python reference computation, the policy over exactly the legal actions, the
inference over exactly the cards the seat has not located, and weights files that are
missing, corrupt, foreign or carry a pickle: a clear error naming the file, and no code
run."""

from __future__ import annotations

import json
import math
import pickle
import random
import zipfile
from pathlib import Path
from typing import Any

import pytest

from helpers import need_module

np = need_module("numpy", "pip install -e '.[net]'")

from sixtysix import Hand, Rules  # noqa: E402
from sixtysix.game.observation import OBSERVATION_SIZE, encode  # noqa: E402
from sixtysix.search.net import FORMAT, Network, NetworkError  # noqa: E402


def _views(n: int, seed: int = 5) -> list[Any]:
    rng = random.Random(seed)
    views = []
    for _ in range(n):
        hand = Hand.random(rng=rng, rules=rng.choice([Rules(), Rules.preset("schnapsen")]))
        for _ in range(rng.randrange(0, 14)):
            if hand.is_over():
                break
            hand.push(rng.choice(hand.legal_actions()))
        seat = hand.to_act if hand.to_act is not None else 0
        views.append(hand.view(seat))
    return views


def _reference(net: Network, x: list[float]) -> tuple[list[float], float, list[float]]:
    """The forward pass in plain Python, with the format's definitions (ReLU trunk, tanh value)."""
    def linear(w: Any, b: Any, v: list[float]) -> list[float]:
        return [sum(float(w[i][j]) * v[j] for j in range(len(v))) + float(b[i]) for i in range(len(b))]

    h = x
    for w, b in net.trunk:
        h = [max(0.0, u) for u in linear(w, b, h)]
    policy = linear(*net.heads["policy"], h)
    value = math.tanh(linear(*net.heads["value"], h)[0])
    hand = linear(*net.heads["hand"], h)
    return policy, value, hand


def test_the_forward_pass_is_the_formats_definition() -> None:
    net = Network.random([12, 7], seed=3)
    for view in _views(4):
        x = [float(v) for v in encode(view)]
        policy, value, hand = net.forward(np.array([x], dtype=np.float32))
        want_policy, want_value, want_hand = _reference(net, x)
        assert np.allclose(policy[0], want_policy, atol=1e-4)
        assert math.isclose(float(value[0]), want_value, abs_tol=1e-5)
        assert np.allclose(hand[0], want_hand, atol=1e-4)


def test_an_evaluation_covers_the_legal_actions_and_the_unlocated_cards() -> None:
    net = Network.random([16], seed=1)
    for view in _views(30, seed=9):
        judged = net.evaluate(view)
        assert set(judged.policy) == set(view.legal)
        if view.legal:
            assert math.isclose(sum(judged.policy.values()), 1.0, rel_tol=1e-9)
            assert all(0.0 < p <= 1.0 for p in judged.policy.values())
            assert net.best(view) in view.legal
            assert net.best(view, view.legal[:1]) == view.legal[0]
        # Only cards whose place the seat does not know: never its own, never a played one.
        assert set(judged.hand) == set(view.unseen())
        assert not set(judged.hand) & (set(view.hand) | set(view.played))
        assert all(0.0 < p < 1.0 for p in judged.hand.values())
        assert -1.0 <= judged.value <= 1.0


def test_weights_survive_a_file_unchanged(tmp_path: Path) -> None:
    net = Network.random([20, 10], seed=4)
    net.save(tmp_path / "net.npz")
    back = Network.load(tmp_path / "net.npz")
    assert back.meta == net.meta and back.meta["format"] == FORMAT and back.meta["hidden"] == [20, 10]
    x = np.stack([encode(v) for v in _views(5)])
    for a, b in zip(net.forward(x), back.forward(x), strict=True):
        assert np.array_equal(a, b)
    with zipfile.ZipFile(tmp_path / "net.npz") as archive:  # what the format promises
        assert sorted(archive.namelist()) == sorted(
            ["meta.npy"] + [f"{n}.{p}.npy" for n in ("trunk.0", "trunk.1", "policy", "value", "hand")
                            for p in ("weight", "bias")])


def _arrays(net: Network) -> dict[str, Any]:
    out: dict[str, Any] = {"meta": np.array(json.dumps(net.meta))}
    for n, (w, b) in enumerate(net.trunk):
        out[f"trunk.{n}.weight"], out[f"trunk.{n}.bias"] = w, b
    for name, (w, b) in net.heads.items():
        out[f"{name}.weight"], out[f"{name}.bias"] = w, b
    return out


def _write(path: Path, arrays: dict[str, Any]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w") as entry:
                np.lib.format.write_array(entry, np.asarray(array), allow_pickle=True)
    return path


class _Payload:
    """Unpickling this would write a file: the proof that loading ran code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.write_text, (self.marker, "code ran"))


def test_bad_weights_files_are_named_and_never_run(tmp_path: Path) -> None:
    good = _arrays(Network.random([8], seed=2))

    def refused(path: Path, *words: str) -> str:
        with pytest.raises(NetworkError) as caught:
            Network.load(path)
        text = str(caught.value)
        assert str(path) in text, text
        for word in words:
            assert word in text, text
        return text

    refused(tmp_path / "absent.npz", "no such weights file", "training/README.md")
    (tmp_path / "garbage.npz").write_bytes(b"not a zip at all")
    refused(tmp_path / "garbage.npz", "not a weights file")
    whole = _write(tmp_path / "whole.npz", good).read_bytes()
    (tmp_path / "cut.npz").write_bytes(whole[: len(whole) // 2])
    refused(tmp_path / "cut.npz", "not a weights file")

    marker = tmp_path / "ran.txt"
    pickled = dict(good, **{"hand.bias": np.array([_Payload(marker)], dtype=object)})
    refused(_write(tmp_path / "pickle.npz", pickled), "not a weights file")
    assert not marker.exists()
    pickle.loads(pickle.dumps(_Payload(marker)))  # what unpickling it would have done
    assert marker.read_text() == "code ran"

    meta = json.loads(str(good["meta"][()]))
    foreign = dict(good, meta=np.array(json.dumps(dict(meta, format="other/9"))))
    refused(_write(tmp_path / "foreign.npz", foreign), "'other/9'", FORMAT)
    smaller = dict(good, meta=np.array(json.dumps(dict(meta, inputs=OBSERVATION_SIZE - 1))))
    refused(_write(tmp_path / "inputs.npz", smaller), str(OBSERVATION_SIZE))
    refused(_write(tmp_path / "nometa.npz", {k: v for k, v in good.items() if k != "meta"}), "meta")
    refused(_write(tmp_path / "nohead.npz", {k: v for k, v in good.items() if k != "value.weight"}),
            "'value.weight'")
    refused(_write(tmp_path / "extra.npz", dict(good, **{"secret.weight": np.zeros(3)})), "secret.weight")
    refused(_write(tmp_path / "shape.npz", dict(good, **{"policy.bias": np.zeros(55, dtype=np.float32)})),
            "policy.bias", "(56,)")
    wide = dict(good, **{"trunk.0.weight": np.zeros((8, OBSERVATION_SIZE + 1), dtype=np.float32)})
    refused(_write(tmp_path / "wide.npz", wide), "trunk.0.weight")
    refused(_write(tmp_path / "ints.npz", dict(good, **{"hand.bias": np.zeros(24, dtype=np.int64)})),
            "not floats")


def test_the_net_player_answers_from_its_offer_and_names_missing_weights(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sixtysix.bots import make_bot
    from sixtysix.errors import ParseError
    from sixtysix.play.runner import play_match

    Network.random([24], seed=6).save(tmp_path / "w.npz")
    bot = make_bot(f"net:weights={tmp_path / 'w.npz'}")
    rng = random.Random(2)
    for view in _views(40, seed=11):
        if not view.legal:
            continue
        offer = rng.sample(list(view.legal), rng.randrange(1, len(view.legal) + 1))
        assert bot.choose(view, offer) in offer  # a front end may offer a subset (issue 19)
    match = play_match([bot, make_bot("random", seed=1)], seed=3)
    assert match.is_over()
    with pytest.raises(NetworkError, match=r"absent\.npz: no such weights file"):
        make_bot(f"net:weights={tmp_path / 'absent.npz'}")
    # Without weights of its own it plays the shipped ones, and names them when they are missing.
    monkeypatch.setattr("sixtysix.search.net.shipped_weights", lambda: tmp_path / "sixtysix-net.npz")
    with pytest.raises(NetworkError, match=r"sixtysix-net\.npz: no such weights file; train them"):
        make_bot("net")
    with pytest.raises(ParseError, match=r"unknown bot"):
        make_bot("nett")


def test_the_shipped_weights_load_and_their_model_card_tells_their_making() -> None:
    """The weights in the package load (no pickle), and the model card beside them gives
    the figures the file itself records: the configuration and its command, the positions,
    the epochs, the size and the held-out losses."""
    from sixtysix.search.net import shipped_weights

    path = shipped_weights()
    net = Network.load(path)
    assert path.stat().st_size <= 5 * 1024 * 1024
    trained = net.meta["trained"]
    card = (path.parent / "MODEL_CARD.md").read_text(encoding="utf-8")
    assert f"python -m training run --config training/configs/{trained['config']}.json" in card
    assert trained["command"] == f"python -m training run --config training/configs/{trained['config']}.json"
    assert f"{trained['positions']:,} positions" in card
    assert f"{trained['epochs']} epochs" in card
    weights = sum(w.size + b.size for w, b in net.trunk) + sum(w.size + b.size for w, b in net.heads.values())
    assert f"{weights:,} weights" in card
    for head in ("policy", "value", "hand"):
        assert f"| {trained['losses']['validation'][head]:.3f} |" in card, head
