"""The training pipeline of the learned Sixty-six players (issue 20): self-play data
from our own search players, a PyTorch network trained on it on the CPU, and the
export to the numpy weights file that the package loads.

Not part of the package ``sixtysix`` (which never imports torch). Run it from the
repository's root as ``python -m training``; see ``training/README.md``.
"""

from __future__ import annotations
