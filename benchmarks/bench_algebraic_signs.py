"""Signs of algebraic numbers: FLINT's ball arithmetic against exact interval bisection, in one process.

Run: PYTHONPATH=. python3 benchmarks/bench_algebraic_signs.py [--limit SECONDS]

Two workloads of the Jacob game II (Buck et al., arXiv:2208.02788, Appendix C.3), each solved with
:data:`symgame.engine.algebraic.BALL_PRECISIONS` as shipped and with it emptied (every sign by bisection over the
rationals, the method before): (C.5), all 343 support profiles (small number fields), and the totally mixed
support of (C.6) through msolve (27 real points in a field of degree 53 with coefficients of ~900 bits). The
bisection run of the second is stopped after ``--limit`` seconds (default 300).
"""
import multiprocessing as mp
import sys
import time

from derivations.buck2022.jacob2_schedules import strategic
from symgame.engine import algebraic, enumpoly


def c5() -> int:
    return len(enumpoly.enumpoly_solve(strategic("C.5")).equilibria)


def c6_totally_mixed() -> int:
    t = enumpoly._Tables.of(strategic("C.6"))
    system = enumpoly._system(t, [[0, 1, 2, 3]] * 3, ((0, 1, 2, 3),) * 3)
    found = enumpoly._msolve_points(system, t)
    return -1 if found is None else len(found)


def _run(name: str, balls: bool, queue) -> None:
    if not balls:
        algebraic.BALL_PRECISIONS = ()
    start = time.perf_counter()
    count = globals()[name]()
    queue.put((count, time.perf_counter() - start))


def timed(name: str, balls: bool, limit: float) -> tuple[int | None, float | None]:
    queue: mp.Queue = mp.Queue()
    process = mp.get_context("fork").Process(target=_run, args=(name, balls, queue))
    process.start()
    process.join(limit)
    if process.is_alive():
        process.kill()
        process.join()
        return None, None
    return queue.get()


def main(limit: float) -> None:
    for name in ("c5", "c6_totally_mixed"):
        n_balls, t_balls = timed(name, True, limit)
        n_bis, t_bis = timed(name, False, limit)
        bisection = f"{t_bis:.1f} s" if t_bis is not None else f"> {limit:.0f} s (stopped)"
        ratio = f"{t_bis / t_balls:.1f}x" if t_bis is not None and t_balls else f"> {limit / t_balls:.0f}x"
        print(f"{name}: balls {t_balls:.1f} s ({n_balls} equilibria), bisection {bisection} ({n_bis}); ratio {ratio}")


if __name__ == "__main__":
    main(float(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 300.0)
