"""``python -m symgame ...``: the command line (the same as the ``symgame`` script)."""
from .cli import entry_point

if __name__ == "__main__":
    entry_point()
