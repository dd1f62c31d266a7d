"""Parts of a long study, each in its own child process: a part that kills its process is retried, then reported.

A native library can end a process with no Python exception at all (a segmentation fault inside z3 when a
solver is freed after an earlier call damaged its heap; see the closing notes of issue 17). In a
:class:`multiprocessing.Pool` such a part never returns and the whole run waits forever; in the main process
it takes the study down with it. :func:`run_isolated` runs every part in a fresh forked process, reads its
result through a pipe, and treats a pipe closed without a result as a crash of that part alone: the part is
run again (the parts are deterministic, the crashes are not), at most ``retries`` more times, and then
reported with the signal that ended it. A Python exception in a part is reported at once (it would only
happen again).

Examples
--------
>>> def square(x):
...     return x * x
>>> sorted(o.value for o in run_isolated(square, [1, 2, 3]))
[1, 4, 9]
>>> [o.error for o in run_isolated(lambda x: 1 // x, [0])]
['ZeroDivisionError: integer division or modulo by zero']
"""
from __future__ import annotations

import faulthandler
import multiprocessing as mp
import signal
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterable, Iterator

__all__ = ["Outcome", "end_pool", "end_processes", "ignore_interrupts", "interruptible", "run_isolated", "run_with_deadline",
           "time_limit"]


class interruptible:
    """Let Ctrl-C stop a long native call in the main thread (a z3 check runs in C, where Python's own handler
    waits until the call returns, up to its whole budget).

    Inside the block, SIGINT and SIGALRM also write to a pipe (``signal.set_wakeup_fd``); a helper thread reading
    it asks z3 to interrupt its running checks (``Context.interrupt``, which z3 makes safe from another thread;
    z3's calls release the GIL). The check then returns ``unknown`` and Python's handler raises as usual
    (``KeyboardInterrupt``, or the :class:`time_limit` error).

    Python's own handler raises ``KeyboardInterrupt`` wherever the main thread is, and inside an object's
    ``__del__`` (z3 frees its solvers and terms there, all the time) the exception is printed as "Exception
    ignored" and lost: the interrupted check's ``unknown`` would then go on as a result. Inside the block SIGINT
    has its own handler, which raises only outside finalizers and otherwise delivers the interrupt again a moment
    later; a ``KeyboardInterrupt`` lost all the same (an unraisable exception) is delivered again too, and one
    that never surfaced is raised when the block ends.

    Some of z3's nonlinear procedures do not look at the interrupt for a long time. A command-line run
    (``exits`` given: signal number -> (exit status, message)) that has not left the block ``grace`` seconds
    after the signal is ended there: the message on stderr, every child process terminated, and the process
    exits with the status at once. Everything symgame keeps is written atomically (checkpoints line by line,
    synced), so nothing finished is lost. The library's API never passes ``exits``.
    """

    def __init__(self, exits: dict[int, tuple[int, str]] | None = None, grace: float = 3.0) -> None:
        self._pipe: tuple[int, int] | None = None
        self._previous = -1
        self.interrupted = False
        self.exits = exits or {}
        self.grace = grace
        self._left = False
        self._raised = False
        self._previous_handler: Any = signal.default_int_handler
        self._previous_hook: Any = None

    def _force_exit(self, signum: int) -> None:
        import os
        import sys

        time.sleep(self.grace)
        if self._left:
            return
        status, message = self.exits[signum]
        try:
            print(message, file=sys.stderr, flush=True)
        except Exception:  # noqa: BLE001 - the exit matters more than the message
            pass
        end_processes(mp.active_children(), 2)  # reaped here: none outlives the command as a zombie or a worker
        os._exit(status)

    def _on_interrupt(self, signum: int, frame: Any) -> None:
        self.interrupted = True
        self._raised = False
        walk = frame
        while walk is not None:
            if walk.f_code.co_name == "__del__":    # raised here it would be printed and lost
                self._redeliver()
                return
            walk = walk.f_back
        self._raised = True
        raise KeyboardInterrupt

    def _redeliver(self) -> None:
        import _thread
        import threading

        def later() -> None:
            time.sleep(0.002)
            if not self._left:
                _thread.interrupt_main(signal.SIGINT)

        threading.Thread(target=later, daemon=True, name="symgame-interrupt-again").start()

    def _on_unraisable(self, info: Any) -> None:
        if self._pipe is not None and isinstance(info.exc_value, KeyboardInterrupt):
            self.interrupted = True
            self._raised = False
            self._redeliver()
            return
        self._previous_hook(info)

    def _watch(self, read_end: int) -> None:
        import os
        import sys

        while True:
            try:
                data = os.read(read_end, 64)
            except OSError:
                data = b""
            if not data:
                try:
                    os.close(read_end)
                except OSError:
                    pass
                return
            if any(b in (signal.SIGINT, signal.SIGALRM) for b in data):
                self.interrupted = self.interrupted or signal.SIGINT in data
                z3 = sys.modules.get("z3")
                if z3 is not None:
                    try:
                        z3.main_ctx().interrupt()
                    except Exception:  # noqa: BLE001 - an interrupt that cannot be delivered is not an error
                        pass
                for signum in (signal.SIGINT, signal.SIGALRM):
                    if signum in data and signum in self.exits:
                        import threading

                        threading.Thread(target=self._force_exit, args=(signum,), daemon=True).start()

    def __enter__(self) -> "interruptible":
        import os
        import sys
        import threading

        if threading.current_thread() is not threading.main_thread():
            return self
        read_end, write_end = os.pipe()
        os.set_blocking(write_end, False)
        try:
            self._previous = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
        except ValueError:
            os.close(read_end)
            os.close(write_end)
            return self
        self._pipe = (read_end, write_end)
        self._previous_handler = signal.signal(signal.SIGINT, self._on_interrupt)
        self._previous_hook = sys.unraisablehook
        sys.unraisablehook = self._on_unraisable
        threading.Thread(target=self._watch, args=(read_end,), daemon=True, name="symgame-interrupt").start()
        return self

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        import os
        import sys

        self._left = True
        if self._pipe is None:
            return
        signal.set_wakeup_fd(self._previous)
        signal.signal(signal.SIGINT, self._previous_handler)
        sys.unraisablehook = self._previous_hook
        read_end, write_end = self._pipe
        os.close(write_end)            # the helper thread's read returns empty and it ends
        self._pipe = None
        if self.interrupted and (kind is not None and not issubclass(kind, (KeyboardInterrupt, SystemExit))
                                 or kind is None and not self._raised):
            # Ctrl-C surfaced wrapped (ctypes, z3 "canceled"), or never surfaced at all: it stays Ctrl-C
            raise KeyboardInterrupt from None


