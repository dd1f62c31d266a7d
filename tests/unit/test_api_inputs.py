"""The API refuses what it cannot read exactly: one InputError (a SymgameError) naming the argument, never another
exception type, never a silent coercion, never an answer outside the game's domain."""
from fractions import Fraction

import pytest

import symgame
from symgame.errors import InputError, LimitError, SymgameError

PENNIES = symgame.normal_form([[1, -1], [-1, 1]], zero_sum=True)


@pytest.mark.parametrize("call, message", [
    (lambda: symgame.normal_form([[10 ** 5000, 0], [0, 1]], zero_sum=True), "beyond symgame's limit"),
    (lambda: symgame.normal_form([[Fraction(1, 10 ** 600), 0], [0, 1]], zero_sum=True), "beyond symgame's limit"),
    (lambda: symgame.solve(PENNIES, timeout_ms="fast"), "timeout_ms must be a positive integer"),
    (lambda: symgame.solve(PENNIES, timeout_ms=True), "timeout_ms must be a positive integer"),
    (lambda: symgame.solve(PENNIES, sample_points=-1), "sample_points"),
    (lambda: symgame.solve(None), "expected a game or a file path"),
    (lambda: symgame.all_equilibria(None), "expected a normal-form or Gambit strategic game"),
    (lambda: symgame.load(None), "expected a file path"),
    (lambda: symgame.load(3), "expected a file path"),
    (lambda: symgame.atlas(PENNIES, workers=0), "workers must be a positive integer"),
    (lambda: symgame.atlas(PENNIES, budget="big"), "budget must be a positive integer"),
    (lambda: symgame.normal_form({"a": 3, "b": 5}), "expected a matrix"),
    (lambda: symgame.normal_form("35"), "expected a matrix"),
    (lambda: symgame.normal_form([[1, -1], [-1, 1]], zero_sum=True, players="AB"), "give a list of players"),
    (lambda: symgame.normal_form([[1, -1], [-1, 1]], zero_sum=True, players={"A": 1, "B": 2}),
     "give a list of players"),
])
def test_bad_arguments_are_one_input_error(call, message):
    with pytest.raises(InputError, match=message) as caught:
        call()
    assert isinstance(caught.value, SymgameError) and "\n" not in str(caught.value)


@pytest.mark.parametrize("value, exact", [(0.00001, Fraction(1, 100000)), (1e-05, Fraction(1, 100000)),
                                          (0.1, Fraction(1, 10)), (2.5e3, Fraction(2500)),
                                          (1.5e-30, Fraction(15, 10 ** 31))])
def test_floats_are_read_as_the_decimal_they_print_as_in_every_spelling(value, exact):
    game = symgame.normal_form([[value, 0], [0, 1]], zero_sum=True)
    assert game.payoffs_at({})[0][0][0] == exact


def test_evaluate_refuses_points_outside_the_domain_and_on_open_ends():
    game = symgame.normal_form([["t", 0], [0, 1]], zero_sum=True, parameters={"t": "(0, 3]"})
    solution = symgame.solve(game)
    assert solution.evaluate(t=1).strategies == ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2)))
    for value in (-1, 0, Fraction(7, 2)):
        with pytest.raises(InputError, match="outside the game's domain"):
            solution.evaluate(t=value)


def test_a_game_beyond_the_support_budget_is_refused_at_once():
    from symgame.model.gambit import read_nfg, to_normal_form

    payoffs = " ".join(f"{(i * j) % 5} {-((i * j) % 5)}" for j in range(13) for i in range(13))
    big = to_normal_form(read_nfg(f'NFG 1 R "big" {{ "1" "2" }} {{ 13 13 }} {payoffs}'))
    with pytest.raises(LimitError, match="13x13 game has 10400599 support pairs"):
        symgame.solve(big)


@pytest.mark.parametrize("flags, message", [((), "about 10^412 support pairs"),
                                             (("--all",), "more than 2000000 candidate bases")])
def test_a_large_nfg_is_refused_from_its_header_before_its_payoffs_are_read(tmp_path, capsys, flags, message):
    """A 1000x500 .nfg (a million payoffs): one line and exit 2 in well under a second, for the parametric engine
    and for vertex enumeration; reading the payoffs alone took 4.8 s."""
    import time

    from symgame.cli import main

    path = tmp_path / "big.nfg"
    path.write_text('NFG 1 R "big" { "A" "B" } { 1000 500 }\n' + "1 -1 " * 500_000 + "\n")
    start = time.perf_counter()
    assert main(["solve", str(path), *flags]) == 2
    assert time.perf_counter() - start < 1.0
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("suffix", [".nfg", ".efg", ".yaml"])
def test_device_files_are_read_with_a_cap(tmp_path, suffix, capsys):
    from symgame.cli import main

    link = tmp_path / f"game{suffix}"
    link.symlink_to("/dev/zero")
    assert main(["solve", str(link)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "larger than" in err


# --------------------------------------------------------------------------- outputs the command line cannot write

def _symgame(*args, **kwargs):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "symgame", *args], capture_output=True, text=True, **kwargs)


def test_output_folders_that_cannot_be_written_are_one_line(tmp_path, capsys):
    from symgame.cli import main

    blocker = tmp_path / "afile"
    blocker.write_text("x")
    for out in (blocker, blocker / "below"):                   # in this process: the command line is main()
        status = main(["derive", "two_by_two", "--out", str(out), "--no-pdf"])
        err = capsys.readouterr().err
        assert status == 4 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
        assert "Not a directory" in err
    assert blocker.read_text() == "x"


