"""symgame's Python API: build or load a game, solve it, evaluate and export the result.

The whole workflow in five lines (a zero-sum game whose payoff ``t`` is a parameter):

>>> import symgame
>>> game = symgame.normal_form([["0", "-1", "t"], ["1", "0", "-1"], ["-t", "1", "0"]],
...                            parameters={"t": "[0, 3]"}, zero_sum=True)
>>> solution = symgame.solve(game)
>>> solution.certified
True
>>> print(solution.pdl.render_text())
Always: Row plays {a1: 1/(t + 2), a2: t/(t + 2), a3: 1/(t + 2)}; Col plays {a1: 1/(t + 2), a2: t/(t + 2), a3: 1/(t + 2)}
>>> solution.evaluate(t=1).strategies[0]
(Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))

Parameters may be given as strings, plain ``sympy`` symbols or expressions, numbers or
``Fraction`` values; every text goes through symgame's restricted expression parser (never
``eval`` or ``sympify``). Anything inconsistent raises a :class:`~symgame.errors.InputError` with
one line saying what and where.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence, overload

from .errors import InputError, NoResultError

if TYPE_CHECKING:      # heavy modules are imported where they are used, so `import symgame` stays fast
    from .engine.derive import Derivation
    from .engine.enummixed import EquilibriumSet
    from .engine.enumpoly import EnumPolyResult
    from .games.analysis import GameAnalysis, PublishedCheck
    from .model.extensive import ExtensiveGame
    from .model.gambit import GambitTree, StrategicGame
    from .model.game import NormalFormGame
    from .model.pdl import PDL, Choice
    from .model.polygame import PolynomialGame

__all__ = ["normal_form", "load", "load_pdl", "examples", "solve", "Solution", "atlas", "all_equilibria", "equilibria_json",
           "tree_equilibria_json", "strategic_equilibria_json", "tree_value_json"]


#: The largest payoff number (numerator or denominator) accepted from Python values, in bits: the 60 digits of
#: :data:`symgame.model.expr.MAX_NUMBER_DIGITS`, checked before a huge int is turned into text.
MAX_NUMBER_BITS = 200


def _cell_text(value: Any, where: str) -> str:
    """A payoff entry as text for the restricted parser."""
    import sympy as sp

    if isinstance(value, bool):
        raise InputError(f"{where}: a payoff must be a number or an expression, not {value!r}")
    if isinstance(value, str):
        return value
    if isinstance(value, (int, Fraction)):
        size = max(abs(Fraction(value).numerator).bit_length(), Fraction(value).denominator.bit_length())
        if size > MAX_NUMBER_BITS:
            raise InputError(f"{where}: a number of more than 60 digits is beyond symgame's limit")
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise InputError(f"{where}: {value!r} is not a finite number")
        return _cell_text(Fraction(repr(value)), where)   # the decimal it prints as, exactly: 0.1 is 1/10, 1e-05 too
    if isinstance(value, sp.Basic):
        return sp.sstr(value)
    try:                                            # numpy scalars and the like
        import numpy as np

        if isinstance(value, np.integer):
            return str(int(value))
        if isinstance(value, np.floating):
            return _cell_text(float(value), where)
    except ImportError:                             # pragma: no cover - numpy is a dependency
        pass
    raise InputError(f"{where}: cannot read a payoff of type {type(value).__name__}")


def _parameter_spec(parameters: Any) -> dict[str, Any]:
    """``{name: domain}`` from a mapping, or from a sequence of names or sympy symbols (domain: all reals)."""
    import sympy as sp

    if parameters is None:
        return {}
    items: list[tuple[Any, Any]]
    if isinstance(parameters, Mapping):
        items = list(parameters.items())
    elif isinstance(parameters, (str, sp.Symbol)):
        items = [(parameters, "(-oo, oo)")]
    else:
        items = [(p, "(-oo, oo)") for p in parameters]
    out: dict[str, Any] = {}
    for name, domain in items:
        key = name.name if isinstance(name, sp.Symbol) else name
        if not isinstance(key, str):
            raise InputError(f"parameters: a parameter is named by a string or a sympy symbol, not {name!r}")
        out[key] = domain
    return out


def normal_form(payoffs: Any, *, parameters: Any = None, players: Sequence[Any] | None = None,
                zero_sum: bool | None = None, name: str = "game", assumptions: Sequence[str] = (),
                description: str = "") -> NormalFormGame:
    """A parametrized one- or two-player normal-form game from Python values.

    Parameters
    ----------
    payoffs : nested sequence, or a pair of them
        With ``zero_sum=True``, one matrix of the row player's payoffs. Otherwise either a pair
        ``(A, B)`` of matrices (row player, column player) or one matrix whose entries are pairs.
        A one-player decision problem is a list with one entry per action and ``players`` of length 1.
        Entries are numbers (floats are read as the decimal they print as), ``Fraction``, strings
        such as ``"1/2 - p2 + p1*p2"`` or sympy expressions.
    parameters : mapping or sequence, optional
        ``{"t": "[0, 3]"}`` (intervals as in game files: ``[`` ``]`` closed, ``(`` ``)`` open,
        ``oo`` for infinity; ``{"domain": ..., "integer": True}`` for an integer parameter), or a
        list of names or sympy symbols, each then ranging over all reals.
    players : sequence, optional
        Player names, or ``(name, [action names])`` pairs. Default: ``Row``/``Col`` with actions
        ``a1, a2, ...``.
    zero_sum : bool, optional
        Default: true when a single matrix of plain entries is given for two players.
    name, assumptions, description
        As in a game file (``assumptions``: extra conditions such as ``"p2 <= p1"``).

    Returns
    -------
    NormalFormGame

    Raises
    ------
    InputError
        Matrices of different shapes, an unknown name, an entry the restricted parser cannot read, an empty or
        malformed domain (one line naming the argument and the place).

    Examples
    --------
    >>> import sympy as sp
    >>> p = sp.Symbol("p")                      # a plain symbol works: it is matched by name
    >>> game = normal_form(([[p, 0], [0, 1 - p]], [[1 - p, 0], [0, p]]), parameters={p: "[0, 1]"})
    >>> [pl.actions for pl in game.players]
    [('a1', 'a2'), ('a1', 'a2')]
    >>> normal_form([["q"]], parameters={"p": "[0, 1]"}, zero_sum=True)
    Traceback (most recent call last):
    ...
    symgame.errors.InputError: <python>: payoffs[0][0]: unknown name 'q' at column 1 (known: p)
    """
    from .model.gamefile import GameFileError, game_from_data

    two_matrices = (isinstance(payoffs, tuple) and len(payoffs) == 2 and _is_matrix(payoffs[0])
                    and _is_matrix(payoffs[1]))
    if players is not None and len(players) == 1:
        rows = [_cell_text(v, f"payoffs[{i}]") for i, v in enumerate(payoffs)]
        data_payoffs: Any = rows
        zero_sum = False
    elif two_matrices:
        A, B = payoffs
        _same_shape(A, B)
        data_payoffs = [[[_cell_text(a, f"payoffs[0][{i}][{j}]"), _cell_text(b, f"payoffs[1][{i}][{j}]")]
                         for j, (a, b) in enumerate(zip(row_a, row_b))] for i, (row_a, row_b) in enumerate(zip(A, B))]
        if zero_sum:
            raise InputError("payoffs: a pair of matrices was given with zero_sum=True (give the row player's only)")
        zero_sum = False
    else:
        if not _is_matrix(payoffs):
            raise InputError("payoffs: expected a matrix (a list of rows) or a pair of matrices")
        pairs = all(isinstance(c, (list, tuple)) for row in payoffs for c in row)
        if pairs:
            data_payoffs = [[[_cell_text(c[0], f"payoffs[{i}][{j}][0]"), _cell_text(c[1], f"payoffs[{i}][{j}][1]")]
                             if len(c) == 2 else _bad_pair(i, j) for j, c in enumerate(row)]
                            for i, row in enumerate(payoffs)]
            zero_sum = False if zero_sum is None else zero_sum
        else:
            data_payoffs = [[_cell_text(c, f"payoffs[{i}][{j}]") for j, c in enumerate(row)]
                            for i, row in enumerate(payoffs)]
            if zero_sum is False:
                raise InputError("payoffs: one matrix of single entries needs zero_sum=True "
                                 "(or give a pair of matrices)")
            zero_sum = True
    shape = (len(data_payoffs), len(data_payoffs[0]) if data_payoffs and isinstance(data_payoffs[0], list) else 1)
    data = {"game": name, "parameters": _parameter_spec(parameters), "assumptions": list(assumptions),
            "players": _players(players, shape), "zero_sum": bool(zero_sum), "payoffs": data_payoffs}
    if description:
        data["description"] = description
    try:
        return game_from_data(data, "<python>")
    except GameFileError as exc:
        raise InputError(str(exc)) from None


def _is_matrix(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and len(value) > 0 and all(isinstance(r, (list, tuple)) for r in value)


def _same_shape(A: Sequence, B: Sequence) -> None:
    if len(A) != len(B) or any(len(a) != len(b) for a, b in zip(A, B)):
        raise InputError("payoffs: the two matrices have different shapes")


def _bad_pair(i: int, j: int):
    raise InputError(f"payoffs[{i}][{j}]: a general-sum entry is a pair (row payoff, column payoff)")


def _players(players: Sequence[Any] | None, shape: tuple[int, int]) -> list[dict]:
    if players is not None and (isinstance(players, (str, bytes, Mapping)) or not isinstance(players, Sequence)):
        raise InputError("players: give a list of players, each a name or a (name, [actions]) pair "
                         f"(got {type(players).__name__} {str(players)[:40]!r})")
    if players is None:
        return [{"name": "Row", "actions": [f"a{k + 1}" for k in range(shape[0])]},
                {"name": "Col", "actions": [f"a{k + 1}" for k in range(shape[1])]}]
    out = []
    for k, player in enumerate(players):
        if isinstance(player, str):
            out.append({"name": player, "actions": [f"a{a + 1}" for a in range(shape[k] if k < 2 else 0)]})
        elif isinstance(player, (list, tuple)) and len(player) == 2:
            out.append({"name": player[0], "actions": list(player[1])})
        else:
            raise InputError(f"players[{k}]: give a name or a (name, [actions]) pair")
    return out


def load(path: str | Path) -> NormalFormGame | StrategicGame | PolynomialGame | ExtensiveGame:
    """Read a game file: Gambit ``.nfg`` or ``.efg`` (two-player constant-sum), or a YAML/JSON normal-form or
    polynomial game.

    A ``.nfg`` file of one or two players gives a :class:`~symgame.model.game.NormalFormGame` (for
    :func:`solve` and :func:`all_equilibria`), one of three or more players a
    :class:`~symgame.model.gambit.StrategicGame` (for :func:`all_equilibria`).

    A YAML/JSON file whose players declare ``variables`` is a polynomial game, and one with a ``root`` a
    game tree compiled to its behaviour polynomials (both for :func:`atlas`); otherwise a normal-form game
    (for :func:`solve`). Problems raise :class:`InputError` with the
    file, the place and the problem in one line.

    Parameters
    ----------
    path : str or Path
        The file; the extension decides the reader (``.nfg``, ``.efg``, anything else YAML/JSON).

    Returns
    -------
    NormalFormGame, StrategicGame, PolynomialGame or ExtensiveGame

    Raises
    ------
    InputError
        A file that cannot be read or does not describe a game (one line: file, place, problem).

    Examples
    --------
    >>> game = load("examples/rps_variant.yaml")
    >>> game.name, [p.name for p in game.players]
    ('rock-paper-variant', ['Row', 'Col'])
    """
    from .model.efg import EfgError, load_efg
    from .model.gambit import GambitError, load_nfg, to_normal_form
    from .model.gamefile import GameFileError, read_document

    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise InputError(f"load: expected a file path (str or Path), got {type(path).__name__}")
    path = Path(path)
    try:
        if path.suffix.lower() == ".efg":
            return load_efg(path)
        if path.suffix.lower() == ".nfg":
            strategic = load_nfg(path)
            return strategic if len(strategic.players) > 2 else to_normal_form(strategic, str(path))
        data, source = read_document(path)
        return _game_from_document(data, source)
    except (EfgError, GambitError, GameFileError) as exc:
        raise InputError(str(exc)) from None


def _game_from_document(data: Any, source: str) -> Any:
    """A parsed YAML/JSON game document as :func:`load` returns it (raises the readers' one-line errors)."""
    from .model.gamefile import game_from_data
    from .model.nplayer import is_nplayer_data, strategic_game
    from .model.polyfile import polynomial_game_from_data

    if is_nplayer_data(data) and not data.get("parameters"):
        return strategic_game(data, source)
    players = data.get("players") if isinstance(data, dict) else None
    if (isinstance(players, list) and any(isinstance(p, dict) and "variables" in p for p in players)) \
            or (isinstance(data, dict) and "root" in data) or is_nplayer_data(data):
        return polynomial_game_from_data(data, source)
    return game_from_data(data, source)


def examples() -> dict[str, Path]:
    """The example games shipped inside the package (so they are there in a wheel as in the repository).

    Returns
    -------
    dict
        Name (the file's stem) -> path of the YAML file, sorted by name.

    Examples
    --------
    >>> found = examples()
    >>> sorted(found)[:3], found["pennies"].name
    (['battle_weight', 'billingham', 'kuhn_ante_bet'], 'pennies.yaml')
    >>> solve(found["pennies"]).engine
    'atlas'
    """
    folder = Path(__file__).resolve().parent / "examples"
    return {path.stem: path for path in sorted(folder.glob("*.yaml"))}


def _point(point: Mapping[str, Any] | None, values: Mapping[str, Any]) -> dict[str, Fraction]:
    import sympy as sp

    merged = dict(point or {})
    merged.update(values)
    out = {}
    for key, value in merged.items():
        name = key.name if isinstance(key, sp.Symbol) else str(key)
        try:
            out[name] = Fraction(str(value)) if isinstance(value, (float, str, sp.Rational)) else Fraction(value)
        except (ValueError, TypeError, ZeroDivisionError):
            raise InputError(f"point: {name} = {value!r} is not a rational number") from None
    return out


@dataclass(frozen=True)
class Solution:
    """The result of :func:`solve`, whatever the game and the engine: one contract (:meth:`to_data`, the same
    fields for every kind of game), renderers for text, Markdown, LaTeX and JSON, and a result read back from
    its JSON (:meth:`from_json`).

    A parametrized normal-form game of one or two players also keeps its whole analysis (the decision list,
    the branches, the whole-domain certificate, the cross-check: :attr:`pdl`, :attr:`branches`, ...);
    results of the other engines keep the engine's own object in :attr:`native`.

    Attributes
    ----------
    analysis : GameAnalysis or None
        Everything the parametric normal-form engine computed (``None`` for other engines and results read
        back from JSON).
    record : dict or None
        The contract, for results of other engines and results read back (derived from ``analysis``
        otherwise).
    native : object
        The engine's own result (an :class:`~symgame.engine.atlas.Atlas`, an
        :class:`~symgame.engine.enumpoly.EnumPolyResult`, ...) or ``None``.

    Examples
    --------
    >>> sol = solve(normal_form([["a", "0"], ["0", "1"]], parameters={"a": "(0, oo)"}, zero_sum=True))
    >>> sol.certified, len(sol.branches), len(sol.pdl.rules), sol.engine
    (True, 1, 1, 'parametric support enumeration')
    >>> sol.evaluate(a=1).strategies
    ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2)))
    >>> all(check.exact_nash for check in sol.crosscheck.checks)
    True
    >>> sol.to_json() == sol.to_json()          # byte-deterministic
    True
    >>> "documentclass" in sol.to_latex()
    True
    >>> sol
    Solution('game', rules=1, branches=1, certificate='proved', parameters=('a',))
    >>> again = Solution.from_json(sol.to_json())     # read back: the same contract, the same text
    >>> again.to_json() == sol.to_json(), again.certified
    (True, True)
    """

    analysis: GameAnalysis | None = None
    record: Mapping[str, Any] | None = None
    native: Any = None

    def _full(self, what: str) -> GameAnalysis:
        if self.analysis is None:
            engine = self.record["engine"]["name"] if self.record is not None else "empty"
            raise InputError(f"{what}: this result ({engine}) has no decision list; its pieces and "
                             "equilibria are in .to_data()")
        return self.analysis

    @property
    def game(self) -> NormalFormGame:
        return self._full("game").derivation.game

    @property
    def derivation(self) -> Derivation:
        return self._full("derivation").derivation

    @property
    def branches(self) -> tuple:
        """Every equilibrium branch: supports, exact strategies as functions of the parameters, region."""
        return self._full("branches").derivation.branches

    @property
    def pdl(self) -> PDL:
        """The joint parametric decision list (the last rule is ``else``)."""
        return self._full("pdl").derivation.pdl

    @property
    def player_pdls(self) -> tuple[PDL, ...]:
        """One decision list per player (two-player games)."""
        return self._full("player_pdls").player_pdls

    @property
    def coverage(self):
        """The proof that the branches cover the parameter domain."""
        return self._full("coverage").derivation.coverage

    @property
    def certificate(self):
        """The z3 certificate that every rule is an equilibrium wherever it fires."""
        return self._full("certificate").certificate

    @property
    def certified(self) -> bool:
        """Whether the result is proved (the whole-domain certificate, or each engine's exact check)."""
        if self.analysis is not None:
            return self.analysis.certificate.status.value == "true"
        return self._contract["certificate"]["status"] == "proved"

    @property
    def crosscheck(self):
        """Exact regret and an independent numeric solver at rational sample points."""
        return self._full("crosscheck").crosscheck

    @property
    def selection(self) -> str:
        """Which equilibrium each rule shows (``default``, ``symmetric``, ``welfare`` or ``all``)."""
        if self.analysis is not None:
            return self.analysis.derivation.selection
        return self._contract["selection"]["method"]

    @property
    def all_equilibria(self) -> tuple | None:
        """With ``select="all"``: rules (first match) whose ``branches`` are every equilibrium branch valid there
        (parametric normal form only)."""
        return self._full("all_equilibria").derivation.all_equilibria

    @property
    def engine(self) -> str:
        """Which engine answered (``parametric support enumeration``, ``atlas``, ``enumpoly``, ...)."""
        return self._contract["engine"]["name"]

    @property
    def equilibria(self) -> list[dict[str, Any]]:
        """Every equilibrium or family found, as the contract lists them (exact values as text)."""
        return self.to_data()["equilibria"]

    @property
    def pieces(self) -> list[dict[str, Any]]:
        """The parameter domain in first-match order, each piece with its equilibria and the selected one."""
        return self.to_data()["pieces"]

    @property
    def complete(self) -> str:
        """``complete``, ``generic`` (every equilibrium where the game is nondegenerate) or ``not complete``."""
        return self._contract["complete"]["status"]

    def to_data(self) -> dict[str, Any]:
        """The result as the contract's JSON-ready mapping (:mod:`symgame.export.contract`; a copy: changing it
        leaves the solution as it is).

        Returns
        -------
        dict
            ``game``, ``kind``, ``engine``, ``players``, ``parameters``, ``equilibria``, ``pieces``,
            ``selection``, ``complete``, ``certificate``, ``notes``, ``detail``.

        Examples
        --------
        >>> data = solve(normal_form([[1, -1], [-1, 1]], zero_sum=True)).to_data()
        >>> data["engine"]["name"], data["equilibria"][0]["strategies"], data["pieces"][0]["value"]
        ('parametric support enumeration', {'Row': {'a1': '1/2', 'a2': '1/2'}, 'Col': {'a1': '1/2', 'a2': '1/2'}}, '0')
        """
        import copy

        return copy.deepcopy(self._contract)

    @cached_property
    def _contract(self) -> dict[str, Any]:
        if self.record is not None:
            return dict(self.record)
        from .export.contract import from_normal_form
        from .export.documents import profile_payoffs

        d = self._full("to_data").derivation
        payoffs = [{p.name: str(v) for p, v in zip(d.game.players, profile_payoffs(d.game, b.profile))}
                   for b in d.branches]
        return from_normal_form(self._json_data, payoffs)

    @classmethod
    def from_json(cls, source: str | Path) -> Solution:
        """A result read back from :meth:`to_json`'s text or a file holding it, checked against the contract.

        Parameters
        ----------
        source : str or Path
            JSON text (it starts with ``{``) or a file path (read with a size cap; never executed).

        Returns
        -------
        Solution
            Without the engine's live objects: renderers and :meth:`to_data` work, :attr:`pdl` and the other
            analysis properties raise :class:`InputError`.

        Raises
        ------
        InputError
            Not JSON, or (a :class:`~symgame.errors.StoreError`) not a result of this contract, in one line naming
            the place.

        Examples
        --------
        >>> text = solve(normal_form([[1, -1], [-1, 1]], zero_sum=True)).to_json()
        >>> print(Solution.from_json(text).render_text())
        game: 1 equilibrium (generic where nondegenerate; certificate proved)
          E1: Row plays {a1: 1/2, a2: 1/2}; Col plays {a1: 1/2, a2: 1/2}  (payoffs 0, 0)
          value 0
        """
        import json

        from .export.contract import check_contract
        from .model.store import load_json

        if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith(("{", "["))):
            return cls(record=check_contract(load_json(source), str(source)))
        if not isinstance(source, str):
            raise InputError(f"from_json: expected JSON text or a file path, got {type(source).__name__}")
        try:
            data = json.loads(source)
        except (ValueError, RecursionError) as exc:
            raise InputError(f"<json>: not JSON ({str(exc).splitlines()[0]})") from None
        return cls(record=check_contract(data, "<json>"))

    def __repr__(self) -> str:
        if self.analysis is None:
            data = self.to_data()
            return (f"Solution({data['game']!r}, engine={data['engine']['name']!r}, "
                    f"equilibria={len(data['equilibria'])}, pieces={len(data['pieces'])}, "
                    f"complete={data['complete']['status']!r}, certificate={data['certificate']['status']!r})")
        status = self.analysis.certificate.status.value
        return (f"Solution({self.game.name!r}, rules={len(self.pdl.rules)}, branches={len(self.branches)}, "
                f"certificate={ {'true': 'proved', 'false': 'refuted'}.get(status, 'undecided')!r}, "
                f"parameters={tuple(self.game.domain.names)!r})")

    def _repr_markdown_(self) -> str:
        """What a notebook shows: the decision list, how it was checked, and where the rest is."""
        from .model.markup import markdown_text

        if self.analysis is None:
            from .export.contract import render_markdown

            return render_markdown(self.to_data())
        status = self.analysis.certificate.status.value
        proof = {"true": "proved on the whole domain", "false": "REFUTED somewhere in the domain"}.get(
            status, "undecided on part of the domain")
        checks = self.crosscheck.checks
        exact = sum(check.exact_nash for check in checks)
        return (f"**{markdown_text(self.game.name)}**: {len(self.branches)} equilibrium branches derived; the "
                f"decision list (selection `{self.selection}`) is {proof} (z3), exact regret 0 at {exact} of "
                f"{len(checks)} sample points\n\n{self.pdl.to_markdown()}\n\n"
                "`solve(game, select='all').render_all()` lists every equilibrium by region; "
                "`.to_markdown()` gives the full summary.")

    def render_text(self) -> str:
        """The decision list as text, and when the game has more equilibria than the list shows, how many and
        how to list them. Any other result is rendered from its contract
        (:func:`symgame.export.contract.render_text`): a header with the number of equilibria, completeness and
        certificate, then each piece and its equilibria.

        Returns
        -------
        str

        Examples
        --------
        >>> stag_hunt = normal_form(([[4, 0], [3, 3]], [[4, 3], [0, 3]]), players=[("Ann", ["Stag", "Hare"]),
        ...                                                                   ("Bob", ["Stag", "Hare"])])
        >>> print(solve(stag_hunt).render_text())
        Always: Ann plays Stag; Bob plays Stag
        (3 equilibria; the one shown is the default choice -- pure first --; `symgame solve FILE --select all` or solve(game, select="all") lists every one)
        """
        if self.analysis is None:
            from .export.contract import render_text

            return render_text(self.to_data())
        text = self.pdl.render_text()
        count = len(self.branches)
        if self.selection == "all" or count < 2:
            return text
        choice = {"default": "the default choice -- pure first --", "symmetric": "the symmetric choice",
                  "welfare": "the largest sum of payoffs"}.get(self.selection, self.selection)
        listing = '`symgame solve FILE --select all` or solve(game, select="all") lists every one'
        if not self.game.domain.names:
            return f"{text}\n({count} equilibria; the one shown is {choice}; {listing})"
        shown = {rule.profile.strategies for rule in self.pdl.rules}
        others = [b for b in self.branches if b.profile.strategies not in shown]
        if not others:
            return text
        where = list(dict.fromkeys(f"where {' and '.join(b.region.texts)}" if b.region.texts else "everywhere"
                                   for b in others))
        places = ", ".join(where[:3]) + (", ..." if len(where) > 3 else "")
        return (f"{text}\n({len(others)} more equilibrium branch{'es' if len(others) > 1 else ''} "
                f"hold{'' if len(others) > 1 else 's'} {places}; each rule shows one equilibrium, {choice}; "
                f"{listing} valid in each region)")

    def render_all(self) -> str:
        """Text of :attr:`all_equilibria`: for each region, every equilibrium valid there (any other result: its
        :meth:`render_text`, which lists every equilibrium per piece already).

        Returns
        -------
        str

        Examples
        --------
        >>> stag_hunt = normal_form(([[4, 0], [3, 3]], [[4, 3], [0, 3]]))
        >>> print(solve(stag_hunt, select="all").render_all())
        Always: 3 equilibria
          - Row plays a1; Col plays a1
          - Row plays a2; Col plays a2
          - Row plays {a1: 3/4, a2: 1/4}; Col plays {a1: 3/4, a2: 1/4}
        """
        from .export.documents import render_all_equilibria

        if self.analysis is None:
            return self.render_text()
        return render_all_equilibria(self.analysis.derivation)

    def evaluate(self, point: Mapping[str, Any] | None = None, **values: Any) -> Choice:
        """The exact profile the PDL prescribes at a rational parameter point (``evaluate(t=1)``).

        Parameters
        ----------
        point : mapping, optional
            A value for every parameter (rationals, or text the restricted parser reads).
        **values
            The same as keywords.

        Returns
        -------
        Choice
            The rule that fires and its exact strategies.

        Raises
        ------
        InputError
            A missing or unknown parameter, a point outside the domain, or a result without a decision list.

        Examples
        --------
        >>> sol = solve(normal_form([["a", "0"], ["0", "1"]], parameters={"a": "(0, oo)"}, zero_sum=True))
        >>> sol.evaluate(a="1/3").strategies[0]
        (Fraction(3, 4), Fraction(1, 4))
        """
        self._full("evaluate")
        chosen = _point(point, values)
        names = set(self.game.domain.names)
        if set(chosen) != names:
            missing, extra = sorted(names - set(chosen)), sorted(set(chosen) - names)
            raise InputError("point: " + (f"missing {', '.join(missing)}" if missing else "")
                             + ("; " if missing and extra else "") + (f"unknown {', '.join(extra)}" if extra else ""))
        if not self.game.domain.contains(chosen):
            where = ", ".join(f"{p.name} in {p.domain_text}" for p in self.game.domain.parameters)
            shown = ", ".join(f"{k} = {v}" for k, v in sorted(chosen.items()))
            raise InputError(f"point: {shown} is outside the game's domain ({where}"
                             + (", with its assumptions" if self.game.domain.assumptions else "") + ")")
        return self.pdl.evaluate(chosen)

    @cached_property
    def _json_data(self) -> dict:
        from .export.documents import analysis_json

        return analysis_json(self._full("_json_data"))

    def to_json(self) -> str:
        """The result as JSON in the one contract of every engine (schema ``symgame/export/solution.schema.json``,
        :mod:`symgame.export.contract`; the engine's own record under ``detail``), byte-deterministic.

        Returns
        -------
        str

        Examples
        --------
        >>> text = solve("examples/kuhn_bet.yaml").to_json()
        >>> Solution.from_json(text).to_json() == text
        True
        """
        from .export.documents import dumps

        return dumps(self._contract)

    def to_markdown(self) -> str:
        """A Markdown summary: for the parametric normal-form engine its full summary (decision list,
        verification, errata), for any other result the contract's pieces and equilibria (names escaped).

        Returns
        -------
        str

        Examples
        --------
        >>> print(solve("examples/pennies.yaml").to_markdown())
        **pennies** (atlas): 1 equilibrium family, complete, certificate proved
        <BLANKLINE>
        - when `1 <= P`:
          - F1: x = 2/(P + 3), y = 2/(P + 3)
        <BLANKLINE>
        """
        from .export.documents import summary_markdown

        if self.analysis is None:
            from .export.contract import render_markdown

            return render_markdown(self.to_data())
        return summary_markdown(self.analysis, self._json_data)

    def to_latex(self) -> str:
        """A LaTeX document: the cheat sheet of the decision list, or for any other result its pieces and
        equilibria with every exact value typeset (:func:`symgame.export.contract.render_latex`).

        Returns
        -------
        str

        Examples
        --------
        >>> tex = solve("examples/pennies.yaml").to_latex()
        >>> tex.startswith("\\\\documentclass") and "\\\\frac{2}{P + 3}" in tex
        True
        """
        from .export.latex import cheatsheet_tex
        from .export.pipeline import rule_values, verification_sentence

        if self.analysis is None:
            from .export.contract import render_latex

            return render_latex(self.to_data())
        spec = self.analysis.spec
        return cheatsheet_tex(spec.title, spec.source, self.pdl, verification_sentence(self.analysis),
                              rule_values(self.derivation))

    def plot(self, ax: Any = None, window: Mapping[str, tuple[float, float]] | None = None,
             resolution: int = 401) -> Any:
        """Draw the decision list: each action's probability against a single parameter (each rule's stretch
        shaded), or the box of two parameters coloured by rule. The current matplotlib backend is kept (a
        notebook shows the figure inline); nothing is written.

        Parameters
        ----------
        ax, window, resolution
            As for :func:`symgame.export.plots.plot_pdl` (a new figure by default; a window is needed for an
            unbounded parameter).

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn on.

        Raises
        ------
        InputError
            As :func:`~symgame.export.plots.plot_pdl` does.

        Examples
        --------
        >>> sol = solve(normal_form([["a", "0"], ["0", "1"]], parameters={"a": "(0, oo)"}, zero_sum=True))
        >>> ax = sol.plot(window={"a": (0, 4)}, resolution=5)
        >>> [round(float(y), 3) for y in ax.get_lines()[0].get_ydata()]     # Row's first action: 1/(a + 1)
        [1.0, 0.5, 0.333, 0.25, 0.2]
        """
        from .export.plots import plot_pdl

        self._full("plot")
        return plot_pdl(self.pdl, ax=ax, window=window, resolution=resolution, title=self.game.name)

    def check(self, claimed: PDL, timeout_ms: int = 30_000) -> PublishedCheck:
        """Check a claimed PDL (yours, or a paper's) against this game and the derived list.

        Parameters
        ----------
        claimed : PDL
            From :func:`load_pdl`.
        timeout_ms : int
            Budget of each z3 query.

        Returns
        -------
        PublishedCheck

        Raises
        ------
        InputError
            A list for other players, or a result without a decision list.

        Returns the certificate that the claim gives an equilibrium wherever each of its rules fires
        (z3, whole domain), whether it prescribes the same profiles as the derived PDL, and, when it
        is refuted, the first exact counterexample among the rational sample points and the points
        z3 reported.

        Examples
        --------
        >>> game = normal_form([["a", "0"], ["0", "1"]], parameters={"a": "(0, oo)"}, zero_sum=True)
        >>> claim = load_pdl({"rules": [{"play": {"Row": [1, 0], "Col": [1, 0]}}]}, game)
        >>> result = solve(game).check(claim)
        >>> result.certificate.status.value, result.counterexample.point
        ('false', {'a': Fraction(1, 1)})
        """
        from .games.analysis import PublishedCheck, _violation_points
        from .verify.certify import certify_pdl
        from .verify.compare import first_counterexample, pdls_agree

        if [p.name for p in claimed.players] != [p.name for p in self.game.players]:
            raise InputError("claimed PDL: its players are not this game's players")
        certificate = certify_pdl(self.game, claimed, timeout_ms)
        agreement = pdls_agree(self.pdl, claimed, timeout_ms)
        counterexample = None
        if certificate.violations:
            points = [c.point for c in self.crosscheck.checks] + _violation_points(certificate)
            counterexample = first_counterexample(self.game, claimed, points)
        return PublishedCheck(claimed, certificate, agreement, counterexample)

    def write(self, directory: str | Path, pdf: bool = False):
        """Write result.json, summary.md, errata.md, cheatsheet.tex (and the PDF, regions.png) to ``directory``
        (parametric normal form; every other result: :meth:`to_json` and the renderers).

        Parameters
        ----------
        directory : str or Path
        pdf : bool
            Also compile the cheat sheet (needs LaTeX).

        Returns
        -------
        ExportResult

        Raises
        ------
        InputError
            A result without a decision list; an output that cannot be written.

        Examples
        --------
        >>> import tempfile
        >>> sol = solve(normal_form([[1, -1], [-1, 1]], zero_sum=True))
        >>> sorted(p.name for p in sol.write(tempfile.mkdtemp()).files)[:2]
        ['cheatsheet.tex', 'errata.md']
        """
        from .export.pipeline import write_outputs

        return write_outputs(self._full("write"), Path(directory), pdf=pdf)


