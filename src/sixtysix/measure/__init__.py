"""Measuring players: small statistics for simulations and Glicko-2 ratings (standard library only)."""
