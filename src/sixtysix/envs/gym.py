"""``sixtysix/SixtySix-v0``: one seat of Sixty-six against a computer player, for Gymnasium.

The agent plays one seat; the opponent is a bot from :func:`sixtysix.bots.make_bot`
(a spec such as ``"heuristic"`` or ``"random"``, or a bot object). Each step
takes one action code of :mod:`sixtysix.game.actions` (``Discrete(56)``) and then
lets the opponent act until it is the agent's turn again or the episode ends.

- Observation: :func:`sixtysix.envs.observation.encode` of the agent's view.
- Legal actions: ``info["action_mask"]`` (``int8``, for ``action_space.sample(mask=...)``)
  and :meth:`SixtySixEnv.action_masks` (``bool``, as maskable PPO expects).
- Reward: game points of each finished hand (R9), negative when lost; 0 before.
  ``info["result"]`` is the :class:`~sixtysix.game.hand.HandResult` of a hand that
  ended during the step (with the tie bonus it collected in a match).
- Episode: one hand (default) or a whole match (``episode="match"``).
- An illegal action (one the mask forbids): by default the agent forfeits the
  episode; it ends at once with ``forfeit_reward`` (-3, the most a hand can
  cost) and ``info["illegal_action"]`` says what was tried and what was legal.
  With ``illegal_action="raise"``, :class:`~sixtysix.errors.IllegalActionError`
  is raised instead, naming the legal actions, and nothing changes.

>>> import gymnasium as gym
>>> import sixtysix.envs
>>> env = gym.make("sixtysix/SixtySix-v0", opponent="random")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["legal"] == [str(a) for a in actions_of(info["action_mask"])]
((229,), True)
"""

from __future__ import annotations

import random
from typing import Any, SupportsInt

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from sixtysix import kernel
from sixtysix.bots import Bot, make_bot
from sixtysix.envs.game import Episode, parse_rules
from sixtysix.envs.observation import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    POINT_SCALE,
    action_mask,
    actions_of,
    decode,
    encode,
)
from sixtysix.errors import IllegalActionError
from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand
from sixtysix.game.match import Match
from sixtysix.game.observation import kernel_offsets
from sixtysix.game.result import HandResult, result_of
from sixtysix.game.table import Table
from sixtysix.game.views import View
from sixtysix.present.text.screen import render_codes, render_screen
from sixtysix.present.text.style import Style
from sixtysix.present.text.words import Seats
from sixtysix.rules import Rules

#: Deals tried by ``reset`` while the opponent forfeits before the agent acts.
_DEALS_TRIED = 10

__all__ = ["ENV_ID", "ILLEGAL_ACTIONS", "SixtySixEnv", "register"]

ENV_ID = "sixtysix/SixtySix-v0"

#: What an illegal action does: ``forfeit`` ends the episode, ``raise`` raises.
ILLEGAL_ACTIONS = ("forfeit", "raise")

Observation = npt.NDArray[np.float32]


def _close(bot: object) -> None:
    method = getattr(bot, "close", None)
    if method is not None:
        method()


class SixtySixEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of Sixty-six against a bot. See the module docstring and ``docs/rl.md``.

    ``opponent`` is a bot spec for :func:`~sixtysix.bots.make_bot` (seeded from
    the environment's generator, so seeded resets replay exactly) or a bot
    object (then reproducible only as far as that bot is). ``seat`` fixes the
    agent's seat (0 or 1); by default it is drawn for each episode. ``rules``
    is a :class:`~sixtysix.rules.Rules` or text such as ``"santase"``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's class attribute)

    def __init__(
        self,
        opponent: str | Bot = "heuristic",
        *,
        rules: str | Rules = "classic",
        seat: int | None = None,
        episode: str = "hand",
        illegal_action: str = "forfeit",
        forfeit_reward: float = -3.0,
        render_mode: str | None = None,
    ) -> None:
        if seat not in (None, 0, 1):
            raise ValueError(f"seat must be 0, 1 or None (drawn each episode), not {seat!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, "
                             f"not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if episode not in ("hand", "match"):
            raise ValueError(f"episode must be 'hand' or 'match', not {episode!r}")
        self.rules = parse_rules(rules)
        self.opponent_spec = opponent
        #: The hand is played inside the rules kernel (an opponent the kernel seats, single
        #: hands): no Python call per opponent action, and observations written by the kernel.
        self.in_kernel = isinstance(opponent, str) and opponent in kernel.OPPONENTS and episode == "hand"
        if isinstance(opponent, str) and not self.in_kernel:
            _close(make_bot(opponent, seed=0))  # a bad spec fails here, with the bot names
        self.fixed_seat = seat
        self.episode_kind = episode
        self.illegal_action = illegal_action
        self.forfeit_reward = float(forfeit_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, shape=(OBSERVATION_SIZE,), dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.opponent: Bot | None = None
        #: The game loop: the agent outside, the opponent asked by the table.
        self._table: Table | None = None
        self._game: Episode | None = None
        self.seat = 0
        self._over = True
        #: The result of the hand that ended during the last step (the last one, should
        #: an engine opponent forfeit the next hand before the agent's turn).
        self._result: HandResult | None = None
        self._tables: kernel.Tables | None = None
        self._started = False
        if self.in_kernel:
            assert isinstance(opponent, str)
            offsets = kernel_offsets()
            self._tables = kernel.Tables(1, kernel.config(self.rules), offsets, POINT_SCALE,
                                         kernel.OPPONENTS.index(opponent), -1 if seat is None else seat)
            self._buffers = (np.zeros(1, dtype=np.int64), np.zeros((1, OBSERVATION_SIZE), dtype=np.float32),
                             np.zeros((1, NUM_ACTIONS), dtype=np.int8), np.zeros(1, dtype=np.float32),
                             np.zeros(1, dtype=np.bool_))
            self._dealer = 0

    # The Gymnasium API --------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new episode; ``seed`` makes it and the opponent's choices reproducible."""
        super().reset(seed=seed)
        if self._tables is not None:
            return self._reset_in_kernel()
        rng = random.Random(int(self.np_random.integers(2**63)))
        if self.opponent is None or seed is not None:
            self._new_opponent(int(self.np_random.integers(2**63)))
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(2))
        # An external engine as the opponent may forfeit before the agent's first
        # turn (the bot protocol); the episode is then dealt again.
        for _ in range(_DEALS_TRIED):
            self._game = Episode(self.rules, self.episode_kind, rng)
            self._over = False
            self._result = None
            self._start_hand()
            self._advance()
            if not self._over:
                return self._observation(), self._info()
        name = getattr(self.opponent, "name", "?")
        raise RuntimeError(f"the opponent {name!r} ended {_DEALS_TRIED} episodes "
                           "in a row before the agent's first turn")

    def step(self, action: SupportsInt) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an action code), then the opponent's actions until the agent's turn."""
        if self._tables is not None:
            return self._step_in_kernel(action)
        game = self._require_game()
        if self._over:
            raise RuntimeError("the episode is over: call reset() first")
        code, chosen = decode(action)
        hand = game.hand
        if chosen is None or not hand.is_legal(chosen):
            legal = hand.view(self.seat).legal
            tried = chosen if chosen is not None else code
            if self.illegal_action == "raise":
                raise IllegalActionError(tried, legal, "not a legal action code here (see action_masks())")
            self._over = True
            info = self._info()
            info["illegal_action"] = f"{tried} is not legal; legal: {' '.join(str(a) for a in legal)}"
            return self._observation(), self.forfeit_reward, True, False, info
        self._result = None
        reward = self._push(chosen)
        reward += self._advance()
        return self._observation(), float(reward), self._over, False, self._info()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the agent's view as text, with its legal actions."""
        if self.render_mode != "ansi" or (self._game is None and not self._started):
            return None
        view = self.view
        seats = Seats(seat=self.seat, you="Agent", opponent="Opponent")
        text = render_screen(view, Style(), seats)
        if view.legal:
            text += "\n" + render_codes(view, Style(), seats)
        return text + "\n"

    def close(self) -> None:
        """Close the opponent this environment made (a bot object given to it stays open)."""
        if self.opponent is not None and self.opponent is not self.opponent_spec:
            _close(self.opponent)
        super().close()

    # Masks and views ------------------------------------------------------------
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal action codes as booleans (the method maskable PPO calls)."""
        return self._mask().astype(bool)

    @property
    def view(self) -> View:
        """The agent's view of the hand being played (what its seat may know, R11)."""
        return self.hand.view(self.seat)

    @property
    def hand(self) -> Hand:
        """The hand being played, both seats' cards and the stock included: for tests and
        debugging, never for the agent (its observations hold what its seat may know)."""
        if self._tables is not None:
            if not self._started:
                raise RuntimeError("call reset() before step()")
            state, _, _ = self._tables.table(0)
            return Hand.from_kernel(state, self._dealer, self.rules)
        return self._require_game().hand

    @property
    def match(self) -> Match | None:
        """The match of a match episode (``None`` for single hands)."""
        return None if self._game is None else self._game.match

    # In the kernel ----------------------------------------------------------------
    def _reset_in_kernel(self) -> tuple[Observation, dict[str, Any]]:
        assert self._tables is not None
        _, obs, masks, _, _ = self._buffers
        self._tables.reset(int(self.np_random.integers(2**63)), obs, masks)
        _, self.seat, self._dealer = self._tables.table(0)
        self._started = True
        self._over = False
        self._result = None
        return obs[0].copy(), self._info()

    def _step_in_kernel(self, action: SupportsInt) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        assert self._tables is not None
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over: call reset() first")
        actions, obs, masks, rewards, terminated = self._buffers
        code, chosen = decode(action)
        legal = chosen is not None and bool(masks[0, code])
        if not legal:
            tried = chosen if chosen is not None else code
            choices = actions_of(masks[0])
            if self.illegal_action == "raise":
                raise IllegalActionError(tried, choices, "not a legal action code here (see action_masks())")
            code = -1  # the kernel forfeits the hand for the agent
        actions[0] = code
        self._tables.step(actions, obs, masks, rewards, terminated)
        self._over = bool(terminated[0])
        reward = float(rewards[0]) if legal else self.forfeit_reward
        if self._over:
            state, _, _ = self._tables.table(0)
            self._result = result_of(state, state.history())
        info = self._info()
        if not legal:
            info["illegal_action"] = f"{tried} is not legal; legal: {' '.join(str(a) for a in choices)}"
        return obs[0].copy(), reward, self._over, False, info

    # Internals ---------------------------------------------------------------------
    def _require_game(self) -> Episode:
        if self._game is None:
            raise RuntimeError("call reset() before step()")
        return self._game

    def _new_opponent(self, seed: int) -> None:
        if self.opponent is not None and self.opponent is not self.opponent_spec:
            _close(self.opponent)
        spec = self.opponent_spec
        self.opponent = make_bot(spec, seed=seed) if isinstance(spec, str) else spec

    def _start_hand(self) -> None:
        players: list[Bot | None] = [None, None]
        players[1 - self.seat] = self.opponent
        if self._table is None or self._table.players != tuple(players):
            self._table = Table(players)
        self._table.start(self._require_game().hand)

    def _push(self, action: Action) -> int:
        """The agent takes ``action``; its reward if the hand ends."""
        assert self._table is not None
        self._table.play(action)
        return self._settle()

    def _settle(self) -> int:
        """After an action or a forfeit: the agent's reward if the hand ended (and the next deal)."""
        game = self._require_game()
        if not game.hand.is_over():
            return 0
        reward = game.rewards()[self.seat]
        self._result = game.result()
        if game.next_hand():
            self._start_hand()
        else:
            self._over = True
        return reward

    def _advance(self) -> int:
        """Let the opponent act until the agent's turn or the end; the agent's reward meanwhile.

        An external engine that fails loses the hand (the bot protocol); an opponent that
        chooses an illegal action raises :class:`~sixtysix.errors.BotError`."""
        reward = 0
        table = self._table
        assert table is not None
        while not self._over and table.bot_to_act() is not None:
            table.step()
            reward += self._settle()
        return reward

    def _mask(self) -> npt.NDArray[np.int8]:
        if self._tables is not None:
            mask: npt.NDArray[np.int8] = self._buffers[2][0].copy()
            return mask
        if self._game is None or self._over:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return action_mask(self.view)

    def _observation(self) -> Observation:
        game = self._require_game()
        return encode(self.view, game.match_info(self.seat))

    def _info(self) -> dict[str, Any]:
        mask = self._mask()
        info: dict[str, Any] = {"action_mask": mask, "legal": [str(a) for a in actions_of(mask)],
                                "seat": self.seat}
        if self._result is not None:
            info["result"] = self._result
        return info



def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (done on ``import sixtysix.envs``; idempotent)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="sixtysix.envs.gym:SixtySixEnv")
