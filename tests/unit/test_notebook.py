"""At home in a notebook: short reprs, Markdown displays with escaped names, plots that leave the backend alone."""
import subprocess
import sys

import symgame


def test_reprs_are_short_and_say_what_the_object_is():
    game = symgame.load("examples/rps_variant.yaml")
    solution = symgame.solve(game)
    poly = symgame.load("examples/pennies.yaml")
    atlas = symgame.atlas(poly)
    shown = {
        "game": repr(game), "solution": repr(solution), "pdl": repr(solution.pdl), "poly": repr(poly),
        "atlas": repr(atlas),
    }
    assert shown == {
        "game": "NormalFormGame('rock-paper-variant', 3x3, players=('Row', 'Col'), parameters=('t',), zero_sum=True)",
        "solution": "Solution('rock-paper-variant', rules=1, branches=4, certificate='proved', parameters=('t',))",
        "pdl": "PDL(rules=1, players=('Row', 'Col'), parameters=('t',))",
        "poly": "PolynomialGame('pennies', players=('1', '2'), variables=2, parameters=('P',))",
        "atlas": "Atlas('pennies', families=1, parameter='P', complete=True)",
    }


def test_markdown_displays_carry_the_results_and_escape_names():
    game = symgame.normal_form([["t", 0], [0, 1]], parameters={"t": "[1, 3]"}, zero_sum=True,
                               players=[("<b>Ann</b>", ["up|top", "down"]), ("Bob", ["l", "r"])], name="demo")
    solution = symgame.solve(game)
    text = solution._repr_markdown_()
    assert text.startswith("**demo**: ") and "proved on the whole domain" in text
    assert "1. Always: \\<b\\>Ann\\</b\\> plays {up\\|top: 1/(t + 1), down: t/(t + 1)}" in text
    table = game._repr_markdown_()
    assert "| \\<b\\>Ann\\</b\\> \\ Bob | l | r |" in table and "| up\\|top | t | 0 |" in table
    atlas = symgame.atlas(symgame.load("examples/pennies.yaml"))._repr_markdown_()
    assert "| F1 | `y = 2/(P + 3)` | 1 <= P |" in atlas


def _printed(script: str) -> str:
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_writing_plots_keeps_the_backend_a_notebook_chose():
    assert _printed(
        "import matplotlib; matplotlib.use('svg'); import matplotlib.pyplot as plt\n"
        "import symgame, tempfile, pathlib\n"
        "game = symgame.normal_form([['p', 'q'], ['1', '0']], parameters={'p': '[0, 1]', 'q': '[0, 1]'},"
        " zero_sum=True)\n"
        "symgame.solve(game).write(tempfile.mkdtemp())\n"
        "print(matplotlib.get_backend())\n") == "svg"