def load_pdl(source: str | Path | Mapping[str, Any], game: NormalFormGame) -> PDL:
    """Read a claimed parametric decision list for ``game`` from a YAML/JSON file or a mapping.

    The format (rules in order, each with optional ``if`` conditions and the ``play`` of every
    player) is in docs/formats.md, "Claimed decision lists"; names are the game's parameters and
    players. Problems raise :class:`~symgame.errors.InputError` with one line naming the place.
    Check the claim with :meth:`Solution.check`.

    Parameters
    ----------
    source : str, Path or mapping
        A YAML/JSON file, or its content already parsed.
    game : NormalFormGame
        The game whose players and parameters the list names.

    Returns
    -------
    PDL

    Raises
    ------
    InputError
        One line naming the place of the first problem.

    Examples
    --------
    >>> game = normal_form([["a", "0"], ["0", "1"]], parameters={"a": "(0, oo)"}, zero_sum=True)
    >>> claim = load_pdl({"rules": [{"play": {"Row": ["1/2", "1/2"], "Col": ["1/2", "1/2"]}}]}, game)
    >>> print(claim.render_text())
    Always: Row plays {a1: 1/2, a2: 1/2}; Col plays {a1: 1/2, a2: 1/2}
    """
    from .model.pdlfile import load_pdl as load_file
    from .model.pdlfile import pdl_from_data

    if isinstance(source, Mapping):
        return pdl_from_data(source, game, "<pdl>")
    return load_file(source, game)