class time_limit:
    """Stop the computation inside the ``with`` block after ``seconds`` of wall time with a
    :class:`~symgame.errors.TimeLimitError` (main thread, POSIX; ``None`` or 0: no limit).

    The limit only stops a run, it never changes what a finished run writes. Worker pools started inside the
    block are ended by their own handlers when the error propagates.

    Examples
    --------
    >>> import time
    >>> with time_limit(None):
    ...     time.sleep(0)
    >>> try:
    ...     with time_limit(0.05):
    ...         time.sleep(1)
    ... except Exception as exc:
    ...     print(type(exc).__name__)
    TimeLimitError
    """

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self._previous: Any = None
        self.fired = False

    def _error(self) -> Exception:
        from ..errors import TimeLimitError

        return TimeLimitError(f"no result within the time limit of {self.seconds:g} s")

    def _expired(self, signum: int, frame: Any) -> None:
        self.fired = True
        raise self._error()

    def __enter__(self) -> "time_limit":
        if self.seconds:
            self._previous = signal.signal(signal.SIGALRM, self._expired)
            signal.setitimer(signal.ITIMER_REAL, float(self.seconds))
        return self

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        if self.seconds:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)
        from ..errors import TimeLimitError

        if self.fired and (kind is None or not issubclass(kind, TimeLimitError)):
            # raised inside a native call's argument conversion (ctypes wraps it), as z3's "canceled", or
            # swallowed by a fallback: the time limit, whatever became of the exception; a result computed
            # after it is not returned
            raise self._error() from None


