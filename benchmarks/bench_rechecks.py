"""What re-verifying a cached study costs, against what computing it again costs.

Every committed study cache is re-verified before it is rendered (``check=`` of
:func:`symgame.export.cache.cached`). This script times each re-check on the committed caches in one process and
prints it beside the study's recompute time,
as recorded by the study itself (``seconds`` fields of the cache) or in ``benchmarks/RESULTS.md``.

    PYTHONPATH=. python3 benchmarks/bench_rechecks.py
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "outputs"


def _data(path: str, part: str):
    return json.loads((OUT / path).read_text())[part]["data"]


def main(argv: list[str]) -> int:
    import symgame
    from derivations.billingham2017.dynamics_numeric import check_numeric
    from derivations.buck2022.jacob2_schedules import check_schedule
    from derivations.buck2022.outputs import check_part as check_guts
    from derivations.ganzfried2022.jeopardy_sweep import check_pair
    from derivations.ganzfried2022.kuhn_outputs import check_cached_texts
    from derivations.ganzfried2022.sampling_outputs import check_study as check_sampling
    from derivations.rhoads2012.outputs import check_part
    from derivations.szafron2013.kuhn3 import check_study as check_kuhn3
    from symgame.games import two_by_two

    pdl = symgame.solve(two_by_two.build_game()).pdl
    sweep = json.loads((OUT / "jeopardy/sweep/study_cache.json").read_text())
    goof = json.loads((OUT / "goofspiel/study_cache.json").read_text())
    goof_seconds = sum(r.get("seconds", 0) for name in ("exact", "float", "win") for r in goof[name]["data"])
    sampling = _data("sampling/study_cache.json", "study")
    guts = json.loads((OUT / "guts/study_cache.json").read_text())
    checks = [
        ("kuhn (values.csv, closed_form_check.csv)", lambda: check_cached_texts(_data("kuhn/study_cache.json", "all")),
         "about 210 s (README)"),
        ("jeopardy sweep (210 pairs)", lambda: [check_pair(e["data"]) for e in sweep.values()],
         "about 28 min on 2 cores (README)"),
        ("kuhn3 study (21 witnesses)", lambda: check_kuhn3(_data("kuhn3/study_cache.json", "kuhn3")),
         "about 25 min (README)"),
        ("goofspiel exact/float/win", lambda: [check_part(n, goof[n]["data"]) for n in ("exact", "float", "win")],
         f"{goof_seconds:.0f} s (the parts' recorded seconds)"),
        ("jacob2 (C.6, C.7)", lambda: [check_schedule(n, _data("guts/jacob2_cache.json", f"jacob2/{n}"))
                                       for n in ("C.6", "C.7")], "about 28 min for (C.7) (README)"),
        ("sampling", lambda: check_sampling(sampling, pdl), f"{sampling['seconds']:.0f} s (recorded)"),
        ("guts (table, extension, mesh samples)", lambda: [check_guts(n, guts[n]["data"]) for n in guts],
         "about 15 min (RESULTS.md, determinism table)"),
        ("billingham dynamics numeric", lambda: check_numeric(_data("billingham/dynamics/study_cache.json",
                                                                     "numeric")),
         "80 long runs and 18 trajectories to t = 10^4 (not timed)"),
    ]
    print(f"{'cache':45s} {'re-check':>10s}  recompute")
    for name, check, recompute in checks:
        start = time.perf_counter()
        check()
        print(f"{name:45s} {time.perf_counter() - start:9.2f}s  {recompute}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
