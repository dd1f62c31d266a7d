"""``python -m derivations COMMAND ...``: the paper studies' command line (:mod:`derivations.cli`)."""
import sys

from derivations.cli import main

if __name__ == "__main__":
    sys.exit(main())
