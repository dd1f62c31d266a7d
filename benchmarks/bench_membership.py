"""What proving msolve's answers costs: membership certificates (``enumpoly.certify_support``) against msolve's
own solve of the same saturated systems, in the same process.

Usage: ``PYTHONPATH=. python3 benchmarks/bench_membership.py [EVERY]``.

The supports are the cached msolve supports of the Jacob game II (C.7) (Buck et al., arXiv:2208.02788, 2022,
Appendix C.3) that the study certifies (``jacob2_schedules.certify_attempted``), every EVERY-th of them (default
10). For each: msolve's parametrization of the saturated system alone (the baseline: what the enumeration already
runs), then the whole certificate (msolve again, Singular's ``lift``, FLINT's check of the identities). The script
prints per kind (empty / parametrized) the supports, the certificates' terms and both times, and the ratio
certificate / msolve. Recorded in benchmarks/RESULTS.md.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from derivations.buck2022.jacob2_schedules import CACHE_FILE, certify_attempted, strategic
from symgame.engine import enumpoly
from symgame.engine.msolve import parametrize


def main(every: int = 10) -> None:
    cache = json.loads((Path(__file__).resolve().parents[1] / "outputs" / "guts" / CACHE_FILE).read_text())
    supports = cache["jacob2/C.7"]["data"]["msolve_supports"]
    game = strategic("C.7")
    t = enumpoly._Tables.of(game)
    totals: dict[str, list[float]] = {}
    for support in supports[::every]:
        support0 = tuple(tuple(a - 1 for a in s) for s in support)
        system = enumpoly._system(t, [list(range(6))] * 3, support0)
        start = time.perf_counter()
        found = parametrize(*enumpoly._saturated(system))
        baseline = time.perf_counter() - start
        if isinstance(found, str) or (found is not None and not certify_attempted(len(system.symbols),
                                                                                  found.eliminant.degree())):
            continue
        start = time.perf_counter()
        cert = enumpoly.certify_support(game, support0, attempt=certify_attempted)
        seconds = time.perf_counter() - start
        assert cert is not None and all(e.verified for e in cert.equilibria)
        row = totals.setdefault(cert.kind, [0, 0, 0.0, 0.0])
        row[0] += 1
        row[1] += cert.terms
        row[2] += baseline
        row[3] += seconds
    print("| kind | supports | certificate terms | msolve alone s | certificate s | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind, (count, terms, baseline, seconds) in sorted(totals.items()):
        print(f"| {kind} | {count} | {terms:,} | {baseline:.2f} | {seconds:.2f} | {seconds / baseline:.1f} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
