"""``python -m derivations GAME|--all [options]``: the same as ``symgame derive``."""
import sys

from symgame.cli import main

if __name__ == "__main__":
    sys.exit(main(["derive", *sys.argv[1:]]))