def solve(game: Any, *, timeout_ms: int = 30_000, sample_points: int = 40, seed: int = 20221,
          source: str | None = None, select: str = "default", timeout: float | None = None, every: bool = False,
          strict: bool = False, workers: int | None = 1, certify: bool = False) -> Solution:
    """Solve any game symgame can read, with the engine that fits it, and answer in one contract.

    ``game`` is a game object or a file path (``.nfg``, ``.efg``, YAML/JSON; see :func:`load`). The engine
    follows from the game (the table is in docs/engines.md; :attr:`Solution.engine` names the one used):

    * a normal form of one or two players: **parametric support enumeration** (every equilibrium branch as
      exact functions of its parameters, a decision list certified on the whole domain by z3, cross-checked at
      rational points); without parameters, with ``every=True`` or past :data:`VERTEX_FIRST` support pairs,
      **vertex enumeration** (every extreme equilibrium and the maximal convex sets);
    * a normal form of three or more players without parameters, or a Gambit tree that is not two-player
      zero-sum: **enumpoly** (every isolated equilibrium and every family, exact), or for a two-player
      general-sum tree one equilibrium by Lemke's algorithm on the sequence form unless ``every``;
    * a two-player zero-sum (constant-sum) Gambit tree: the **sequence-form LP**, made exact, with a
      certified value;
    * a two-player zero-sum YAML tree with at most two parameters: the **parametric sequence-form LP**
      (pieces or regions of the parameters, each certified);
    * a polynomial game, a game of three or more players with a parameter, or a general-sum tree with a
      parameter: the **atlas** (every equilibrium family with exact ranges of the parameter);
    * anything else (the atlas with two parameters, for instance) is refused in one line that says what
      the engines take.

    Parameters
    ----------
    game : NormalFormGame, StrategicGame, PolynomialGame, GambitTree, ExtensiveGame, TreeFile, str or Path
        The game, or the file to read it from.
    timeout_ms : int
        Budget of each exact decision (z3) of the parametric normal-form engine.
    sample_points : int
        Rational points of the parametric normal-form engine's cross-check.
    seed : int
        Seed of those sample points.
    source : str, optional
        Where the game came from, for reports (default: the file, or ``"user game"``).
    select : {"default", "symmetric", "welfare", "all"}
        Which equilibrium each piece singles out where several exist (parametric normal form; see
        :mod:`symgame.engine.selection`). ``"all"`` partitions the domain with every equilibrium per piece.
    timeout : float, optional
        Seconds of wall time (main thread only), after which :class:`~symgame.errors.TimeLimitError`.
    every : bool
        Enumerate every equilibrium where the default engine finds one (trees) or use vertex enumeration
        (normal form without parameters).
    strict : bool
        Refuse ``.efg`` chance probabilities written as rounded decimals instead of reading the fractions
        they stand for.
    workers : int or None
        Processes for the atlas (``None``: every core).
    certify : bool
        enumpoly: prove every answer of msolve afterwards where possible: a support where it found no equilibrium
        by an exact linear certificate first (:func:`symgame.engine.supportlift.no_equilibrium_certificate`),
        the others by membership certificates (:func:`symgame.engine.enumpoly.certify_support`; needs Singular,
        can take far longer than the enumeration); the proved supports are listed as ``certified_supports``.

    Returns
    -------
    Solution
        The result; :meth:`Solution.to_data` is the same contract for every engine.

    Raises
    ------
    InputError
        A file or argument that cannot be used, or a combination no engine takes (one line, naming it).
    NoResultError
        A computation that ran but could not reach a proved result (for instance a cover of the domain not
        proved, a piece that failed its check); :class:`~symgame.errors.TimeLimitError` after ``timeout``.

    Examples
    --------
    >>> sol = solve(normal_form([[1, -1], [-1, 1]], zero_sum=True))     # matching pennies
    >>> sol.evaluate().strategies
    ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2)))

    Hawk–Dove (value V, cost C): by default the list shows a pure equilibrium below V = C; the
    symmetric selection shows the textbook's mixed one, Hawk with probability V/C.

    >>> hawk_dove = normal_form([[["(V - C)/2", "(V - C)/2"], ["V", 0]], [[0, "V"], ["V/2", "V/2"]]],
    ...                         parameters={"V": "(0, oo)", "C": "(0, oo)"}, players=[("Row", ["Hawk", "Dove"]),
    ...                         ("Col", ["Hawk", "Dove"])])
    >>> print(solve(hawk_dove, select="symmetric").pdl.render_text())
    If V >= C: Row plays Hawk; Col plays Hawk
    Else: Row plays {Hawk: V/C, Dove: (C - V)/C}; Col plays {Hawk: V/C, Dove: (C - V)/C}

    Any file goes through the same door; the engine is chosen from the game:

    >>> [solve(f).engine for f in ("examples/pennies.yaml", "examples/kuhn_bet.yaml", "examples/rps_variant.yaml")]
    ['atlas', 'parametric sequence-form LP', 'parametric support enumeration']
    >>> print(solve("examples/pennies.yaml").render_text())
    pennies: 1 equilibrium family (complete; certificate proved)
    If 1 <= P:
        F1: x = 2/(P + 3), y = 2/(P + 3)  (payoffs (P - 1)/(P + 3), -(P - 1)/(P + 3))
    """
    if isinstance(game, (str, os.PathLike)) and not isinstance(game, bytes):
        path = Path(game)
        source = str(path) if source is None else source
        game = _read_game(path, strict, every)
    _positive_int("solve", "timeout_ms", timeout_ms)
    _positive_int("solve", "sample_points", sample_points, zero=True)
    _positive_int("solve", "seed", seed, zero=True)
    if workers is not None:
        _positive_int("solve", "workers", workers)
    source = "user game" if source is None else source
    if not isinstance(source, str):
        raise InputError(f"solve: source must be a string, got {type(source).__name__}")
    if not isinstance(every, bool) or not isinstance(strict, bool):
        raise InputError("solve: every and strict must be True or False")
    from .engine.selection import SELECTIONS

    if select not in SELECTIONS:
        raise InputError(f"solve: select must be one of {', '.join(SELECTIONS)}, got {select!r}")
    from .model.game import NormalFormGame

    with _time_limit(timeout):
        if isinstance(game, NormalFormGame):
            return _solve_normal_form(game, timeout_ms, sample_points, seed, source, select, every)
        return _solve_other(game, source, every, workers, certify)


