"""The network: an MLP trunk (ReLU) and three heads, in PyTorch, and its losses.

The parameter names (``trunk.0.weight`` ... ``policy.weight``, ``value.weight``,
``hand.weight`` and biases) are those of the exported weights file
(:mod:`training.export`), which the package runs with numpy.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import torch
from torch import nn
from torch.nn import functional

from sixtysix.envs.observation import NUM_ACTIONS, OBSERVATION_SIZE

__all__ = ["HAND_SIZE", "Batch", "Net", "losses"]

#: The inference head: one output for each of the 24 cards.
HAND_SIZE = 24

#: A batch of positions: obs, mask, policy, value, hand, unseen (as in a data chunk).
Batch = dict[str, torch.Tensor]


class Net(nn.Module):
    """``h = relu(W h + b)`` through the trunk; then policy logits (56), a value
    (1, to go through tanh) and hand logits (24, to go through a sigmoid)."""

    def __init__(self, hidden: Sequence[int], inputs: int = OBSERVATION_SIZE) -> None:
        super().__init__()
        if not hidden:
            raise ValueError("the trunk needs at least one hidden layer")
        sizes = [inputs, *hidden]
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(sizes))
        self.policy = nn.Linear(sizes[-1], NUM_ACTIONS)
        self.value = nn.Linear(sizes[-1], 1)
        self.hand = nn.Linear(sizes[-1], HAND_SIZE)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Policy logits, the value before tanh (one per row), hand logits."""
        h = obs
        for layer in self.trunk:
            h = functional.relu(layer(h))
        return self.policy(h), self.value(h).squeeze(-1), self.hand(h)


def losses(net: Net, batch: Batch, value_weight: float = 1.0, hand_weight: float = 1.0
           ) -> dict[str, torch.Tensor]:
    """The mean losses over ``batch``: ``policy`` (cross-entropy against the visit
    distribution, illegal actions at -inf before the softmax), ``value`` (squared error
    of tanh against the outcome), ``hand`` (binary cross-entropy on the unseen cards
    only) and their weighted sum ``total``."""
    logits, value, hand = net(batch["obs"])
    legal = batch["mask"].bool()
    log_p = torch.log_softmax(logits.masked_fill(~legal, float("-inf")), dim=-1)
    policy = -torch.where(legal, batch["policy"] * log_p, torch.zeros_like(log_p)).sum(-1).mean()
    value_loss = functional.mse_loss(torch.tanh(value), batch["value"])
    unseen = batch["unseen"].float()
    bce = functional.binary_cross_entropy_with_logits(hand, batch["hand"].float(), reduction="none")
    hand_loss = (bce * unseen).sum() / unseen.sum().clamp(min=1.0)
    total = policy + value_weight * value_loss + hand_weight * hand_loss
    return {"policy": policy, "value": value_loss, "hand": hand_loss, "total": total}
