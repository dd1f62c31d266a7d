"""z3's second opinions on the plane CAD's answers, checked in a helper process while the derivation goes on.

:func:`symgame.model.decide.satisfiable` decides one- and two-parameter questions with the plane CAD and asks
z3 for a second opinion within :data:`~symgame.model.decide.SECOND_OPINION_MS` (a cross-check: a disagreement
is an error, never a choice). In the Final Jeopardy near ties those checks were about 40 % of the time, and a
third of it was spent on checks that z3 gave up on (a 100 ms budget cost about 135 ms). Inside
:func:`background`, the check is handed to a helper process (``python -m symgame.model._z3_helper``) and the CAD's
answer is returned at once: the CAD and z3 run on two cores at the same time. Nothing about the answers
changes: the answer is the CAD's in both modes, and every second opinion is still asked and compared; only the
moment a disagreement is raised moves, from the call that made it to a later decision or to the end of the
outermost ``with background():`` block, which waits for every pending check (a block always ends with its
checks settled, so a result returned from inside one has had all of them).

The helper also isolates z3's crashes: a segmentation fault in z3 (issue 17's notes; it depends on the timing
of z3's timeout thread) ends the helper, not the derivation; the check it was running counts as given up
(``stats["z3_crashed"]``) and a new helper takes the rest. A check that outlives its budget by
:data:`STALL_S` seconds is treated the same way (the helper is killed): z3's nonlinear procedures do not always
look at their timeout. Whether z3 answered in time depends on the machine's load; the outputs do not, as the
answer is always the CAD's.

Examples
--------
>>> from symgame.model.decide import Z3Context, satisfiable
>>> from symgame.model.parameters import parse_domain
>>> from symgame.model.region import Domain
>>> ctx = Z3Context(Domain((parse_domain("p", "[0, 1]"),)))
>>> p = ctx.vars["p"]
>>> with background():
...     answer = satisfiable(ctx, [p * p == 2])
>>> answer.satisfiable.value, ctx.stats["z3_agreed"]
('false', 1)
"""
from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

#: Seconds past its budget after which a check's helper is killed and the check counted as given up.
STALL_S = 20.0
#: Helpers started by one process before the remaining checks are counted as given up without asking.
MAX_RESTARTS = 20
#: Checks waiting for the helper before :meth:`SecondOpinions.submit` waits for it to catch up.
MAX_QUEUE = 5_000
#: ``select`` waits on pipes only on POSIX systems; elsewhere every second opinion is asked in the process.
PIPES_SELECTABLE = os.name == "posix"


@dataclass
class _Check:
    number: int
    text: str               # SMT-LIB 2 of domain and formulas
    timeout_ms: int
    tactic: str
    verdict: str            # the CAD's: "sat" or "unsat"
    stats: dict[str, int]
    describe: Any           # () -> str, the formula for an error message
    started: float = field(default=0.0)


