"""Fictitious play for n-player normal-form games, in exact integer arithmetic.

Each player owns a payoff tensor indexed by every player's action.  At step
``t`` all players best-respond, simultaneously, to the empirical play of the
others so far (Brown's method, as in Buck, Lee, Platnick, Wheeler and Zumbrun,
"Continuous guts poker and numerical optimization of generalized recursive
games", arXiv:2208.02788, 2022, Appendix C).  The duality gap of their eq. (C.4),
``g = Σ_j max_z φ_j(z, p_{-j}(t))``, is zero exactly at a Nash equilibrium of a
zero-sum game; the paper observes ``g(t) ~ 1/t`` for 3-player Guts.

Exactness and the tie rule
--------------------------
The payoffs must be integers or rationals (``fractions.Fraction``); rational
tensors are scaled by one positive common denominator, which changes no best
response.  Each player's action values are then computed against the others'
*counts* (integers) rather than their empirical frequencies, so every
comparison is exact: a best response is the **lowest-indexed** action among
those with the largest value, on every machine, whatever the BLAS library or
thread count.  (Floating-point fictitious play breaks exact ties by rounding
noise, which made its end points differ between runs.)  The gap is computed
exactly and converted to a float only when it is stored.

Examples
--------
Matching pennies from (heads, heads): the empirical mixtures approach (1/2, 1/2).

>>> import numpy as np
>>> A = np.array([[1, -1], [-1, 1]])
>>> trace = fictitious_play([A, -A], 400)
>>> [str(p) for p in trace.mixtures[0]]
['189/400', '211/400']
"""
from __future__ import annotations

import string
from dataclasses import dataclass
from fractions import Fraction
from math import lcm, prod
from typing import Sequence

import numpy as np

_INT64_SAFE = 2 ** 62
#: Below this many entries per tensor, three or more players' action values are recomputed from all counts at every
#: step (a few calls of ``einsum``); from it on they are kept up to date one count at a time (``n (n - 1)`` calls,
#: each on a slice). Both give the same integers; only the time differs (Guts' 101^3 mesh game: 2.9-4.4 s -> 0.15 s;
#: a 3-player game of 5^3 actions is about twice as slow kept up to date).
INCREMENTAL_FROM = 4096


@dataclass(frozen=True)
class FictitiousPlayTrace:
    """Gap after each step, each player's play at each step, and the exact final empirical mixtures.

    ``gaps[t]`` is eq. (C.4) at the frequencies after step ``t + 1`` (exact, then rounded to a float);
    ``plays[t]`` the profile played at step ``t + 1``; ``mixtures[k]`` player k's empirical mixture
    after the last step, as ``Fraction`` entries.
    """

    gaps: np.ndarray
    plays: np.ndarray          # shape (steps, players)
    mixtures: tuple[tuple[Fraction, ...], ...]


def integer_tensors(payoffs: Sequence[np.ndarray]) -> tuple[list[np.ndarray], int]:
    """The tensors scaled by one positive integer so that every entry is an integer (exactly), and the scale.

    Entries may be Python or NumPy integers or ``Fraction``; a float entry is accepted only if it
    is integral (a float payoff cannot be compared exactly; build the tensor from rationals).
    """
    if all(np.asarray(t).dtype.kind in "iu" for t in payoffs):
        return [np.asarray(t) for t in payoffs], 1
    arrays = [np.asarray(t, dtype=object) for t in payoffs]
    values = [Fraction(_exact(v)) for t in arrays for v in t.flat]
    scale = lcm(*(v.denominator for v in values)) if values else 1
    out = []
    for t in arrays:
        scaled = np.empty(t.shape, dtype=object)
        for index, v in np.ndenumerate(t):
            q = Fraction(_exact(v)) * scale
            scaled[index] = q.numerator
        out.append(scaled)
    return out, scale


def _exact(v) -> Fraction | int:
    if isinstance(v, (Fraction, int, np.integer)):
        return Fraction(v) if isinstance(v, Fraction) else int(v)
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return int(v)
    raise TypeError(f"fictitious play needs integer or rational payoffs, got {v!r} ({type(v).__name__})")