def _read_game(path: Path, strict: bool, every: bool = False) -> Any:
    """The game in ``path`` as the object whose engine fits it best: a Gambit tree stays a tree (not its
    strategic form), a YAML/JSON tree a :class:`~symgame.model.treefile.TreeFile`, anything else as
    :func:`load` reads it."""
    from .model.gambit import GambitError, load_efg
    from .model.gamefile import GameFileError, read_document

    try:
        if path.suffix.lower() == ".efg":
            return load_efg(path, strict)
        if path.suffix.lower() == ".nfg":
            from .model.gambit import load_nfg, to_normal_form

            strategic = load_nfg(path, _nfg_budget(every))
            return strategic if len(strategic.players) > 2 else to_normal_form(strategic, str(path))
        from .model.nplayer import is_nplayer_data, tree_data
        from .model.treefile import is_tree_data, tree_from_data

        data, where = read_document(path)
        if is_nplayer_data(data) and data.get("parameters"):      # kept as a tree: answers in action terms
            return tree_from_data(tree_data(data, where), where)
        return tree_from_data(data, where) if is_tree_data(data) else _game_from_document(data, where)
    except (GambitError, GameFileError) as exc:
        raise InputError(str(exc)) from None


def _nfg_budget(every: bool):
    """The check of a one- or two-player ``.nfg``'s shape, read from its header before the payoffs: the
    parametric engine's support budget, or (``every``) vertex enumeration's limit of candidate bases."""
    from .engine.enummixed import MAX_BASES, within_vertex_limit
    from .model.gamefile import support_budget_problem

    def check(shape: tuple[int, ...]) -> str | None:
        if len(shape) > 2:
            return None
        rows, cols = shape[0], shape[1] if len(shape) == 2 else 1
        if every:
            return None if within_vertex_limit(rows, cols) else \
                f"a {rows}x{cols} game has more than {MAX_BASES} candidate bases for vertex enumeration (--all)"
        if within_vertex_limit(rows, cols):
            return None                       # a .nfg has no parameters: vertex enumeration takes it (VERTEX_FIRST)
        return support_budget_problem(rows, cols)
    return check


