"""Bridges to other card-game platforms (optional extras).

* :mod:`sixtysix.compat.schnapsen`: our bots inside the engine of the
  ``schnapsen`` course platform, and its bots in our arena (extra ``[schnapsen]``).
"""
