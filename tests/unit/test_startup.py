"""Start-up of a small solve: heavy libraries are imported where they are used, and the numeric cross-check is
still nashpy's own support enumeration."""
import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from symgame.numeric.solvers import bimatrix_equilibria

GAME = Path(__file__).resolve().parents[2] / "examples" / "battle_weight.yaml"


@seed(20261126)
@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_the_cross_check_is_nashpys_support_enumeration(m, n, draw):
    import nashpy

    rng = np.random.default_rng(draw)
    a, b = rng.integers(-5, 6, (m, n)).astype(float), rng.integers(-5, 6, (m, n)).astype(float)
    ours = bimatrix_equilibria(a, b)
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = list(nashpy.Game(a, b).support_enumeration())
    assert len(ours) == len(theirs)
    assert all(np.allclose(x, u) and np.allclose(y, v) for (x, y), (u, v) in zip(ours, theirs))


def test_a_two_by_two_solve_imports_neither_nashpys_package_nor_scipy():
    """nashpy's ``__init__`` imports networkx and scipy (0.78 s); a general-sum 2x2 solve needs neither."""
    script = ("import sys\nfrom symgame.cli import main\nstatus = main(['solve', sys.argv[1]])\n"
              "print(status, sorted(m for m in ('nashpy', 'scipy.optimize', 'networkx', 'matplotlib') "
              "if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", script, str(GAME)], capture_output=True, text=True, timeout=120)
    assert run.stdout.splitlines()[-1] == "0 []", run
    assert "Always: Row plays a; Col plays a" in run.stdout