#: Support pairs above which a one- or two-player game without parameters is solved by vertex enumeration
#: (complete, exact, each equilibrium verified) instead of the parametric engine, which is then slower by an order
#: of magnitude or more (a 6x6 game: 6.3 s against 0.3 s; 8x8: past 60 s against 8 s).
VERTEX_FIRST = 1000


def _solve_normal_form(game: NormalFormGame, timeout_ms: int, sample_points: int, seed: int, source: str,
                       select: str, every: bool) -> Solution:
    from .engine.derive import derive_equilibria
    from .engine.enummixed import within_vertex_limit
    from .games.analysis import GameSpec, analyse_derivation
    from .model.gamefile import support_pairs

    rows = len(game.players[0].actions)
    cols = len(game.players[1].actions) if len(game.players) == 2 else 1
    notes = []
    if not every and not game.domain.names and support_pairs(rows, cols) > VERTEX_FIRST \
            and within_vertex_limit(rows, cols):
        every = True
        notes.append(f"no parameters and {support_pairs(rows, cols)} support pairs: solved by vertex enumeration "
                     "(complete) instead of the parametric engine")
    if every:
        if game.domain.names:
            raise InputError("solve: every=True enumerates the vertices of a game without parameters; with "
                             "parameters, select='all' lists every equilibrium branch per piece")
        from .export.contract import from_vertices

        data = equilibria_json(game, all_equilibria(game))
        players = [{"name": p.name, "actions": list(p.actions)} for p in game.players]
        return Solution(record=from_vertices(data, players, [], notes), native=data)
    _check_support_budget(game)
    derivation = derive_equilibria(game, timeout_ms, select)     # CoverageError is a NoResultError
    spec = GameSpec(name=game.name, title=game.name, source=source, build=lambda: game, sample_points=sample_points)
    return Solution(analyse_derivation(spec, derivation, seed))


def _infosets(tree: GambitTree) -> dict[str, list[dict[str, Any]]]:
    """Each player's information sets by name (``P<player>:<number>`` when the file leaves the name empty or
    repeats it; :func:`symgame.model.gambit.infoset_keys`)."""
    from .model.gambit import infoset_keys

    names = infoset_keys(tree)
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in tree.players}
    for key, info in sorted(tree.infosets.items()):
        if key[0] >= 1:
            out[tree.players[key[0] - 1]].append({"name": names[key], "actions": list(info.actions)})
    return out


def _solve_other(game: Any, source: str, every: bool, workers: int | None, certify: bool = False) -> Solution:
    """The engines for everything but the one- and two-player normal form."""
    from .export import contract
    from .model.gambit import GambitTree, StrategicGame
    from .model.polygame import PolynomialGame
    from .model.treefile import TreeFile

    if isinstance(game, StrategicGame):
        from .engine.enumpoly import enumpoly_solve

        found = enumpoly_solve(game, certify=certify)
        return Solution(record=contract.from_strategic(strategic_equilibria_json(game, found)), native=found)
    if isinstance(game, GambitTree):
        infosets = _infosets(game)
        if len(game.players) == 2 and not every and game.constant_sum() is not None:
            try:
                data = tree_value_json(game, source)
            except InputError as exc:
                if game.imperfect_recall() is None:
                    raise
                raise InputError(f"{exc} (every=True, symgame solve --all, solves its strategic form)") from None
            return Solution(record=contract.from_tree_value(data, infosets), native=data)
        data = _tree_equilibria_of(game, source, every or len(game.players) != 2, certify)
        if game.decimal_chance:
            data["chance_from_decimals"] = game.decimal_chance
        return Solution(record=contract.from_tree_equilibria(data, infosets), native=data)
    if isinstance(game, TreeFile):
        from .model.extensive import payoff_total

        if len(game.game.players) == 2 and payoff_total(game.game) is not None and len(game.parameters) <= 2:
            result = tree_solve(game)
            parameters = [{"name": p.name, "domain": p.domain_text} for p in game.parameters]
            total = payoff_total(game.game)
            rows = getattr(result, "pieces", None) or result.regions
            payoffs = [{game.game.players[0]: str(row.value), game.game.players[1]: str(total - row.value)}
                       for row in rows]
            return Solution(record=contract.from_tree_pieces(result.to_data(), parameters, payoffs), native=result)
        from .model.treefile import polynomial_game_from_tree

        tree, game = game, polynomial_game_from_tree(game, source)
    else:
        tree = None
    if isinstance(game, PolynomialGame):
        count = len(game.parameters)
        if count != 1:
            raise InputError(f"solve: {game.name}: the atlas takes games with exactly one parameter ({count} here)"
                             + ("; a game tree without parameters is solved from its .efg file (symgame convert "
                                "writes one)" if count == 0 else
                                "; fix all but one of them (a value in the file) to map the rest"))
        from .export.atlas_outputs import atlas_json
        from .verify.atlascheck import sample_parameters
        from .verify.atlasreport import analyse_atlas

        found = atlas(game, workers=workers)
        analysis = analyse_atlas(found, numeric_values=sample_parameters(found, 4, seed=0))
        data = atlas_json(analysis, source)
        record = contract.from_atlas(data, len(found.unsolved), analysis.all_proved, analysis.numeric_agrees)
        if tree is not None:
            _in_action_terms(record, tree, found)
        return Solution(record=record, native=analysis)
    from .model.extensive import ExtensiveGame

    if isinstance(game, ExtensiveGame):
        raise InputError("solve: a game tree built in Python is solved with symgame.tree_solve (two-player "
                         "zero-sum) or written to a file first")
    raise InputError(f"solve: expected a game or a file path, got {type(game).__name__}")


def _in_action_terms(record: dict[str, Any], tree: Any, found: Any) -> None:
    """Add to each family of an atlas contract its ``behaviour``: the probability of every action at every
    information set of two actions (the tree's variable is that of the first action), exact; a free variable
    stays a name. When every player moves once (a normal form written as a tree) these are the ``strategies``.
    Players get their ``information_sets``. Sets of three or more actions keep their chain variables
    (``variables``, with ``meanings``)."""
    import sympy as sp

    sets = _infoset_actions(tree.game)
    two = {infoset: var for infoset, var in tree.variables.items() if len(sets[infoset][1]) == 2}
    if not two:
        return
    players = list(tree.game.players)
    for entry in record["players"]:
        entry["information_sets"] = [{"name": i, "actions": list(sets[i][1])} for i in tree.variables
                                     if players[sets[i][0]] == entry["name"]]
    for family, entry in zip(found.families, record["equilibria"]):
        values = dict(family.members[0].branch.values)
        behaviour: dict[str, dict[str, dict[str, str]]] = {name: {} for name in players}
        for infoset, var in two.items():
            owner, actions = sets[infoset]
            p = values.get(var, sp.Symbol(var))
            behaviour[players[owner]][infoset] = {actions[0]: str(p), actions[1]: str(sp.factor(sp.together(1 - p)))}
        if all(len(mine) == 1 for mine in behaviour.values()) and len(two) == len(tree.variables):
            entry["strategies"] = {name: next(iter(mine.values())) for name, mine in behaviour.items()}   # one move each
        else:
            entry["behaviour"] = behaviour


def tree_value_json(tree: GambitTree, source: str = "<efg>") -> dict[str, Any]:
    """The certified value and optimal behaviour strategies of a two-player constant-sum Gambit tree with
    perfect recall: the sequence-form LP (HiGHS), made exact (:func:`symgame.verify.best_response.certify_value`).

    Parameters
    ----------
    tree : GambitTree
    source : str
        For messages.

    Returns
    -------
    dict
        ``game``, ``players``, ``value`` (exact, or ``null`` when not certified), ``bounds`` (exact
        best-response bounds), ``certified``, ``strategies`` (behaviour per player and information set),
        ``payoffs`` (per player, when certified) and ``chance_from_decimals`` when chance probabilities were read
        from rounded decimals.

    Raises
    ------
    InputError
        Not two players, not constant-sum, or imperfect recall.

    Examples
    --------
    >>> from symgame.model.gambit import load_efg
    >>> data = tree_value_json(load_efg("tests/data/openspiel/kuhn_poker.efg"))
    >>> data["value"], data["certified"], data["chance_from_decimals"]
    ('-1/18', True, 1)
    """
    from .model.efg import EfgError, zero_sum_tree
    from .model.sequence_form import build_sequence_form
    from .numeric.sequence_lp import solve_sequence_form
    from .verify.best_response import certify_value

    try:
        game = zero_sum_tree(tree, source)
    except EfgError as exc:
        raise InputError(str(exc)) from None
    form = build_sequence_form(game)
    certificate = certify_value(form, solve_sequence_form(form).plans)
    lower, upper = certificate.lower + game.offset, certificate.upper + game.offset
    result: dict[str, Any] = {
        "game": game.name, "players": list(game.players),
        "value": str(lower) if certificate.certified else None,
        "bounds": [str(lower), str(upper)], "certified": certificate.certified,
        "strategies": {name: {infoset: {a: str(p) for a, p in probs.items()} for infoset, probs in beh.items()}
                       for name, beh in zip(game.players, certificate.behaviours)},
    }
    if certificate.certified:
        result["payoffs"] = {game.players[0]: str(lower), game.players[1]: str(2 * game.offset - lower)}
    if game.decimal_chance:
        result["chance_from_decimals"] = game.decimal_chance
    return result


def _time_limit(seconds: Any):
    """:class:`symgame.model.isolated.time_limit` for the API's ``timeout=`` (validated, main thread only),
    inside :class:`symgame.model.isolated.interruptible`: a Ctrl-C (a notebook's interrupt) or the limit stops a
    z3 check that is running, instead of waiting for its own budget."""
    import threading
    from contextlib import ExitStack

    from .model.isolated import interruptible, time_limit

    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
            raise InputError(f"timeout: expected a positive number of seconds, got {seconds!r}")
        if threading.current_thread() is not threading.main_thread():
            raise InputError("timeout: a wall-clock limit works in the main thread only (use timeout_ms there)")
    stack = ExitStack()
    stack.enter_context(interruptible())
    stack.enter_context(time_limit(seconds))
    return stack


