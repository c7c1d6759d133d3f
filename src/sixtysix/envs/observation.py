"""The observation of the RL adapters: :mod:`sixtysix.game.observation`, under the name the
environments have always used (it moved below the bots, which encode views too)."""

from sixtysix.game.observation import (
    LAYOUT,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    POINT_SCALE,
    action_mask,
    actions_of,
    block,
    decode,
    encode,
)

__all__ = ["LAYOUT", "NUM_ACTIONS", "OBSERVATION_SIZE", "POINT_SCALE", "action_mask", "actions_of",
           "block", "decode", "encode"]
