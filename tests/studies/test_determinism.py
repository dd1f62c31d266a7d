"""The cheap derivations give byte-identical results under another hash seed and another BLAS thread count.

The expensive ones have the same check as a benchmark script (benchmarks/determinism.py), whose
results are in benchmarks/RESULTS.md.
"""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = r"""
import hashlib, json, sys, tempfile
from pathlib import Path
from derivations.buck2022 import outputs as guts_outputs
from symgame.export.pipeline import write_outputs
from derivations.buck2022 import jacob2
from symgame.games.analysis import analyse
from derivations.ganzfried2022.seeds import FAMILIES, GAMES

digest = {}
for part in ("recursive", "odd_man", "jacob"):
    digest["guts/" + part] = json.dumps(guts_outputs.compute_part(part), sort_keys=True)
digest["jacob2/search"] = repr(jacob2.search_equilibria("C.7", 8, 7))
digest["jacob2/fp"] = repr(jacob2.fictitious_play_ends("C.6", 3, 400, 5))
with tempfile.TemporaryDirectory() as tmp:
    for spec in (GAMES["weakest_link"], FAMILIES["jeopardy"][0]):
        write_outputs(analyse(spec), Path(tmp) / spec.name, pdf=False)
    for path in sorted(Path(tmp).rglob("*")):
        if path.is_file():
            digest[str(path.relative_to(tmp))] = hashlib.sha256(path.read_bytes()).hexdigest()
json.dump(digest, sys.stdout, sort_keys=True)
"""

CONDITIONS = (
    {"PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
    {"PYTHONHASHSEED": "4242", "OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "2"},
)


@pytest.mark.slow
def test_cheap_derivations_agree_byte_for_byte_under_two_conditions():
    runs = [subprocess.Popen([sys.executable, "-c", SCRIPT], env=dict(os.environ, **c), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
            for c in CONDITIONS]
    outputs = []
    for run in runs:
        out, err = run.communicate(timeout=900)
        assert run.returncode == 0, err[-2000:]
        outputs.append(json.loads(out))
    first, second = outputs
    assert first.keys() == second.keys() and len(first) >= 10
    differing = [k for k in first if first[k] != second[k]]
    assert not differing, f"differ between hash seeds / BLAS thread counts: {differing}"
    # the digests are of real content, not of empty files
    assert all(v != hashlib.sha256(b"").hexdigest() for v in first.values())
