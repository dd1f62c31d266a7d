"""symgame.export.isolated: every part in its own process; crashes retried, then reported."""
import faulthandler
import os
import signal
from pathlib import Path

import pytest

from symgame.model.isolated import run_isolated


def _die(signum):
    faulthandler.disable()          # pytest's traceback dump of the dying child is noise here
    os.kill(os.getpid(), signum)


def test_results_come_back_whole_and_once_each():
    big = list(range(200_000))                          # far more than a pipe's buffer
    outcomes = list(run_isolated(lambda n: big[:n], [0, 5, 200_000], workers=2))
    assert sorted(len(o.value) for o in outcomes) == [0, 5, 200_000]
    assert all(o.ok and o.attempts == 1 and o.error is None for o in outcomes)


def test_an_exception_is_reported_at_once_without_retry(tmp_path):
    def fail(x):
        (tmp_path / f"ran_{len(list(tmp_path.iterdir()))}").write_text("")
        raise ValueError(f"bad part {x}")

    [outcome] = run_isolated(fail, [7], retries=2)
    assert outcome.error == "ValueError: bad part 7" and not outcome.crashed and outcome.attempts == 1
    assert len(list(tmp_path.iterdir())) == 1


@pytest.mark.parametrize("signum, name", [(signal.SIGSEGV, "SIGSEGV"), (signal.SIGKILL, "SIGKILL")])
def test_a_process_killed_every_time_is_reported_with_its_signal(signum, name):
    [outcome] = run_isolated(lambda x: _die(signum), [1], retries=1)
    assert outcome.crashed and outcome.value is None and outcome.attempts == 2
    assert outcome.error == f"process ended by {name} (2 attempts)"
    assert outcome.crashes == (f"process ended by {name}",)


def test_a_crash_is_retried_and_the_retry_counts(tmp_path):
    def once(x):
        marker = tmp_path / str(x)
        if not marker.exists():
            marker.write_text("")
            _die(signal.SIGSEGV)
        return x + 1

    outcomes = sorted(run_isolated(once, [1, 2, 3], workers=2, retries=1), key=lambda o: o.item)
    assert [(o.value, o.attempts, o.crashes) for o in outcomes] == \
        [(k + 1, 2, ("process ended by SIGSEGV",)) for k in (1, 2, 3)]


def test_equal_items_keep_their_own_attempts(tmp_path):
    """The same value twice: two parts, each retried on its own."""
    def once_each(x):
        marker = tmp_path / str(len(list(tmp_path.iterdir())))
        marker.write_text("")
        if marker.name in ("0", "2"):         # each first attempt (one worker: A, A again, B, B again)
            _die(signal.SIGSEGV)
        return x

    outcomes = list(run_isolated(once_each, [5, 5], workers=1, retries=1))
    assert [(o.value, o.attempts, len(o.crashes)) for o in outcomes] == [(5, 2, 1), (5, 2, 1)]


def test_an_exit_without_result_is_a_crash():
    [outcome] = run_isolated(lambda x: os._exit(3), [0], retries=0)
    assert outcome.crashed and outcome.error == "process ended with exit code 3 and no result (1 attempts)"


def test_a_part_past_its_time_is_stopped_and_the_others_finish():
    import time

    def nap(seconds):
        time.sleep(seconds)
        return seconds

    start = time.perf_counter()
    outcomes = {o.item: o for o in run_isolated(nap, [60, 0.1, 0.2], workers=2, timeout=1.5)}
    assert time.perf_counter() - start < 30
    assert outcomes[60].error == "timed out after 1.5 s" and not outcomes[60].crashed
    assert outcomes[0.1].value == 0.1 and outcomes[0.2].value == 0.2


def test_a_deadline_ends_a_call_that_holds_the_interpreter_and_its_descendants(tmp_path):
    """time_limit alone waits for a native call that never lets Python's signal handler run (sum over a huge
    range runs in C); the watching parent kills the command and the process it started, on time."""
    import subprocess
    import time

    from symgame.model.isolated import run_with_deadline, time_limit

    marker = tmp_path / "grandchild"

    def hog() -> int:
        child = subprocess.Popen(["sleep", "120"])
        marker.write_text(str(child.pid))
        with time_limit(0.2):
            sum(range(10 ** 12))                  # minutes in C, holding the interpreter
        return 0

    start = time.monotonic()
    assert run_with_deadline(hog, 1.0) is None
    assert time.monotonic() - start < 5
    grandchild = int(marker.read_text())
    time.sleep(0.2)
    stat = Path(f"/proc/{grandchild}/stat")
    if stat.exists():                             # killed, waiting for init to collect it
        text = stat.read_text()
        assert text[text.rfind(")") + 2] in "ZX", text