def test_version_option():
    done = subprocess.run([sys.executable, "-m", "symgame", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == f"symgame {symgame.__version__}"


def test_the_default_text_says_what_the_list_does_not_show():
    """Stag hunt: the list shows Hare/Hare; the text says that two more equilibria exist and how to list
    them. The rock-paper variant: three more branches where t <= 0 (the exact count of --select all)."""
    stag = symgame.normal_form(([[4, 0], [3, 3]], [[4, 3], [0, 3]]),
                               players=[("Ann", ["Stag", "Hare"]), ("Bob", ["Stag", "Hare"])])
    text = symgame.solve(stag).render_text()
    assert text.splitlines()[0] == "Always: Ann plays Stag; Bob plays Stag"
    assert "(3 equilibria; the one shown is the default choice" in text and "--select all" in text
    every = symgame.solve(stag, select="all").render_all()
    assert every.startswith("Always: 3 equilibria")
    rps = symgame.solve(symgame.load("examples/rps_variant.yaml"))
    assert "(3 more equilibrium branches hold where -t >= 0;" in rps.render_text()
    assert "If t <= 0: 4 equilibria" in symgame.solve(symgame.load("examples/rps_variant.yaml"),
                                                      select="all").render_all()
    pennies = symgame.normal_form([[1, -1], [-1, 1]], zero_sum=True)
    assert symgame.solve(pennies).render_text() == symgame.solve(pennies).pdl.render_text()


def test_a_condition_is_stated_once():
    from symgame.export.documents import unique_conditions

    rule = {"when": ["2*p1 - 1 == 0", "p2 >= 0", "2*p1 - 1 == 0"], "profile": {},
            "machine": {"when": [{"e": 1}, {"e": 2}, {"e": 1}], "profile": {}}}
    out = unique_conditions(rule)
    assert out["when"] == ["2*p1 - 1 == 0", "p2 >= 0"] and out["machine"]["when"] == [{"e": 1}, {"e": 2}]
    sweep = (symgame.__path__[0] + "/../outputs/jeopardy/sweep/sweep.json")
    import json

    for pair in json.load(open(sweep))["pairs"]:
        for r in pair.get("pdl", []):
            assert len(set(r["when"])) == len(r["when"]), (pair.get("scores"), r["when"])


# --------------------------------------------------------------------------- Solution.plot

def test_plot_draws_the_exact_probabilities_of_a_one_parameter_list():
    from fractions import Fraction

    solution = symgame.solve(symgame.load("examples/rps_variant.yaml"))
    ax = solution.plot(resolution=13)
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert sorted(lines) == sorted(f"{p}: {a}" for p in ("Row", "Col") for a in ("rock", "paper", "scissors"))
    xs = lines["Row: paper"].get_xdata()
    assert float(xs[0]) == 0.0 and float(xs[-1]) == 3.0
    for k in (1, 6, 11):
        exact = solution.evaluate(t=Fraction(xs[k]).limit_denominator(1000)).strategies
        assert abs(float(lines["Row: paper"].get_ydata()[k]) - float(exact[0][1])) < 1e-12
        assert abs(float(lines["Col: scissors"].get_ydata()[k]) - float(exact[1][2])) < 1e-12
    assert ax.get_title() == "rock-paper-variant"


def test_plot_colours_a_two_parameter_box_by_the_exact_rule():
    from fractions import Fraction

    game = symgame.normal_form([["p", "1 - q"], ["1 - p", "q"]], parameters={"p": "[0, 1]", "q": "[0, 1]"},
                               name="box")
    solution = symgame.solve(game)
    assert len(solution.pdl.rules) > 1
    ax = solution.plot(resolution=21)
    image = ax.get_images()[0].get_array()
    for i, j in ((3, 5), (10, 10), (17, 2), (5, 18)):   # points of the grid (j/20, i/20), none on a boundary here
        rule = solution.pdl.evaluate({"p": Fraction(j, 20), "q": Fraction(i, 20)}).rule_index
        assert int(image[i, j]) == rule, (i, j)


def test_plot_refuses_what_it_cannot_draw_in_one_line():
    import pytest

    flat = symgame.solve(symgame.normal_form([[1, 0], [0, 1]], zero_sum=True))
    with pytest.raises(symgame.InputError, match="1 or 2 parameters"):
        flat.plot()
    open_ended = symgame.solve(symgame.normal_form([["a", "0"], ["0", "1"]], parameters={"a": "(0, oo)"},
                                                   zero_sum=True))
    with pytest.raises(symgame.InputError, match="unbounded; give window"):
        open_ended.plot()
    with pytest.raises(symgame.InputError, match="not inside the domain"):
        open_ended.plot(window={"a": (-1, 2)})
    with pytest.raises(symgame.InputError, match="not a parameter"):
        open_ended.plot(window={"b": (1, 2)})


def test_plotting_keeps_a_backend_chosen_before_pyplot_is_imported():
    assert _printed(
        "import matplotlib; matplotlib.use('svg')\n"
        "import symgame\n"
        "game = symgame.normal_form([['t', '0'], ['0', '1']], parameters={'t': '[1, 2]'}, zero_sum=True)\n"
        "ax = symgame.solve(game).plot(resolution=5)\n"
        "print(matplotlib.get_backend(), type(ax).__name__)\n") == "svg Axes"
