"""symgame: symbolic equilibria of parametrized games, verified and exported."""
__version__ = "0.1.0"