def test_a_deadline_passes_the_status_and_the_signal_of_the_command():
    from symgame.model.isolated import run_with_deadline

    assert run_with_deadline(lambda: 3, 30) == 3
    assert run_with_deadline(lambda: os.kill(os.getpid(), signal.SIGTERM) or 0, 30) == 128 + signal.SIGTERM
    assert run_with_deadline(lambda: 1 // 0, 30) == 1


# --------------------------------------------------------------------------- Ctrl-C reaches Python

_CTRL_C_DURING_Z3 = """
import os, signal, threading, time
from symgame.model.isolated import interruptible
from symgame.model.z3env import z3
x, y = z3.Ints("x y")
solver = z3.Solver()
solver.add(x * y == 1000000007 * 998244353 * 1000003, x > 2000000, y > 2000000000000, x < y, x % 2 == 1)
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
started = time.monotonic()
try:
    with interruptible():
        answer = solver.check()
    print("returned", answer, solver.reason_unknown())
except KeyboardInterrupt:
    print("interrupted after", round(time.monotonic() - started))
"""


def test_ctrl_c_during_a_z3_check_is_an_interrupt_not_an_unknown():
    """z3's own SIGINT handler would cancel the check and return unknown ("interrupted from keyboard"), which
    went on as an undecided certificate: a Ctrl-C printed a report with a family "not proved" (exit 3)."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", _CTRL_C_DURING_Z3], capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == "interrupted after 0" or run.stdout.strip() == "interrupted after 1", run


_CTRL_C_IN_A_FINALIZER = """
import os, signal, threading, time
from symgame.model.isolated import interruptible

class Slow:
    def __del__(self):
        until = time.monotonic() + 1.0
        while time.monotonic() < until:
            pass

where = "never"
try:
    with interruptible():
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
        Slow()                       # freed at once: its __del__ runs while the signal arrives
        where = "after the finalizer"
        for _ in range(500):
            time.sleep(0.01)
        where = "not interrupted"
except KeyboardInterrupt:
    print("KeyboardInterrupt", where)
try:
    with interruptible():
        try:
            threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT)).start()
            time.sleep(5)
        except KeyboardInterrupt:
            print("handled inside")
    print("not raised again")
except KeyboardInterrupt:
    print("raised again")
"""


def test_ctrl_c_lost_in_a_finalizer_is_delivered_again():
    """Raised inside ``__del__`` (z3 frees its objects there) a KeyboardInterrupt is printed as "Exception
    ignored" and lost; the block's handler delivers it again outside the finalizer. One handled inside the
    block is not raised a second time."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", _CTRL_C_IN_A_FINALIZER], capture_output=True, text=True,
                         timeout=60)
    assert run.stdout.splitlines() == ["KeyboardInterrupt after the finalizer", "handled inside",
                                       "not raised again"], run
    assert "Exception ignored" not in run.stderr, run.stderr


_API_CTRL_C = """
import os, signal, sys, threading, time
import symgame
import symgame.engine.derive as derive
from symgame.model.z3env import z3

def long_check(*args, **kwargs):
    x, y = z3.Ints("x y")
    solver = z3.Solver()
    solver.add(x * y == 1000000007 * 998244353 * 1000003, x > 2000000, y > 2000000000000, x < y, x % 2 == 1)
    return solver.check()

derive.derive_equilibria = long_check
game = symgame.normal_form([[[1, 0], [0, 1]], [[0, 1], [1, 0]]])
started = time.monotonic()
try:
    if sys.argv[1] == "interrupt":
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        symgame.solve(game)
    else:
        symgame.solve(game, timeout=0.5)
except KeyboardInterrupt:
    print("KeyboardInterrupt", time.monotonic() - started < 5)
except symgame.errors.TimeLimitError:
    print("TimeLimitError", time.monotonic() - started < 5)
"""


@pytest.mark.parametrize("how, expected", [("interrupt", "KeyboardInterrupt True"), ("limit", "TimeLimitError True")])
def test_the_api_stops_a_running_z3_check_on_ctrl_c_and_at_its_time_limit(how, expected):
    """In a notebook, the interrupt and ``solve(..., timeout=)`` stop a z3 check at once (z3's own Ctrl-C
    handler is off, so without the API's interruptible block the check would run to its end)."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", _API_CTRL_C, how], capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == expected, run


def test_a_process_tree_that_keeps_forking_is_killed_whole():
    """The deadline's kill freezes the tree before it kills it: a process that forks a child every millisecond
    (as a pool starting its workers) leaves no descendant alive (each would keep the command's pipes open)."""
    import subprocess
    import sys
    import time

    from symgame.model.isolated import _kill_tree

    marker = f"symgame-fork-test-{os.getpid()}"
    script = ("import os, sys, time\n"
              "end = time.monotonic() + 20\n"
              "while time.monotonic() < end:\n"
              "    if os.fork() == 0:\n"
              "        time.sleep(30); os._exit(0)\n"
              "    time.sleep(0.001)\n")
    parent = subprocess.Popen([sys.executable, "-c", script, marker])
    try:
        time.sleep(0.5)
        _kill_tree(parent.pid)
        parent.wait(timeout=10)
        time.sleep(0.3)
        alive = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
        states = [Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] for pid in alive
                  if Path(f"/proc/{pid}/stat").exists()]
        assert [s for s in states if s != "Z"] == [], states
    finally:
        subprocess.run(["pkill", "-9", "-f", marker])
