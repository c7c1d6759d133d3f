"""Sixty-six as a PettingZoo AEC environment: two agents, ``player_0`` and ``player_1`` (the seats).

Each agent observes ``{"observation": ..., "action_mask": ...}``: the
encoding of its own view (:func:`sixtysix.envs.observation.encode`, never a
hidden card) and the ``int8`` mask of its legal action codes (all zeros when
it is not to act). The agent to act is the seat the rules name (the leader,
the follower, the trick winner at the draw), so turns do not simply alternate.
Rewards are game points (R9) when a hand ends, zero-sum. An episode is one
hand, or a whole match with ``episode="match"``.

An illegal action forfeits by default: the episode ends, the offender gets
``forfeit_reward`` (-3) and the other agent as much positive, and the
offender's info says what was legal; ``illegal_action="raise"`` raises
:class:`~sixtysix.errors.IllegalActionError` instead.

>>> from sixtysix.envs.pettingzoo import env
>>> aec = env()
>>> aec.reset(seed=4)
>>> obs, reward, terminated, truncated, info = aec.last()
>>> sorted(obs), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)
"""

from __future__ import annotations

import random
from typing import Any, SupportsInt

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from sixtysix.envs.game import Episode, parse_rules
from sixtysix.envs.gym import ILLEGAL_ACTIONS
from sixtysix.envs.observation import NUM_ACTIONS, OBSERVATION_SIZE, action_mask, decode, encode
from sixtysix.errors import IllegalActionError
from sixtysix.present.text.screen import render_codes, render_screen
from sixtysix.present.text.style import Style
from sixtysix.present.text.words import Seats
from sixtysix.rules import Rules

__all__ = ["AGENTS", "SixtySixAEC", "env"]

#: The agents, by seat.
AGENTS = ("player_0", "player_1")

Observation = dict[str, npt.NDArray[Any]]


class SixtySixAEC(AECEnv):  # type: ignore[misc]  # PettingZoo is untyped
    """Two seats of Sixty-six taking turns as the rules say. See the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's class attribute)
        "name": "sixtysix_v0", "render_modes": ["ansi"], "is_parallelizable": False,
    }

    def __init__(
        self,
        *,
        rules: str | Rules = "classic",
        episode: str = "hand",
        illegal_action: str = "forfeit",
        forfeit_reward: float = -3.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, "
                             f"not {illegal_action!r}")
        if episode not in ("hand", "match"):
            raise ValueError(f"episode must be 'hand' or 'match', not {episode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = parse_rules(rules)
        self.episode_kind = episode
        self.illegal_action = illegal_action
        self.forfeit_reward = float(forfeit_reward)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        observation = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=(OBSERVATION_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {agent: observation for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self._rng: random.Random | None = None
        self._game: Episode | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # The AEC API -------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode; ``seed`` makes the deals reproducible."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self._game = Episode(self.rules, self.episode_kind, self._rng)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._select()

    def observe(self, agent: str) -> Observation:
        game = self._require_game()
        seat = AGENTS.index(agent)
        view = game.hand.view(seat)
        mask = action_mask(view) if not self.terminations[agent] else np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": encode(view, game.match_info(seat)), "action_mask": mask}

    def step(self, action: SupportsInt | None) -> None:
        """Play ``action`` (an action code) for the agent to act; ``None`` for an agent that is done."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._require_game()
        hand = game.hand
        seat = AGENTS.index(agent)
        code, chosen = decode(action)
        legal = hand.view(seat).legal
        tried = chosen if chosen is not None else code
        if (chosen is None or not hand.is_legal(chosen)) and self.illegal_action == "raise":
            raise IllegalActionError(tried, legal, "not a legal action code here (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if chosen is None or not hand.is_legal(chosen):
            self.rewards[agent] = self.forfeit_reward
            self.rewards[AGENTS[1 - seat]] = -self.forfeit_reward
            self.infos[agent]["illegal_action"] = (
                f"{tried} is not legal; legal: {' '.join(str(a) for a in legal)}")
            self._end()
        else:
            hand.push(chosen)
            if hand.is_over():
                for s, reward in enumerate(game.rewards()):
                    self.rewards[AGENTS[s]] = float(reward)
                for s in (0, 1):
                    self.infos[AGENTS[s]]["result"] = game.result()
                if not game.next_hand():
                    self._end()
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the view of the agent to act, as text."""
        if self.render_mode != "ansi" or self._game is None:
            return None
        seat = AGENTS.index(self.agent_selection)
        view = self._game.hand.view(seat)
        seats = Seats(seat=seat, you=AGENTS[seat], opponent=AGENTS[1 - seat])
        text = render_screen(view, Style(), seats)
        if view.legal:
            text += "\n" + render_codes(view, Style(), seats)
        return text + "\n"

    def close(self) -> None:
        pass

    # Internals -------------------------------------------------------------------------
    def _require_game(self) -> Episode:
        if self._game is None:
            raise RuntimeError("call reset() first")
        return self._game

    def _end(self) -> None:
        for agent in AGENTS:
            self.terminations[agent] = True

    def _select(self) -> None:
        hand = self._require_game().hand
        if self.terminations[AGENTS[0]]:
            self.agent_selection = self.agents[0]
            self._deads_step_first()
        else:
            seat = hand.to_act
            assert seat is not None
            self.agent_selection = AGENTS[seat]


def env(**kwargs: Any) -> SixtySixAEC:
    """A new :class:`SixtySixAEC` (the PettingZoo convention); keyword options as the class takes."""
    return SixtySixAEC(**kwargs)