def _against_others(tensor: np.ndarray, player: int, counts: Sequence[np.ndarray]) -> np.ndarray:
    """Σ over the others' actions of payoff × product of their counts, for each action of ``player``."""
    letters = string.ascii_lowercase[:tensor.ndim]
    operands = [tensor] + [c for k, c in enumerate(counts) if k != player]
    spec = ",".join([letters] + [letters[k] for k in range(tensor.ndim) if k != player]) + "->" + letters[player]
    return np.einsum(spec, *operands)


def _gain_from_one_count(tensor: np.ndarray, player: int, other: int, action: int,
                         counts: Sequence[np.ndarray]) -> np.ndarray:
    """What ``_against_others(tensor, player, counts)`` gains when ``counts[other][action]`` grows by one.

    The action values are linear in each other player's counts, so the increase is the slice of ``tensor`` at
    ``action`` on axis ``other``, summed against the remaining players' counts (a vector for two players, a
    matrix times a vector for three): one fewer dimension than recomputing the values from the counts.
    """
    piece = tensor[(slice(None),) * other + (action,)]          # a view, not a copy
    rest = [c for k, c in enumerate(counts) if k != other]
    return _against_others(piece, player - (other < player), rest)


def fictitious_play(payoffs: Sequence[np.ndarray], steps: int, start: Sequence[int] | None = None,
                    denominator: int = 1) -> FictitiousPlayTrace:
    """Simultaneous fictitious play from the pure profile ``start`` (default: every player's first action).

    Parameters
    ----------
    payoffs : sequence of arrays
        One tensor per player, indexed by all players' actions, with integer or rational entries.
    steps : int
        Number of simultaneous best-response steps.
    start : sequence of int, optional
        The first profile played.
    denominator : int, optional
        The payoffs are ``payoffs / denominator`` (for integer tensors scaled by a known integer,
        such as :func:`symgame.games.guts.three_player_tensors`); only the gaps depend on it.

    Returns
    -------
    FictitiousPlayTrace
        Exact mixtures; ties go to the lowest action index (see the module docstring).
    """
    ints, scale = integer_tensors(payoffs)
    scale *= denominator
    n = len(ints)
    sizes = ints[0].shape
    largest = max(max(abs(int(t.max())), abs(int(t.min()))) for t in ints)
    # the largest sum computed: |payoff| x steps^(n-1) per term, times the number of terms
    bound = largest * steps ** (n - 1) * max(prod(sizes) // sizes[k] for k in range(n))
    dtype = np.int64 if bound < _INT64_SAFE else object
    tensors = [t.astype(dtype) for t in ints]
    counts = [np.zeros(sizes[k], dtype=dtype) for k in range(n)]
    current = list(start) if start is not None else [0] * n
    gaps, plays = np.empty(steps), np.empty((steps, n), dtype=int)
    # values[k] = _against_others(tensors[k], k, counts), kept up to date one count at a time (exactly the same
    # integers; a test checks them against the recomputation)
    values = [np.zeros(sizes[k], dtype=dtype) for k in range(n)]
    incremental = n == 2 or prod(sizes) >= INCREMENTAL_FROM
    for t in range(steps):
        for j in range(n):
            if incremental:
                for k in range(n):
                    if k != j:
                        values[k] += _gain_from_one_count(tensors[k], k, j, current[j], counts)
            counts[j][current[j]] += 1
        if not incremental:
            values = [_against_others(tensors[k], k, counts) for k in range(n)]
        best = [int(max(v)) for v in values]
        current = [next(a for a, x in enumerate(v) if int(x) == b) for v, b in zip(values, best)]
        gaps[t] = float(Fraction(sum(best), scale * (t + 1) ** (n - 1)))
        plays[t] = current
    return FictitiousPlayTrace(gaps, plays, tuple(tuple(Fraction(int(c), steps) for c in cs) for cs in counts))