def ignore_interrupts() -> None:
    """Initializer of pool workers: Ctrl-C goes to the parent, which ends the workers itself (:func:`end_pool`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def end_pool(pool: Any) -> None:
    """Cancel what a ``ProcessPoolExecutor`` has queued and end every worker process now (on an interrupt or an
    error in the parent: waiting for the pool's workers is what made Ctrl-C hang)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    end_processes(processes, 5)


def end_processes(processes: Iterable[Any], wait: float) -> None:
    """Terminate every live process of ``processes``, then reap each: a process still alive ``wait`` seconds
    after ``SIGTERM`` is killed and reaped too."""
    processes = list(processes)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=wait)
        if process.is_alive():
            process.kill()
            process.join(timeout=wait)


@dataclass(frozen=True)
class Outcome:
    """What became of one part.

    Attributes
    ----------
    item : object
        The part's input, as given.
    value : object or None
        Its result (``None`` when it failed).
    error : str or None
        Why it failed: the exception's type and text, or the signal or exit code that ended its process on
        its last attempt; ``None`` when it succeeded.
    seconds : float
        Wall time of the last attempt.
    attempts : int
        How many processes ran it (more than one only after crashes).
    crashes : tuple of str
        How each earlier attempt ended (empty when the first attempt gave the outcome).
    """

    item: Any
    value: Any
    error: str | None
    seconds: float
    attempts: int
    crashes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def crashed(self) -> bool:
        """The part's last process ended without a result (a signal or an exit), not with an exception."""
        return self.error is not None and self.error.startswith("process ended")


def _child(fn: Callable[[Any], Any], item: Any, conn: Connection) -> None:
    faulthandler.enable()       # a native crash leaves the Python stack on stderr
    start = time.perf_counter()
    try:
        message: tuple[str, Any, float] = ("ok", fn(item), 0.0)
    except Exception as exc:  # noqa: BLE001 - the part's failure is its result
        message = ("error", f"{type(exc).__name__}: {exc}", 0.0)
    message = (message[0], message[1], time.perf_counter() - start)
    try:
        conn.send(message)
    except Exception as exc:  # noqa: BLE001 - an unpicklable result is reported, not lost silently
        conn.send(("error", f"result not transferable: {type(exc).__name__}: {exc}", message[2]))
    conn.close()