class SecondOpinions:
    """A helper process that runs z3 checks one at a time while the caller goes on.

    Not for direct use: :func:`background` makes one per process and :func:`symgame.model.decide.satisfiable`
    submits to it. A conflict is raised as :class:`~symgame.model.decide.DecisionConflict` from :meth:`poll`
    or :meth:`settle`.
    """

    def __init__(self) -> None:
        self.owner = os.getpid()
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._flight: _Check | None = None
        self._queue: deque[_Check] = deque()
        self._numbers = 0
        self.restarts = 0

    # ---- the helper ----------------------------------------------------------------------------
    def _start(self) -> bool:
        if self.restarts >= MAX_RESTARTS:
            return False
        self.restarts += 1
        # the helper imports symgame from where this process found it, installed or not
        root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
        try:
            self._process = subprocess.Popen([sys.executable, "-m", "symgame.model._z3_helper"],
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.DEVNULL, env=env)
        except OSError:
            self.restarts = MAX_RESTARTS
            return False
        self._buffer = b""
        return True

    def _end(self, kill: bool) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if kill:
                process.kill()
            else:
                assert process.stdin is not None
                process.stdin.write(b"quit\n")
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None and not stream.closed:
                    stream.close()
            except OSError:   # unsent bytes to a helper that is gone
                pass

    def close(self) -> None:
        """End the helper (pending checks are dropped: call :meth:`settle` first)."""
        self._queue.clear()
        self._flight = None
        self._end(kill=False)

    # ---- checks --------------------------------------------------------------------------------
    def submit(self, text: str, timeout_ms: int, tactic: str, verdict: str, stats: dict[str, int],
               describe: Any) -> None:
        """Queue one check of the CAD's ``verdict`` ("sat"/"unsat") on the SMT-LIB problem ``text`` (z3's
        ``tactic`` within ``timeout_ms``)."""
        self._numbers += 1
        self._queue.append(_Check(self._numbers, text, timeout_ms, tactic, verdict, stats, describe))
        self.poll()
        while len(self._queue) > MAX_QUEUE:
            self._step(block=True)

    def pending(self) -> int:
        """Checks not yet answered."""
        return len(self._queue) + (self._flight is not None)

    def poll(self) -> None:
        """Collect the answers that have arrived and send the next check; never waits."""
        while self._step(block=False):
            pass

    def settle(self) -> None:
        """Wait for every pending check (raises on a disagreement)."""
        while self.pending():
            self._step(block=True)

    def _send(self) -> None:
        while self._flight is None and self._queue:
            if self._process is None and not self._start():
                while self._queue:   # out of restarts: the rest count as given up
                    self._queue.popleft().stats["z3_gave_up"] += 1
                return
            check = self._queue.popleft()
            data = check.text.encode()
            assert self._process is not None and self._process.stdin is not None
            try:
                header = b"%d %d %d %s\n" % (check.number, check.timeout_ms, len(data), check.tactic.encode())
                self._process.stdin.write(header + data)
                self._process.stdin.flush()
            except OSError:   # the helper is gone: count this check as lost and start another
                check.stats["z3_crashed"] += 1
                self._end(kill=True)
                continue
            check.started = time.monotonic()
            self._flight = check

    def _step(self, block: bool) -> bool:
        """Handle at most one answer; ``True`` if something happened."""
        self._send()
        check = self._flight
        if check is None:
            return False
        assert self._process is not None and self._process.stdout is not None
        fd = self._process.stdout.fileno()
        while b"\n" not in self._buffer:
            limit = check.started + check.timeout_ms / 1000 + STALL_S
            wait = max(0.0, limit - time.monotonic()) if block else 0.0
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                if block or time.monotonic() > limit:
                    self._lost(check, "z3_gave_up")
                    return True
                return False
            chunk = os.read(fd, 65536)
            if not chunk:   # the helper died (z3 crashed): the check is lost, the rest go to a new helper
                self._lost(check, "z3_crashed")
                return True
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        number, answer = line.split()
        assert int(number) == check.number, "the helper answered another check"
        self._flight = None
        self._judge(check, answer.decode())
        self._send()
        return True

    def _lost(self, check: _Check, reason: str) -> None:
        check.stats[reason] += 1
        self._flight = None
        self._end(kill=True)
        self._send()

    @staticmethod
    def _judge(check: _Check, answer: str) -> None:
        if answer not in ("sat", "unsat"):
            check.stats["z3_gave_up"] += 1
            return
        if answer != check.verdict:
            from .decide import DecisionConflict

            said = {"sat": "true", "unsat": "false"}
            raise DecisionConflict(f"the plane CAD says {said[check.verdict]} and z3 says {said[answer]} "
                                   f"for {check.describe()}")
        check.stats["z3_agreed"] += 1


_STATE: dict[str, Any] = {"depth": 0, "helper": None, "inline": False}


def active() -> SecondOpinions | None:
    """The current process's helper when inside :func:`background`, else ``None``."""
    helper = _STATE["helper"]
    if _STATE["depth"] == 0 or helper is None or helper.owner != os.getpid() or _STATE["inline"] or not PIPES_SELECTABLE:
        return None
    return helper


@contextmanager
def inline() -> Iterator[None]:
    """Ask every second opinion in the calling process inside the block, as before the helper (for benchmarks).

    Examples
    --------
    >>> with inline(), background():
    ...     active() is None
    True
    """
    previous = _STATE["inline"]
    _STATE["inline"] = True
    try:
        yield
    finally:
        _STATE["inline"] = previous


@contextmanager
def background() -> Iterator[SecondOpinions]:
    """Give the plane CAD's second opinions to a helper process inside the block (reentrant).

    The outermost block waits for every pending check when it ends (so a disagreement is raised before its
    results are used) and ends the helper. In a process forked inside a block, the block starts a helper of its
    own (the parent's is never shared).

    Yields
    ------
    SecondOpinions
        The helper (its :meth:`~SecondOpinions.pending` count, :meth:`~SecondOpinions.settle`).

    Raises
    ------
    DecisionConflict
        When the CAD and z3 disagree on a check of the block.
    """
    helper = _STATE["helper"]
    outer = _STATE["depth"] == 0 or helper is None or helper.owner != os.getpid()
    if outer:
        saved = (_STATE["depth"], helper)
        helper = SecondOpinions()
        _STATE["depth"], _STATE["helper"] = 0, helper
    _STATE["depth"] += 1
    ok = False
    try:
        yield helper
        ok = True
    finally:
        _STATE["depth"] -= 1
        if outer:
            try:
                if ok:
                    helper.settle()
            finally:
                helper.close()
                _STATE["depth"], _STATE["helper"] = saved
