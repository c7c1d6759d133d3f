"""The pure kernel's batch of tables: one seat of many hands against an opponent
inside the kernel, stepped together (the reinforcement-learning vector env's engine).

The compiled kernel has the same class in C. Observations follow the layout of
:mod:`sixtysix.envs.observation` (its block offsets are passed in), written straight
from the state and its history rather than through a :class:`~sixtysix.game.views.View`;
``tests/test_envs_vector.py`` checks them against ``encode(hand.view(seat))``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sixtysix.kernel._pure import OVER, Rng, State
from sixtysix.kernel._pure_observe import OBSERVATION_BLOCKS, encode
from sixtysix.kernel.tables import (
    BIT_DECLARE,
    DECLARE_MARRIAGE,
    WINNING_TOTAL,
    Config,
    marriage_value,
)

__all__ = ["OBSERVATION_BLOCKS", "OPPONENTS", "Tables"]

#: The opponents a table can seat: uniformly random legal actions that never declare
#: falsely, or the playout policy playing from its own seat's knowledge (``fair``).
OPPONENTS = ("random", "policy")
_FORFEIT = -3.0


class Tables:
    """``count`` tables of one hand each; the agent plays ``seat`` (0, 1, or -1 for a
    random seat each hand) against ``opponent`` (an index of :data:`OPPONENTS`).

    Buffers are any writable C-contiguous buffers (NumPy arrays): observations
    ``float32[count, size]``, masks ``int8[count, 56]``, rewards ``float32[count]``,
    terminated ``uint8``/``bool[count]``, actions ``int64[count]``. A table whose hand
    ended is dealt anew at the next :meth:`step` (its action is ignored, its reward 0):
    Gymnasium's next-step autoreset.
    """

    def __init__(self, count: int, config: Config, offsets: Sequence[int], point_scale: float,
                 opponent: int, seat: int) -> None:
        if count < 1:
            raise ValueError(f"count must be at least 1, not {count}")
        if len(offsets) != len(OBSERVATION_BLOCKS) + 1:
            raise ValueError(f"offsets must give {len(OBSERVATION_BLOCKS)} blocks and the size")
        if opponent not in range(len(OPPONENTS)):
            raise ValueError(f"opponent must be 0-{len(OPPONENTS) - 1}, not {opponent}")
        if seat not in (-1, 0, 1):
            raise ValueError(f"seat must be 0, 1 or -1 (random), not {seat}")
        self.count = count
        self.config = config
        self._offsets = tuple(offsets)
        self.size = offsets[-1]
        self._scale = point_scale
        self._opponent = opponent
        self._seat = seat
        self._pack = [c for c in range(24) if config.deck == 24 or c % 6]
        self._pack_mask = sum(1 << c for c in self._pack)
        self._rng = Rng(0)
        self.states: list[State] = []
        self.seats: list[int] = []
        self.dealers: list[int] = []
        self._done: list[bool] = []

    def reset(self, seed: int, observations: Any, masks: Any) -> None:
        """Deal every table from the random numbers of ``seed``; write the first
        observations and masks."""
        obs = _flat(observations, "f", self.count * self.size)
        mask = _flat(masks, "b", self.count * 56)
        self._rng = Rng(seed)
        self.states, self.seats, self.dealers = [], [], []
        self._done = [False] * self.count
        for i in range(self.count):
            self.states.append(self._deal(i))
            self._write(i, obs, mask)

    def step(self, actions: Any, observations: Any, masks: Any, rewards: Any, terminated: Any) -> None:
        """Play each table's action (an illegal one forfeits: reward -3), then the opponent
        until the agent is to act or the hand is over; write observations, masks, rewards
        (the agent's game points at the end of a hand, else 0) and terminated flags."""
        if not self.states:
            raise RuntimeError("reset the tables before stepping them")
        n = self.count
        act, obs = _flat(actions, "q", n), _flat(observations, "f", n * self.size)
        mask = _flat(masks, "b", n * 56)
        rew, term = _flat(rewards, "f", n), _flat(terminated, "B", n)
        for i in range(self.count):
            reward = 0.0
            if self._done[i]:
                self.states[i] = self._deal(i)
                self._done[i] = False
            else:
                s = self.states[i]
                seat = self.seats[i]
                code = act[i]
                if 0 <= code < 56 and s.legal_mask() >> code & 1:
                    s.push(code)
                    self._opponent_plays(s, seat)
                    if s.phase == OVER:
                        reward = float(s.value() if seat == 0 else -s.value())
                else:
                    s.forfeit(seat)
                    reward = _FORFEIT
                self._done[i] = s.phase == OVER
            rew[i] = reward
            term[i] = self._done[i]
            self._write(i, obs, mask)

    def table(self, i: int) -> tuple[State, int, int]:
        """Table ``i``: a copy of its state, the agent's seat and the dealer."""
        return self.states[i].copy(), self.seats[i], self.dealers[i]

    # Inside ----------------------------------------------------------------------------
    def _deal(self, i: int) -> State:
        rng = self._rng
        while True:
            deck = self._pack[:]
            for j in range(len(deck) - 1, 0, -1):
                k = rng.below(j + 1)
                deck[j], deck[k] = deck[k], deck[j]
            dealer = rng.below(2)
            seat = self._seat if self._seat >= 0 else rng.below(2)
            s = State.deal(deck, dealer, self.config)
            self._opponent_plays(s, seat)
            if s.phase != OVER:
                break
        if len(self.states) <= i:
            self.seats.append(seat)
            self.dealers.append(dealer)
        else:
            self.seats[i], self.dealers[i] = seat, dealer
        return s

    def _opponent_plays(self, s: State, seat: int) -> None:
        rng = self._rng
        while s.phase != OVER and s.to_act != seat:
            if self._opponent == 1:
                s.push(s.policy_code(True, False))
                continue
            m = _honest(s)
            k = rng.below(m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            s.push((m & -m).bit_length() - 1)

    def _write(self, i: int, obs: Any, mask: Any) -> None:
        s = self.states[i]
        me = self.seats[i]
        base = i * self.size
        for j in range(base, base + self.size):
            obs[j] = 0.0
        encode(s, me, self.dealers[i], obs, base, self._offsets, self._scale, self._pack_mask)
        m = s.legal_mask() if s.phase != OVER and s.to_act == me else 0
        base = i * 56
        for code in range(56):
            mask[base + code] = m >> code & 1


def _honest(s: State) -> int:
    """The legal actions without the declarations that would be false (R8.3)."""
    m = s.legal_mask()
    p = s.to_act
    if m & BIT_DECLARE and s.score(p) < WINNING_TOTAL:
        m &= ~BIT_DECLARE
    shows = m >> DECLARE_MARRIAGE & 0xF
    for suit in range(4):
        if shows >> suit & 1 and \
                s.points[p] + s.marriages[p] + marriage_value(suit, s.trump) < WINNING_TOTAL:
            m &= ~(1 << (DECLARE_MARRIAGE + suit))
    return m


#: The formats each buffer may have (NumPy's int64 is ``l`` on some systems, ``q`` on others).
_FORMATS = {"f": ("f",), "b": ("b",), "B": ("B", "?"), "q": ("q", "l")}
_NAMES = {"f": "float32", "b": "int8", "B": "bool or uint8", "q": "int64"}


def _flat(buffer: Any, fmt: str, count: int) -> Any:
    """``buffer`` as a flat memoryview of ``count`` items of format ``fmt``, or a clear error."""
    view: Any = memoryview(buffer)
    if view.format.lstrip("@=<") not in _FORMATS[fmt] or view.itemsize != (8 if fmt == "q" else
                                                                           4 if fmt == "f" else 1):
        raise TypeError(f"a buffer of {_NAMES[fmt]} was expected, not of format {view.format!r}")
    if not view.c_contiguous:
        raise ValueError("buffers must be C-contiguous")
    if view.nbytes // view.itemsize != count:
        raise ValueError(f"a buffer of {count} items was expected, not {view.nbytes // view.itemsize}")
    return view.cast("B").cast(fmt)