def _positive_int(function: str, name: str, value: Any, zero: bool = False) -> None:
    """An :class:`InputError` naming the argument unless ``value`` is an int (not a bool) that is positive (or 0)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < (0 if zero else 1):
        kind = "a non-negative" if zero else "a positive"
        raise InputError(f"{function}: {name} must be {kind} integer, got {value!r}")


def _check_support_budget(game: NormalFormGame) -> None:
    """Refuse, in one line and at once, a game whose support pairs exceed the parametric engine's budget (the same
    budget as game files: :data:`symgame.model.gamefile.MAX_SUPPORT_PAIRS`), whatever the game came from."""
    from .errors import LimitError
    from .model.gamefile import support_budget_problem

    rows = len(game.players[0].actions)
    cols = len(game.players[1].actions) if len(game.players) == 2 else 1
    problem = support_budget_problem(rows, cols)
    if problem is not None:
        from .engine.enummixed import within_vertex_limit

        hint = "; `symgame solve FILE --all` / symgame.all_equilibria enumerate it (no parameters)" \
            if not game.domain.names and within_vertex_limit(rows, cols) else ""
        raise LimitError(problem + hint)


@overload
def all_equilibria(game: NormalFormGame, point: Mapping[str, Any] | None = None, **values: Any) -> EquilibriumSet: ...


@overload
def all_equilibria(game: StrategicGame, point: Mapping[str, Any] | None = None, **values: Any) -> EnumPolyResult: ...


def all_equilibria(game: NormalFormGame | StrategicGame, point: Mapping[str, Any] | None = None,
                   **values: Any) -> EquilibriumSet | EnumPolyResult:
    """Every equilibrium of a finite normal-form game at a point, exact and complete.

    A one- or two-player :class:`~symgame.model.game.NormalFormGame` gives an
    :class:`~symgame.engine.enummixed.EquilibriumSet`: the extreme equilibria and the maximal convex sets they
    span (:mod:`symgame.engine.enummixed`). Parameters are fixed by ``point`` or keywords (a game without
    parameters needs none). A :class:`~symgame.model.gambit.StrategicGame` (a Gambit ``.nfg`` game, any
    number of players) gives an :class:`~symgame.engine.enumpoly.EnumPolyResult`: the isolated equilibria
    with exact algebraic probabilities and the families of positive dimension
    (:mod:`symgame.engine.enumpoly`).

    Parameters
    ----------
    game : NormalFormGame or StrategicGame
    point : mapping, optional
        A value for every parameter (rationals, or text the restricted parser reads); keywords work too.
    **values
        Parameter values as keywords (``t=2``).

    Returns
    -------
    EquilibriumSet or EnumPolyResult

    Raises
    ------
    InputError
        Another kind of game, a point missing a parameter or outside the domain.
    LimitError
        More candidate bases or supports than the documented limits.

    Examples
    --------
    >>> game = normal_form(([["1", "0"], ["0", "t"]], [["1", "0"], ["0", "1"]]), parameters={"t": "(0, oo)"})
    >>> found = all_equilibria(game, t=2)
    >>> [" ".join(map(str, e.row + e.column)) for e in found.equilibria]
    ['1 0 1 0', '1/2 1/2 2/3 1/3', '0 1 0 1']
    >>> found.complete, all(e.verified for e in found.equilibria)
    (True, True)

    Three players, each paid 1 for matching the next one's choice (the third matches the first):

    >>> from symgame.model.gambit import read_nfg
    >>> ring = read_nfg('NFG 1 R "ring" { "1" "2" "3" } { 2 2 2 } 1 1 1 0 1 0 0 0 1 1 0 0 '
    ...                 '1 0 0 0 0 1 0 1 0 1 1 1')
    >>> found = all_equilibria(ring)
    >>> found.complete, len(found.equilibria), found.families
    (True, 3, ())
    >>> [" ".join(str(p) for mix in e.profile for p in mix) for e in found.equilibria]
    ['1 0 1 0 1 0', '0 1 0 1 0 1', '1/2 1/2 1/2 1/2 1/2 1/2']
    """
    from .engine.enummixed import enummixed_solve
    from .engine.enumpoly import enumpoly_solve
    from .model.gambit import StrategicGame
    from .model.game import NormalFormGame

    if not isinstance(game, (StrategicGame, NormalFormGame)):
        raise InputError(f"all_equilibria: expected a normal-form or Gambit strategic game, got "
                         f"{type(game).__name__}")
    if isinstance(game, StrategicGame):
        if point or values:
            raise InputError("point: a Gambit strategic game has no parameters")
        return enumpoly_solve(game)
    chosen = _point(point, values)
    names = set(game.domain.names)
    if set(chosen) != names:
        raise InputError(f"point: give a value for every parameter ({', '.join(sorted(names)) or 'none'})")
    if not game.domain.contains(chosen):
        raise InputError("point: outside the game's parameter domain")
    matrices = game.payoffs_at(chosen)
    if len(game.players) == 1:
        return enummixed_solve(matrices[0], [[0] for _ in matrices[0]])
    return enummixed_solve(matrices[0], matrices[1])


def equilibria_json(game: NormalFormGame, found: EquilibriumSet) -> dict[str, Any]:
    """The JSON contract of ``symgame solve --all``: players, equilibria (profile, payoffs, verified),
    maximal convex sets, and ``complete`` (true: the list is every extreme equilibrium)."""
    players = list(game.players)
    out = []
    for e in found.equilibria:
        strategies = (e.row, e.column)[:len(players)]
        out.append({"profile": {p.name: {a: str(v) for a, v in zip(p.actions, s)} for p, s in zip(players, strategies)},
                    "payoffs": {p.name: str(v) for p, v in zip(players, e.payoffs)}, "verified": e.verified})
    return {"game": game.name, "players": [p.name for p in players], "equilibria": out,
            "components": [{"equilibria": list(c.equilibria)} for c in found.components], "complete": found.complete}


def _behaviour(tree: GambitTree, players: Sequence[str], profile: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """Each player's behaviour strategy (Kuhn's theorem; ``None`` at an information set never reached) by the
    name of the information set (``P<player>:<number>`` when the file leaves it empty or repeats it)."""
    from .model.gambit import behaviour_from_mixed, infoset_keys

    names = infoset_keys(tree)
    out: dict[str, Any] = {}
    for k, (name, mix) in enumerate(zip(players, profile)):
        out[name] = {names[key]:
                     None if probs is None else dict(zip(tree.infosets[key].actions, map(str, probs)))
                     for key, probs in behaviour_from_mixed(tree, k + 1, mix).items()}
    return out


def strategic_equilibria_json(game: StrategicGame, found: EnumPolyResult, tree: GambitTree | None = None
                              ) -> dict[str, Any]:
    """The JSON contract of ``symgame solve`` for games of three or more players (and of ``--all`` for any):
    the isolated equilibria (exact ``profile`` as strings, ``approx`` floats, ``payoffs``, ``verified``, and
    for a tree with perfect recall ``behaviour``), the ``families`` of positive dimension (``support``, their
    ``equations`` and ``inequalities`` in ``p<player>_<strategy>``, an exact ``witness`` or null), the ``undecided`` supports,
    strategies ``removed`` as dominated or ``merged`` as duplicates, and ``complete``; ``msolve_supports`` lists
    the supports whose solution list came from msolve (present only when there are some: the completeness of
    those rests on msolve, see :mod:`symgame.engine.msolve`), and ``certified_supports`` those whose msolve answer
    was proved afterwards (``enumpoly_solve(..., certify=True)``, present only when there are some)."""
    from .model.gambit import unique_names

    players = [name or f"Player {k + 1}" for k, name in enumerate(game.players)]
    strategies = [unique_names(names) for names in game.strategies]
    recall = tree is not None and tree.imperfect_recall() is None

    def profile(e) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "profile": {name: {s: str(p) for s, p in zip(names, mix)}
                        for name, names, mix in zip(players, strategies, e.profile)},
            "approx": {name: {s: float(f"{float(p):.12g}") for s, p in zip(names, mix)}
                       for name, names, mix in zip(players, strategies, e.profile)},
            "payoffs": {name: str(v) for name, v in zip(players, e.payoffs)}, "verified": e.verified}
        if tree is not None and recall:
            entry["behaviour"] = _behaviour(tree, players, e.profile)
        return entry

    def support(s) -> dict[str, list[str]]:
        return {name: [names[a] for a in mine] for name, names, mine in zip(players, strategies, s)}

    return {
        "game": game.title, "players": players, "engine": "enumpoly",
        "method": "support enumeration on polynomial systems, exact (z3 and Groebner bases)",
        "strategies": dict(zip(players, strategies)),
        "equilibria": [profile(e) for e in found.equilibria],
        "families": [{"support": support(f.support), "equations": list(f.equations),
                      "inequalities": list(f.inequalities),
                      "witness": None if f.witness is None else profile(f.witness)} for f in found.families],
        "undecided": [support(s) for s in found.undecided],
        "removed": {name: [names[a] for a in gone] for name, names, gone in zip(players, strategies, found.removed)
                    if gone},
        "merged": {name: [[names[a] for a in group] for group in groups]
                   for name, names, groups in zip(players, strategies, found.merged) if groups},
        "supports": found.supports, "pruned": found.pruned, "complete": found.complete,
        "perfect_recall": None if tree is None else recall,
        **({"msolve_supports": [support(s) for s in found.msolve_supports]} if found.msolve_supports else {}),
        **({"certified_supports": [support(s) for s in found.certified_supports]}
           if found.certified_supports else {}),
    }


def tree_equilibria_json(path: str | Path, every: bool = True, strict: bool = False) -> dict[str, Any]:
    """Every equilibrium of a Gambit game tree (any sum), through its strategic form.

    A tree of one or three or more players gives :func:`strategic_equilibria_json` (support enumeration on
    polynomial systems, :mod:`symgame.engine.enumpoly`); the rest of this text is about two players.

    The extreme equilibria and maximal convex sets of the strategic form (pure strategies: one action per
    information set) are enumerated exactly (:func:`all_equilibria`'s method); each is given as mixed
    strategies over those pure strategies and, when the tree has perfect recall, as behaviour strategies
    (Kuhn's theorem; an information set the strategy never reaches is ``null``). ``complete`` refers to the
    extreme equilibria of the strategic form; distinct ones may give the same behaviour profile.

    When the strategic form is too large to enumerate every vertex, the Lemke–Howson algorithm
    (:mod:`symgame.engine.lemke_howson`, exact pivoting) gives equilibria from each starting label and
    ``complete`` is false. With ``every=False``, or when the strategic form is too large to build at all, a
    two-player tree with perfect recall gets one equilibrium from Lemke's algorithm on its sequence form
    (:mod:`symgame.engine.sequence_lcp`: linear in the size of the tree), given as behaviour strategies.

    Chance probabilities written as floating-point decimals are read as the fractions they stand for unless
    ``strict`` (:func:`symgame.model.gambit.read_efg`); ``chance_from_decimals`` then says how many chance
    information sets were read so.
    """
    from .model.gambit import GambitError, load_efg

    try:
        tree = load_efg(path, strict)
    except GambitError as exc:
        raise InputError(str(exc)) from None
    data = _tree_equilibria_of(tree, path, every)
    if tree.decimal_chance:
        data["chance_from_decimals"] = tree.decimal_chance
    return data


def _tree_equilibria_of(tree, path: str | Path, every: bool, certify: bool = False) -> dict[str, Any]:
    from .engine.enummixed import enummixed_solve
    from .errors import LimitError
    from .model.gambit import GambitLimitError, tree_to_strategic

    two_player_recall = len(tree.players) == 2 and tree.imperfect_recall() is None
    if two_player_recall and not every:
        return sequence_lcp_json(tree)
    try:
        form = tree_to_strategic(tree, source=str(path))
    except GambitLimitError as exc:
        if two_player_recall:
            return sequence_lcp_json(tree)
        if tree.imperfect_recall() is None:
            return behaviour_point_json(tree, path)
        raise InputError(str(exc)) from None
    if len(tree.players) != 2:
        from .engine.enumpoly import enumpoly_solve
        return strategic_equilibria_json(form, enumpoly_solve(form, certify=certify), tree)
    rows, cols = form.shape
    a = [[form.payoff((i, j))[0] for j in range(cols)] for i in range(rows)]
    b = [[form.payoff((i, j))[1] for j in range(cols)] for i in range(rows)]
    method, engine = "strategic form, vertex enumeration", "vertex enumeration"
    try:
        if not every:
            raise LimitError("one equilibrium asked for")
        found = enummixed_solve(a, b)
    except LimitError:
        found = _lemke_howson_set(a, b, rows + cols if every else 1)
        method = "strategic form, Lemke-Howson from " + (f"each of the {rows + cols} labels" if every else "label 0")
        engine = "Lemke-Howson"
    recall = tree.imperfect_recall() is None
    out = []
    for e in found.equilibria:
        entry: dict[str, Any] = {
            "profile": {name: {s: str(v) for s, v in zip(names, mix)}
                        for name, names, mix in zip(tree.players, form.strategies, (e.row, e.column))},
            "payoffs": {name: str(v) for name, v in zip(tree.players, e.payoffs)}, "verified": e.verified}
        if recall:
            entry["behaviour"] = _behaviour(tree, tree.players, (e.row, e.column))
        out.append(entry)
    return {"game": tree.title, "players": list(tree.players), "engine": engine, "method": method,
            "strategies": {name: list(names) for name, names in zip(tree.players, form.strategies)},
            "equilibria": out, "components": [{"equilibria": list(c.equilibria)} for c in found.components],
            "complete": found.complete, "perfect_recall": recall}


def sequence_lcp_json(tree: GambitTree) -> dict[str, Any]:
    """The JSON contract of ``symgame solve`` for one equilibrium of a two-player tree with perfect recall from
    Lemke's algorithm on the sequence form (:func:`symgame.engine.sequence_lcp.sequence_lcp_solve`; past its
    dense limit, floating-point pivoting whose basis is solved exactly,
    :func:`symgame.numeric.sequence_lemke.two_player_tree_equilibrium`): ``behaviour`` (``null`` at information
    sets the player's own moves never reach), ``payoffs``, ``verified`` (exact best responses in the sequence
    form) and ``complete: false``."""
    from .numeric.sequence_lemke import two_player_tree_equilibrium

    eq = two_player_tree_equilibrium(tree)
    players = [name or f"Player {k + 1}" for k, name in enumerate(tree.players)]
    behaviour = {name: {infoset: None if probs is None else {a: str(p) for a, p in probs.items()}
                        for infoset, probs in beh.items()} for name, beh in zip(players, eq.behaviour)}
    return {"game": tree.title, "players": players, "engine": "sequence-form Lemke",
            "method": (f"sequence form, Lemke's algorithm ({eq.pivots} pivots)" if eq.method == "exact integer pivoting"
                       else f"sequence form, {eq.method}"),
            "equilibria": [{"behaviour": behaviour, "payoffs": {name: str(v) for name, v in zip(players, eq.payoffs)},
                            "verified": eq.verified}],
            "complete": False, "perfect_recall": True}


def behaviour_point_json(tree: GambitTree, path: str | Path = "<efg>") -> dict[str, Any]:
    """One exact equilibrium, in behaviour strategies, of a perfect-recall tree whose strategic form is too large
    (three or more players): the tree's behaviour polynomials (:mod:`symgame.model.treefile`), a logit path,
    rounding, and exact regret 0 against every pure behaviour deviation
    (:func:`symgame.verify.rounding.rounded_equilibrium`). ``complete`` is false; a
    :class:`~symgame.errors.NoResultError` when no rounding of the paths' end points is exact.

    Parameters
    ----------
    tree : GambitTree
    path : str or Path
        For messages.

    Returns
    -------
    dict
        The JSON contract of ``symgame solve`` for trees: ``behaviour`` per player and information set,
        ``payoffs``, ``verified``, ``method``, ``complete``.
    """
    from .model.gambit import tree_to_data
    from .model.treefile import polynomial_game_from_tree, tree_from_data
    from .verify.rounding import rounded_equilibrium

    data = tree_to_data(tree)
    shape = tree_from_data(data, str(path))
    game = polynomial_game_from_tree(shape, str(path))
    found = rounded_equilibrium(game)
    if found is None:
        raise NoResultError(f"{path}: no exact equilibrium found by rounding the logit paths' end points "
                            f"({len(game.variables)} behaviour variables)")
    behaviour: dict[str, dict[str, dict[str, str]]] = {name: {} for name in data["players"]}
    meanings = dict(getattr(game, "meanings", ()))
    sets = _infoset_actions(shape.game)
    for infoset, variable in shape.variables.items():
        owner, actions = sets[infoset]
        p = found.profile[variable]
        behaviour[data["players"][owner]][infoset] = {actions[0]: str(p), actions[1]: str(1 - p)}
    method = (f"logit homotopy in behaviour strategies, rounded to denominators up to {found.denominator}; "
              "exact regret 0 against every pure behaviour deviation")
    out: dict[str, Any] = {"game": tree.title, "players": data["players"], "engine": "logit homotopy", "method": method,
                           "equilibria": [{"behaviour": behaviour,
                                           "payoffs": {n: str(v) for n, v in zip(data["players"], found.payoffs)},
                                           "verified": True}],
                           "complete": False, "perfect_recall": True}
    if meanings:
        out["variables"] = {x: meanings[x] for x in meanings}
        out["equilibria"][0]["chains"] = {x: str(found.profile[x]) for x in meanings}
    return out


def _infoset_actions(game) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Each information set of an :class:`~symgame.model.extensive.ExtensiveGame`: its owner and its actions."""
    from .model.extensive import Chance, DecisionNode

    out: dict[str, tuple[int, tuple[str, ...]]] = {}
    stack = [game.root]
    while stack:
        node = stack.pop()
        if isinstance(node, DecisionNode):
            out.setdefault(node.infoset, (node.player, tuple(a for a, _ in node.actions)))
            stack.extend(child for _, child in node.actions)
        elif isinstance(node, Chance):
            stack.extend(child for _, child in node.outcomes)
    return out


def _lemke_howson_set(a, b, labels: int) -> EquilibriumSet:
    """The distinct equilibria Lemke–Howson reaches from the first ``labels`` labels (not complete)."""
    from .engine.enummixed import EquilibriumSet
    from .engine.lemke_howson import lemke_howson_solve

    found: list = []
    for label in range(labels):
        eq = lemke_howson_solve(a, b, label)
        if all((eq.row, eq.column) != (e.row, e.column) for e in found):
            found.append(eq)
    return EquilibriumSet(tuple(found), (), complete=False)


def atlas(game: PolynomialGame | NormalFormGame, *, workers: int | None = 1, budget: int = 3 ** 14,
          timeout: float | None = None, checkpoint: str | Path | None = None, scheduler: str | None = None,
          progress: bool = False):
    """Every equilibrium family of a one-parameter polynomial game, with exact ranges (see ``symgame atlas``).

    A one- or two-player :class:`~symgame.model.game.NormalFormGame` (a parameter interval, polynomial
    payoffs) is taken as a tree of simultaneous moves; a player with three or more actions gets one variable
    per action but the last, ``{player}_{action}``: the probability of that action given that none of the
    earlier ones is played (:mod:`symgame.model.sequential`).

    ``workers=1`` runs serially; ``None`` uses every core. A case space above ``budget`` raises
    :class:`~symgame.errors.LimitError`; ``timeout`` seconds of wall time (main thread only) raise
    :class:`~symgame.errors.TimeLimitError` and end the workers.

    Parameters
    ----------
    game : PolynomialGame or NormalFormGame
        A game with exactly one parameter.
    workers : int or None
        Processes (1: serial; ``None``: every core).
    budget : int
        The largest case space accepted.
    timeout : float, optional
        Seconds of wall time.
    checkpoint : str or Path, optional
        A file that keeps every finished unit of work; the same call resumes from it (it is checked to belong to
        this game, line by line).
    scheduler : str, optional
        The address of a Dask distributed scheduler (``tcp://host:8786``) to run the cases on its workers.
    progress : bool
        Report the stages on standard error.

    Returns
    -------
    Atlas
        The families (:class:`~symgame.engine.atlas.Atlas`); :func:`solve` wraps it in the result contract.

    Raises
    ------
    InputError
        Not a polynomial game, bad arguments, or a case space above ``budget``.
    TimeLimitError
        ``timeout`` passed first.

    Examples
    --------
    >>> pennies = load("examples/pennies.yaml")         # x = y = 2/(P + 3) by hand
    >>> result = atlas(pennies)
    >>> [(f.ident, dict(f.members[0].branch.values)) for f in result.families]
    [('F1', {'y': 2/(P + 3), 'x': 2/(P + 3)})]

    Matching pennies with a third action that is never worth playing (exactly one family, ``quit`` unused):

    >>> game = normal_form([["t", "-1"], ["-1", "1"], ["-3", "-3"]], parameters={"t": "[1, 2]"}, zero_sum=True,
    ...                    players=[("Row", ["heads", "tails", "quit"]), ("Col", ["heads", "tails"])])
    >>> [(f.ident, dict(f.members[0].branch.values)) for f in atlas(game).families]
    [('F1', {'Row_tails': 1, 'Col': 2/(t + 3), 'Row_heads': 2/(t + 3)})]
    """
    from .engine.atlas import CaseSpaceTooLarge, build_atlas
    from .model.game import NormalFormGame
    from .model.polygame import PolynomialGame

    if workers is not None:
        _positive_int("atlas", "workers", workers)
    _positive_int("atlas", "budget", budget)
    if scheduler is not None and not isinstance(scheduler, str):
        raise InputError(f"atlas: scheduler must be an address such as 'tcp://host:8786', got {scheduler!r}")
    if isinstance(game, NormalFormGame):
        from .model.polyfile import normal_form_tree
        from .model.treefile import polynomial_game_from_tree

        game = polynomial_game_from_tree(normal_form_tree(game, game.name), game.name)
    if not isinstance(game, PolynomialGame):
        raise InputError(f"atlas: expected a polynomial game, got {type(game).__name__}")
    if len(game.parameters) != 1:
        raise InputError(f"atlas: {game.name}: the case-splitting engine takes games with exactly one parameter "
                         f"({len(game.parameters)} here)")
    try:
        with _time_limit(timeout), executor(workers, scheduler) as mapper:
            return build_atlas(game, mapper, checkpoint=None if checkpoint is None else Path(checkpoint),
                               budget=budget, progress=progress)
    except CaseSpaceTooLarge as exc:
        raise InputError(f"{exc} (a budget of {exc.needed} admits it: budget={exc.needed}, symgame atlas "
                         f"--budget {exc.needed})") from None
    except InputError:
        raise
    except (ValueError, NotImplementedError) as exc:      # the engine's refusal of a game it cannot split
        raise InputError(f"atlas: {game.name}: {exc}") from None


class _Serial:
    def __enter__(self):
        from .engine.atlas import serial_map

        return serial_map

    def __exit__(self, *exc: Any) -> None:
        return None


def executor(workers: int | None = 1, scheduler: str | None = None) -> Any:
    """The executor of the atlas and Goofspiel's levels, as a context manager that gives a mapper: serial for
    ``workers=1``, a kept process pool otherwise (``None``: every core), or a Dask distributed cluster at
    ``scheduler`` (the extra ``symgame[dask]``).

    Parameters
    ----------
    workers : int or None
    scheduler : str, optional
        A Dask scheduler's address.

    Returns
    -------
    context manager
        Entering it gives ``mapper(function, items)``; leaving it ends the workers.

    Raises
    ------
    MissingDependencyError
        A scheduler without Dask installed.

    Examples
    --------
    >>> with executor(1) as mapper:                  # each item is a tuple of arguments
    ...     list(mapper(pow, [(2, 3), (3, 2)]))
    [8, 9]
    """
    from .engine.atlas import DaskMapper, ProcessMapper
    from .errors import optional_import

    if scheduler:
        optional_import("distributed", "a Dask scheduler", "dask")
        return DaskMapper(scheduler)
    if workers == 1:
        return _Serial()
    return ProcessMapper(workers)


def stability(game: PolynomialGame, *, rates: dict | None = None, scale: object = 1, workers: int | None = 1,
              scheduler: str | None = None):
    """Stability of every equilibrium family of a one-parameter polynomial game under the gradient dynamics
    ``dx/dt = scale * k_x * x (1 - x) * dE_owner/dx`` (Billingham, arXiv:1707.01392, 2017, eq. (23)), with the
    parameter symbolic (see ``symgame stability``).

    Returns a :class:`~symgame.engine.stability.StabilityAnalysis`: for each family, ranges of the parameter
    with exact endpoints, each ``asymptotically stable``, ``unstable`` or ``centre`` (with the dimension of the
    oscillatory part), and whether that is proved.

    Parameters
    ----------
    game : PolynomialGame
    rates : dict, optional
        The rate ``k_x`` of each variable (default 1).
    scale : rational
        A common factor of the rates.
    workers : int or None
        Processes for the atlas.
    scheduler : str, optional
        A Dask scheduler's address for the atlas.

    Returns
    -------
    StabilityAnalysis

    Raises
    ------
    InputError
        As :func:`atlas`, or rates that are not positive.

    Examples
    --------
    >>> result = stability(load("examples/pennies.yaml"))
    >>> [(r.stability, r.oscillatory_dimensions, r.proved) for r in result.families[0].ranges]
    [('centre', 2, True)]
    """
    from .engine.stability import stability_analysis

    return stability_analysis(atlas(game, workers=workers, scheduler=scheduler), rates, scale)


def dynamics(game: PolynomialGame, start: "dict[str, float] | None" = None, *, at: object = None,
             until: float = 2000.0, rates: dict | None = None, scale: float = 1.0):
    """The trajectory of the gradient dynamics from ``start`` (default 1/2 for every variable) up to
    ``t = until``, classified: periodic, quasi-periodic, chaotic, chaotic transient, absorbed at the boundary or
    rest point (see ``symgame dynamics``). Floats: this is a numeric integration (scipy's DOP853).

    Returns a :class:`~symgame.numeric.dynamics.LongRun` (kind, Lyapunov exponent, profit rates, final point).

    Parameters
    ----------
    game : PolynomialGame
    start : dict, optional
        The starting value of each variable (default 1/2).
    at : rational, optional
        The parameter's value (games with a parameter).
    until : float
        The end of the integration.
    rates : dict, optional
        The rate of each variable.
    scale : float
        A common factor of the rates.

    Returns
    -------
    LongRun

    Raises
    ------
    InputError
        Not a polynomial game, or values the integration cannot use.

    Examples
    --------
    >>> run = dynamics(load("examples/pennies.yaml"), {"x": 0.8}, at=1, until=300)
    >>> run.kind
    'periodic'
    """
    from .model.polygame import PolynomialGame
    from .numeric.dynamics import classify, compile_dynamics

    if not isinstance(game, PolynomialGame):
        raise InputError(f"dynamics: expected a polynomial game, got {type(game).__name__}")
    dyn = compile_dynamics(game, float(Fraction(str(at))) if at is not None else None, rates, scale)
    x0 = [float((start or {}).get(x, 0.5)) for x in game.variables]
    return classify(dyn, x0, until=until, window=min(1000.0, until / 2))


def replicator_dynamics(game: NormalFormGame | StrategicGame, start: Sequence[Sequence[Any]] | None = None, *,
                        at: Any = None, until: float = 500.0, single_population: bool = False):
    """The replicator dynamics of a normal-form game (one population per player, or one population playing a
    symmetric game against itself) from ``start`` (default uniform) up to ``t = until``, classified: periodic,
    quasi-periodic, converging, or absorbed at a face. Floats: a numeric integration (scipy's DOP853).

    Parameters
    ----------
    game : NormalFormGame or StrategicGame
    start : sequence of sequences, optional
        One positive distribution per population (each summing to 1).
    at : rational, optional
        The value of the game's parameter (a game with one parameter).
    until : float
        The end of the integration.
    single_population : bool
        One population (a symmetric two-player game).

    Returns
    -------
    ReplicatorRun

    Raises
    ------
    InputError
        Another kind of game, a missing or extra parameter value, a start that is not a distribution, a
        single population for a game that is not symmetric.

    Examples
    --------
    >>> pd = normal_form(([[3, 0], [5, 1]], [[3, 5], [0, 1]]), players=[("Ann", ["cooperate", "defect"]),
    ...                                                            ("Bob", ["cooperate", "defect"])])
    >>> run = replicator_dynamics(pd, until=200)           # the prisoner's dilemma: cooperation dies out
    >>> run.kind, run.extinct
    ('absorbed at a face', ((0,), (0,)))
    """
    from .model.gambit import StrategicGame, from_normal_form
    from .model.game import NormalFormGame
    from .numeric.replicator import replicator

    if isinstance(game, NormalFormGame):
        names = game.domain.names
        if len(names) > 1:
            raise InputError("replicator dynamics of a game with several parameters: fix them in the file")
        if names:
            if at is None:
                raise InputError(f"the game has a parameter: give its value (at=..., --at {names[0]}=VALUE)")
            point = _point({names[0]: at}, {})
            if not game.domain.contains(point):
                raise InputError(f"{names[0]} = {point[names[0]]} is outside the game's domain")
            matrices = game.payoffs_at(point)
            shell = StrategicGame(game.name, tuple(p.name for p in game.players),
                                  tuple(p.actions for p in game.players), ())
            game = StrategicGame(shell.title, shell.players, shell.strategies, tuple(
                tuple(m[prof[0]][prof[1] if len(prof) > 1 else 0] for m in matrices) for prof in shell.profiles()))
        else:
            game = from_normal_form(game)
    if not isinstance(game, StrategicGame):
        raise InputError(f"replicator_dynamics: expected a normal-form game, got {type(game).__name__}")
    if isinstance(until, bool) or not isinstance(until, (int, float)) or not 0 < until <= 10 ** 6:
        raise InputError(f"until: expected a time in (0, 10^6], got {until!r}")
    return replicator(game, start, until=until, single_population=single_population)


def tree_solve(source: "str | Path | Any"):
    """The value and optimal behaviour strategies of a two-player zero-sum game tree as exact functions of
    its parameter: with one parameter (or none), pieces with exact breakpoints, each certified on its whole
    interval, and checked at a rational point inside each piece by exact best responses and an independent
    LP; with two parameters, regions of the plane in decision-list order with a proved cover
    (:func:`symgame.engine.parametric_regions.parametric_regions_solve`, a
    :class:`~symgame.engine.parametric_regions.ParametricRegions`), checked against an independent LP.

    ``source`` is a YAML/JSON tree file (see docs/formats.md, "Game trees with parameters") or a
    :class:`~symgame.model.treefile.TreeFile`. Returns a
    :class:`~symgame.engine.parametric_lp.ParametricTreeSolution` whose ``checks`` hold the point checks.

    Parameters
    ----------
    source : str, Path or TreeFile
        A YAML/JSON tree file, or a tree already read.

    Returns
    -------
    ParametricTreeSolution or ParametricRegions

    Raises
    ------
    InputError
        A file that cannot be read, not two players, not constant-sum, or more than two parameters.
    NoResultError
        A piece or region that fails its independent check.

    Examples
    --------
    >>> result = tree_solve("examples/kuhn_bet.yaml")
    >>> [(str(p.lower), str(p.upper), str(p.value)) for p in result.pieces]
    [('1/4', '1', '-b**2/(6*(b + 2))'), ('1', '2', 'b*(b - 2)/(6*(b + 2))'), ('2', '4', '0')]
    >>> all(check.passed for check in result.checks)
    True
    >>> print(tree_solve("examples/kuhn_ante_bet.yaml").render_text().splitlines()[1])
    if b >= a and 2*a >= b: value -b*(2*a - b)/(6*(2*a + b))
    """
    from .engine.parametric_lp import parametric_tree_solve
    from .model.gamefile import GameFileError
    from .model.treefile import TreeFile, load_tree_file
    from .verify.treecheck import check_pieces

    try:
        tree = source if isinstance(source, TreeFile) else load_tree_file(source)
    except GameFileError as exc:
        raise InputError(str(exc)) from None
    if len(tree.parameters) == 2:
        from .engine.parametric_regions import parametric_regions_solve

        regions = parametric_regions_solve(tree)
        if not all(c["passed"] for c in regions.checks):
            failed = next(c for c in regions.checks if not c["passed"])
            raise NoResultError(f"{tree.game.name}: region {failed['region']} failed its LP check at {failed['at']}")
        return regions
    result = parametric_tree_solve(tree)
    result.checks = check_pieces(result)
    if not all(c.passed for c in result.checks):
        bad = next(c for c in result.checks if not c.passed)
        raise NoResultError(f"{tree.game.name}: piece {bad.piece} failed its check at {bad.point}")
    return result
