"""Moved to :mod:`symgame.model.isolated` (below the engine, which runs time-limited cases with it); kept here so
that existing imports keep working."""
from ..model.isolated import Outcome, run_isolated

__all__ = ["Outcome", "run_isolated"]
