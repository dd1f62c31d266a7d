"""The plane CAD's lifting above algebraic points: root isolation and square-free parts, old against new.

Run: PYTHONPATH=. python3 benchmarks/bench_cad_lifting.py [X1,X2]   (default 12,11)

Final Jeopardy with the scores X1, X2 is derived and certified once (``symgame.model.cad`` decides the
cover); every polynomial the CAD isolates and every line ``f(alpha, y)`` it lifts above an irrational
``alpha`` is recorded.  Then, in this process, on exactly those inputs:

* root isolation: arb's certified complex roots (``fmpz_poly.complex_roots``, the baseline the CAD used
  before) against Descartes' rule of signs with bisection (``symgame.model.cad._descartes``); the numbers
  of real roots must agree;
* square-free parts of ``f(alpha, y)``: Euclid's algorithm over Q(alpha) on every line (the baseline)
  against the discriminant test that runs Euclid only where the discriminant vanishes at ``alpha``; the
  square-free parts must have the same degree.
"""
import sys
import time

import flint

from symgame.model import cad

RECORD_POLYS: list[flint.fmpz_poly] = []
RECORD_LINES: list[tuple[cad.RealRoot, cad.Factor, flint.fmpz_poly]] = []


def record():
    isolate, line = cad.isolate, cad.Plane._algebraic_line

    def recording_isolate(poly):
        if cad._key(poly) not in cad._ROOTS and poly.degree() >= 2:
            RECORD_POLYS.append(poly)
        return isolate(poly)

    def recording_line(self, x, field, k):
        if ("a", x.identity(), k) not in self._lines and self.factors[k].degree_y >= 2:
            RECORD_LINES.append((x, self.factors[k], self._discriminant(k)))
        return line(self, x, field, k)

    cad.isolate = recording_isolate
    cad.Plane._algebraic_line = recording_line


def arb_isolation(poly):
    return [ball for ball, _ in poly.complex_roots() if ball.imag.is_zero()]


def main(scores=(12, 11)):
    from symgame.engine.derive import derive_by_discovery
    from symgame.games.jeopardy import build_game
    from symgame.numeric.kernels import game_kernels
    from symgame.verify.certify import certify_pdl

    record()
    start = time.perf_counter()
    game = build_game(*scores)
    certificate = certify_pdl(game, derive_by_discovery(game, game_kernels).pdl)
    print(f"{scores}: derived and certified ({certificate.status.value}) in {time.perf_counter() - start:.1f} s; "
          f"{len(RECORD_POLYS)} polynomials isolated, {len(RECORD_LINES)} lines above irrational x")

    start = time.perf_counter()
    old = [len(arb_isolation(p)) for p in RECORD_POLYS]
    t_old = time.perf_counter() - start
    start = time.perf_counter()
    new = [len(cad._descartes(p)) for p in RECORD_POLYS]
    t_new = time.perf_counter() - start
    assert old == new, "the two isolations disagree on a number of real roots"
    degrees = [p.degree() for p in RECORD_POLYS]
    print(f"isolation (degrees {min(degrees, default=0)}..{max(degrees, default=0)}, {sum(new)} real roots): "
          f"arb complex roots {t_old:.2f} s, Descartes {t_new:.2f} s, ratio {t_old / max(t_new, 1e-9):.1f}")

    start = time.perf_counter()
    euclid = []
    for x, f, _ in RECORD_LINES:
        field = cad.AlgebraicExtension(x)
        over = field.trim([flint.fmpq_poly(c.coeffs()) for c in f.coeffs])
        euclid.append(len(field.squarefree(over)) if len(over) > 2 else len(over))
    t_old = time.perf_counter() - start
    start = time.perf_counter()
    tested, skipped = [], 0
    for x, f, disc in RECORD_LINES:
        field = cad.AlgebraicExtension(x)
        over = field.trim([flint.fmpq_poly(c.coeffs()) for c in f.coeffs])
        part = cad.squarefree_above(field, over, len(f.coeffs), flint.fmpq_poly(disc.coeffs()))
        skipped += part is over
        tested.append(len(part))
    t_new = time.perf_counter() - start
    assert euclid == tested, "the discriminant test and Euclid disagree on a square-free degree"
    print(f"square-free parts of {len(RECORD_LINES)} lines ({len(RECORD_LINES) - skipped} need Euclid): "
          f"Euclid everywhere {t_old:.2f} s, discriminant test {t_new:.2f} s, ratio {t_old / max(t_new, 1e-9):.1f}")


if __name__ == "__main__":
    main(tuple(int(v) for v in sys.argv[1].split(",")) if len(sys.argv) > 1 else (12, 11))
