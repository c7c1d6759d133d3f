"""The rules kernel's public interface: which kernel runs, perft on both kernels,
the checks the kernel leaves to :class:`~sixtysix.game.hand.Hand`."""

from __future__ import annotations

import os
import subprocess
import sys
from types import ModuleType

import pytest

from helpers import kernel_modules, need
from sixtysix import Hand, IllegalActionError, Rules, kernel
from sixtysix.kernel.tables import config
from test_perft import POSITIONS, position

_kernels = kernel_modules


def _run(*args: str, kernel_choice: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SIXTYSIX_KERNEL"}
    if kernel_choice is not None:
        env["SIXTYSIX_KERNEL"] = kernel_choice
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, check=False)


def test_the_compiled_kernel_is_used_when_it_is_built() -> None:
    try:
        from sixtysix.kernel import _ckernel
    except ImportError:
        need(False, "the compiled kernel is not built (pip install -e . with a C compiler)")
        raise
    if os.environ.get("SIXTYSIX_KERNEL") != "python":
        assert kernel.State is _ckernel.State and kernel.NAME == "c"
    out = _run("-m", "sixtysix", "--version")
    assert out.returncode == 0 and "(c rules kernel)" in out.stdout


def test_sixtysix_kernel_python_forces_the_pure_kernel() -> None:
    out = _run("-m", "sixtysix", "--version", kernel_choice="python")
    assert out.returncode == 0 and "(python rules kernel)" in out.stdout, out
    out = _run("-c", "import sixtysix.kernel as k; print(k.State.__module__)", kernel_choice="python")
    assert out.stdout.strip() == "sixtysix.kernel._pure"


def test_an_unknown_kernel_choice_is_refused_with_the_choices() -> None:
    out = _run("-c", "import sixtysix", kernel_choice="fortran")
    assert out.returncode != 0
    assert "SIXTYSIX_KERNEL must be 'c' or 'python', not 'fortran'" in out.stderr


@pytest.mark.parametrize("impl", _kernels(), ids=lambda m: m.NAME)
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_kernel_perft_gives_the_golden_counts(impl: ModuleType, name: str) -> None:
    hand, counts = position(name)
    state = impl.State.from_key(config(hand.rules), hand.key())
    depth = len(counts) if impl.NAME == "c" else 6
    assert [state.perft(d) for d in range(1, depth + 1)] == counts[:depth]
    assert state.key() == hand.key()


@pytest.mark.parametrize("impl", _kernels(), ids=lambda m: m.NAME)
def test_the_kernel_checks_nothing_the_hand_checks_everything(impl: ModuleType) -> None:
    """The kernel's push trusts its caller (documented); the hand refuses an illegal
    action, names the legal ones and changes nothing (the checked entry point)."""
    rules = Rules.preset("classic")
    hand = Hand.random(seed=3, rules=rules)
    before = hand.key()
    with pytest.raises(IllegalActionError) as info:
        hand.push_text("66")
    assert "legal" in str(info.value) and hand.key() == before
    state = impl.State.from_key(config(rules), before)
    with pytest.raises(ValueError):
        state.push(56)  # not an action code at all: refused even unchecked