def test_a_full_disk_and_closed_streams_are_one_line():
    import subprocess
    import sys

    example = "examples/rps_variant.yaml"
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "symgame", "solve", example], stdout=full, stderr=subprocess.PIPE,
                              text=True)
    assert done.returncode == 4 and "No space left on device" in done.stderr and "Traceback" not in done.stderr
    closed = subprocess.run(f"{sys.executable} -m symgame solve {example} >&-", shell=True, capture_output=True,
                            text=True)
    assert closed.returncode == 4 and "standard output is closed" in closed.stderr
    for command in ("derivations play goofspiel", "derivations play guts", "symgame solve -"):
        closed = subprocess.run(f"{sys.executable} -m {command} <&-", shell=True, capture_output=True, text=True)
        assert closed.returncode == 2 and "standard input is closed" in closed.stderr, closed.stderr
        assert len(closed.stderr.strip().splitlines()) == 1


def test_timeout_stops_a_long_solve_with_exit_3_and_one_line(tmp_path):
    payoffs = " ".join(str((7 * k) % 5 - 2) for k in range(6 * 64))
    game = tmp_path / "six.nfg"
    game.write_text('NFG 1 R "six" { "1" "2" "3" "4" "5" "6" } { 2 2 2 2 2 2 }\n' + payoffs + "\n")
    done = _symgame("solve", str(game), "--timeout", "2", timeout=60)
    assert done.returncode == 3 and "no result within the time limit of 2 s" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""
    quick = _symgame("solve", "examples/rps_variant.yaml", "--timeout", "60")
    assert quick.returncode == 0 and quick.stdout.startswith("Always:")
    assert _symgame("solve", "examples/rps_variant.yaml", "--timeout", "-1").returncode == 2


@pytest.mark.parametrize("command, line", [
    (("goofspiel", "--cards", "9"), "symgame goofspiel: no result within the time limit of 1 s"),
    (("stability", "examples/billingham.yaml"), "symgame stability: examples/billingham.yaml: no result"),
])
def test_every_long_command_takes_a_timeout(command, line):
    import time

    start = time.monotonic()
    done = _symgame(*command, "--timeout", "1", timeout=60)
    assert done.returncode == 3 and done.stderr.strip() == done.stderr.strip().splitlines()[0]
    assert line in done.stderr and time.monotonic() - start < 15


def test_timeout_in_the_api_raises_a_time_limit_error():
    from symgame.errors import TimeLimitError

    with pytest.raises(InputError, match="positive number of seconds"):
        symgame.solve(PENNIES, timeout="1s")
    assert symgame.solve(PENNIES, timeout=60).certified
    big = symgame.normal_form([[f"t*{(i * j) % 4}" for j in range(9)] for i in range(9)],
                              parameters={"t": "(0, 1)"}, zero_sum=True)
    with pytest.raises(TimeLimitError, match="no result within the time limit of 0.5 s"):
        symgame.solve(big, timeout=0.5)


def test_names_reach_markdown_escaped_and_latex_escaped():
    """A name that is Markdown or HTML (a link to javascript:, a script tag, a table bar) is written as text."""
    game = symgame.normal_form([["t", 0], [0, 1]], parameters={"t": "[0, 3]"}, zero_sum=True,
                               players=[("<script>", ["[x](javascript:alert(1))", "b|c"]), ("*Col*", ["l", "r"])],
                               name="hostile", description="<img src=x onerror=alert(1)>")
    text = symgame.solve(game).to_markdown()
    for raw in ("<script>", "[x](javascript:", "b|c", "*Col*", "<img src=x onerror=alert(1)>"):
        assert raw not in text, raw
    for escaped in ("\\<script\\>", "\\[x\\](javascript:alert(1))", "b\\|c", "\\*Col\\*", "\\<img src=x"):
        assert escaped in text, escaped
    latex = symgame.solve(game).to_latex()
    assert "\\textless{}" in latex or "\\textless" in latex


def test_markdown_text_round_trips_through_commonmark_escapes():
    """Removing the backslashes gives the name back, and no Markdown-active character is left unescaped."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from symgame.model.markup import MARKDOWN_ACTIVE as _MARKDOWN_ACTIVE
    from symgame.model.markup import markdown_text

    @settings(derandomize=True, max_examples=300, deadline=None)
    @given(st.text(alphabet=st.characters(codec="ascii", categories=("L", "N", "P", "S", "Zs"))))
    def check(name):
        out = markdown_text(name)
        plain, k = [], 0
        while k < len(out):
            if out[k] == "\\":
                assert out[k + 1] in _MARKDOWN_ACTIVE
                plain.append(out[k + 1])
                k += 2
            else:
                assert out[k] not in _MARKDOWN_ACTIVE
                plain.append(out[k])
                k += 1
        assert "".join(plain) == name

    check()


def test_output_option_writes_what_standard_output_would_show(tmp_path, capsys):
    """``-o FILE`` holds exactly the bytes of standard output; a link is refused in one line; a failing
    command writes nothing."""
    from pathlib import Path

    from symgame.cli import main

    example = str(Path(__file__).resolve().parents[2] / "examples" / "battle_weight.yaml")
    assert main(["solve", example, "--json"]) == 0
    shown = capsys.readouterr().out
    target = tmp_path / "out" / "result.json"
    assert main(["solve", example, "--json", "-o", str(target)]) == 0
    assert capsys.readouterr().out == "" and target.read_text() == shown
    precious = tmp_path / "precious.txt"
    precious.write_text("keep\n")
    (tmp_path / "link.json").symlink_to(precious)
    assert main(["solve", example, "-o", str(tmp_path / "link.json")]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "symbolic link" in err and precious.read_text() == "keep\n"
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: x\nplayers: 3\n")
    assert main(["solve", str(bad), "-o", str(tmp_path / "never.txt")]) == 2
    assert not (tmp_path / "never.txt").exists()