def _ended(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"process ended by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"process ended by signal {-exitcode}"
    return f"process ended with exit code {exitcode} and no result"


def run_isolated(fn: Callable[[Any], Any], items: Iterable[Any], workers: int = 2,
                 retries: int = 2, timeout: float | None = None) -> Iterator[Outcome]:
    """Run ``fn`` on every item, each in its own forked process, at most ``workers`` at a time.

    Parameters
    ----------
    fn : callable
        One argument, a picklable result; inherited by the child through ``fork`` (a lambda or a
        monkeypatched function works).
    items : iterable
        The parts' inputs, started in this order.
    workers : int
        Processes running at once.
    retries : int
        Further attempts for a part whose process ended without a result.
    timeout : float, optional
        Wall-clock seconds a part may run; its process is then stopped and the part reported as timed out
        (not retried).

    Yields
    ------
    Outcome
        One per item, in the order they finish (callers that need an order sort them).
    """
    context = mp.get_context("fork")
    pending: deque[tuple[int, Any, int]] = deque((k, item, 1) for k, item in enumerate(items))
    running: dict[Connection, tuple[Any, int, Any, int, float]] = {}
    crashes: dict[int, list[str]] = {}      # item's position -> how its earlier attempts ended
    try:
        while pending or running:
            while pending and len(running) < max(1, workers):
                k, item, attempt = pending.popleft()
                reader, writer = context.Pipe(duplex=False)
                process = context.Process(target=_child, args=(fn, item, writer), daemon=True)
                process.start()
                writer.close()      # only the child holds the writing end: its death closes the pipe
                running[reader] = (process, k, item, attempt, time.perf_counter())
            left = None if timeout is None else \
                max(0.0, min(entry[4] + timeout for entry in running.values()) - time.perf_counter())
            for reader, (process, k, item, attempt, start) in list(running.items()):
                if timeout is not None and time.perf_counter() - start >= timeout and not reader.poll():
                    del running[reader]
                    process.terminate()
                    process.join()
                    reader.close()
                    yield Outcome(item, None, f"timed out after {timeout:g} s", timeout, attempt,
                                  tuple(crashes.pop(k, ())))
            for ready in wait(list(running), left):
                assert isinstance(ready, Connection)
                reader = ready
                process, k, item, attempt, start = running.pop(reader)
                try:
                    kind, payload, seconds = reader.recv()
                except EOFError:
                    kind, payload, seconds = "crash", None, time.perf_counter() - start
                reader.close()
                process.join()
                if kind == "crash" and attempt <= retries:
                    crashes.setdefault(k, []).append(_ended(process.exitcode))
                    pending.appendleft((k, item, attempt + 1))
                    continue
                earlier = tuple(crashes.pop(k, ()))
                if kind == "ok":
                    yield Outcome(item, payload, None, seconds, attempt, earlier)
                elif kind == "error":
                    yield Outcome(item, None, payload, seconds, attempt, earlier)
                else:
                    yield Outcome(item, None, f"{_ended(process.exitcode)} ({attempt} attempts)", seconds, attempt,
                                  earlier)
    finally:
        for process, *_ in running.values():
            process.terminate()
            process.join()


def run_with_deadline(run: Callable[[], int], seconds: float, grace: float = 3.0) -> int | None:
    """Run ``run()`` (a command that returns its exit status) in a forked child while this process only waits,
    and end the child and every process it started when it is still running ``seconds`` later.

    :class:`time_limit` works inside the process, so a native call that holds the interpreter (a long FLINT or
    sympy core routine, not only z3) delays it until the call returns -- measured: ``--timeout 300`` on a
    six-player ``.nfg`` ended after 399 s. The waiting parent holds nothing and is never late.

    Parameters
    ----------
    run : callable
        Called in the child; its return value is the child's exit status. The child's output goes to the same
        standard streams (flushed before the fork and at the child's end).
    seconds : float
        Wall time after which the child and its descendants are killed (``SIGKILL``).
    grace : float
        After Ctrl-C in the parent, how long the child may take to end by itself (its own handler reports
        the interrupt) before it is killed and 130 returned.

    Returns
    -------
    int or None
        The child's exit status (128 + the signal number when a signal ended it), or ``None`` when the
        deadline ended it.

    Examples
    --------
    >>> run_with_deadline(lambda: 7, 10)
    7
    >>> run_with_deadline(lambda: time.sleep(30) or 0, 0.2) is None
    True
    """
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    pid = os.fork()
    if pid == 0:                                    # the child: run the command, never return into the caller
        status = 1
        try:
            status = run()
        except BaseException:  # noqa: BLE001 - the child must reach os._exit whatever happens
            import traceback

            traceback.print_exc()
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(status if isinstance(status, int) else 1)
    deadline = time.monotonic() + seconds
    interrupted: float | None = None
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                code = os.waitstatus_to_exitcode(status)
                return 128 - code if code < 0 else code
            now = time.monotonic()
            if now >= deadline or (interrupted is not None and now >= interrupted + grace):
                _kill_tree(pid)
                os.waitpid(pid, 0)
                return None if interrupted is None else 130
            time.sleep(0.02)
        except KeyboardInterrupt:
            if interrupted is None:
                interrupted = time.monotonic()
                try:
                    os.kill(pid, signal.SIGINT)     # a signal sent to this process alone reaches the command too
                except ProcessLookupError:
                    pass


def _kill_tree(pid: int) -> None:
    """``SIGKILL`` to ``pid`` and to every process descending from it (Linux: read from ``/proc``; elsewhere
    the process alone).

    The tree is frozen first: every process found is stopped (``SIGSTOP``) and ``/proc`` is read again until no
    new descendant appears, so a process pool that is starting its workers while the limit expires cannot fork
    one that escapes (a worker left alive keeps the command's output pipes open: a caller reading them waits
    forever). Then every stopped process is killed."""
    import os

    stopped: list[int] = []
    seen: set[int] = set()
    while True:
        found = [member for member in _descendants(pid) if member not in seen]
        if not found:
            break
        for member in found:
            seen.add(member)
            try:
                os.kill(member, signal.SIGSTOP)
                stopped.append(member)
            except (ProcessLookupError, PermissionError):
                pass
    for member in stopped:
        try:
            os.kill(member, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process whose parent chain leads to it, from ``/proc`` (``[pid]`` where there is none)."""
    from pathlib import Path

    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = entry.read_text()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(entry.parent.name))
    tree, frontier = [pid], [pid]
    while frontier:
        found = children.get(frontier.pop(), [])
        tree += found
        frontier += found
    return tree
