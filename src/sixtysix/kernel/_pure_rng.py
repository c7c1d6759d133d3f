"""The kernels' random numbers (SplitMix64), in Python: the pure kernel's state and its
search both draw from it, and the compiled kernel gives the same sequence."""

from __future__ import annotations

__all__ = ["Rng"]

_MASK64 = (1 << 64) - 1


class Rng:
    """The kernels' random numbers: SplitMix64, the same sequence in both kernels.

    >>> r = Rng(1); [r.below(10) for _ in range(5)]
    [5, 7, 9, 4, 4]
    """

    __slots__ = ("_x",)

    def __init__(self, seed: int) -> None:
        self._x = seed & _MASK64

    def next64(self) -> int:
        """The next 64-bit number."""
        x = self._x = (self._x + 0x9E3779B97F4A7C15) & _MASK64
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
        return x ^ (x >> 31)

    def random(self) -> float:
        """A float in [0, 1) from the top 53 bits of the next number."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def below(self, n: int) -> int:
        """A number in ``range(n)`` (n at most 2**32; a bias under n / 2**32)."""
        return ((self.next64() >> 32) * n) >> 32
