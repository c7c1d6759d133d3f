"""The kernel in two layers (issue 35, item 2): the rules (the state, legal actions and
refusals, push and pop, scoring, the observation) and the engine on top (the playout
policy, the solver, the search, the network, the vector tables). The engine imports the
rules, never the reverse, in both kernels: the pure rules' modules import nothing of the
engine, not even for type checkers, and the compiled rules' files include nothing of it;
built alone (``_crules``) they hold the same rules as the pure ones."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from sixtysix.game.actions import ACTIONS
from sixtysix.kernel import _pure, _pure_rules
from sixtysix.kernel.tables import config
from sixtysix.rules import Rules
from test_kernel_diff import compiled

pytestmark = pytest.mark.kernel

KERNEL = Path(_pure_rules.__file__).parent
#: The rules' modules (pure) and files (compiled).
PURE_RULES = {"tables", "_pure_rules", "_pure_rng", "_pure_observe"}
C_RULES = {"_crules.h", "_crules_py.h", "_crules.c"}
#: What the engine adds to the rules' state: the playout policy.
ENGINE_MOVES = {"policy_code", "playout"}
#: Every action code.
CODES = [code for code, action in enumerate(ACTIONS) if action is not None]


def _kernel_imports(path: Path) -> set[str]:
    """The kernel modules ``path`` imports, type checkers' imports included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            if name == "sixtysix.kernel":
                found.add("sixtysix.kernel")  # the package: the engine with the rules
            elif name.startswith("sixtysix.kernel."):
                found.add(name.split(".")[2])
    return found


@pytest.mark.parametrize("module", sorted(PURE_RULES))
def test_the_pure_rules_import_nothing_of_the_engine(module: str) -> None:
    imports = _kernel_imports(KERNEL / f"{module}.py")
    assert imports <= PURE_RULES, f"{module} imports {sorted(imports - PURE_RULES)}"


def test_the_pure_engine_imports_the_rules() -> None:
    assert "_pure_rules" in _kernel_imports(KERNEL / "_pure.py")
    assert issubclass(_pure.State, _pure_rules.State)


@pytest.mark.parametrize("name", sorted(C_RULES))
def test_the_compiled_rules_include_nothing_of_the_engine(name: str) -> None:
    local = set(re.findall(r'#include\s+"([^"]+)"', (KERNEL / name).read_text(encoding="utf-8")))
    assert local <= C_RULES, f"{name} includes {sorted(local - C_RULES)}"


def test_the_compiled_engine_builds_on_the_rules() -> None:
    engine = (KERNEL / "_ckernel.c").read_text(encoding="utf-8")
    assert '#include "_crules_py.h"' in engine
    assert "k_push(KState" not in engine and "k_legal_mask(KState" not in engine  # no rule written again
    assert "state_methods[n++] = *m" in engine  # its State: the rules' methods, then its own


def _public(cls: type) -> set[str]:
    """The state's public methods."""
    return {name for name in dir(cls) if not name.startswith("_") and callable(getattr(cls, name))}


def test_both_rules_offer_the_same_state_and_the_engine_adds_its_moves() -> None:
    crules = pytest.importorskip("sixtysix.kernel._crules")
    assert _public(crules.State) == _public(_pure_rules.State)
    assert not _public(crules.State) & ENGINE_MOVES
    assert _public(compiled().State) - _public(crules.State) == ENGINE_MOVES
    assert _public(_pure.State) - _public(_pure_rules.State) == ENGINE_MOVES


@pytest.mark.parametrize("preset", ["classic", "santase", "schnapsen"])
def test_the_rules_alone_play_as_the_pure_rules(preset: str) -> None:
    """The compiled rules built alone, against the pure rules: the same legal actions,
    refusals and results along random lines of play (the kernels are compared in full,
    engine included, in test_kernel_diff.py)."""
    crules = pytest.importorskip("sixtysix.kernel._crules")
    rules = Rules.preset(preset)
    cfg = config(rules)
    rng = random.Random(preset)
    for _ in range(40):
        deck = rng.sample(range(24), 24)[:rules.deck]
        dealer = rng.randrange(2)
        a, b = crules.State.deal(deck, dealer, cfg), _pure_rules.State.deal(deck, dealer, cfg)
        seed = rng.getrandbits(64)
        assert a.random_playout(seed) == b.random_playout(seed)
        assert a.key() == b.key() and a.history() == b.history() and a.scoring() == b.scoring()
        while a.depth():
            assert a.legal_mask() == b.legal_mask()
            assert [a.refusal(code) for code in CODES] == [b.refusal(code) for code in CODES]
            assert a.pop() == b.pop()
        assert a.perft(3) == b.perft(3)
