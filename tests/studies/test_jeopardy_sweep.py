"""Final Jeopardy for every score pair up to MAX_SCORE (outputs/jeopardy/sweep): fresh, certified, consistent."""
import json
import shutil
from pathlib import Path

import pytest

from derivations.ganzfried2022.jeopardy_sweep import CACHE_FILE, compute_pair, pair_key, part_name
from derivations.ganzfried2022.jeopardy_sweep_outputs import (
    MAX_SCORE,
    NEAR_TIES_BEYOND,
    TEXT_FILES,
    committed_pairs,
    compute_sweep,
    write_sweep_outputs,
)

ROOT = Path(__file__).resolve().parents[2]
SWEEP = ROOT / "outputs" / "jeopardy" / "sweep"


@pytest.fixture(scope="module")
def cache():
    """The sweep's cache (26 MB of JSON, about 0.2 s to read): per module, so that the rest of the worker's session does
    not carry its millions of objects through every garbage collection."""
    from symgame.model.store import load_json

    return load_json(SWEEP / CACHE_FILE)


@pytest.mark.pinned
def test_every_pair_is_cached_under_the_current_code(cache):
    stale = [pair for pair in committed_pairs() if cache.get(part_name(pair), {}).get("key") != pair_key(pair)]
    assert not stale, f"{len(stale)} pairs stale, e.g. {stale[:3]}: run `symgame derive jeopardy_sweep`"


@pytest.mark.pinned
def test_committed_sweep_outputs_are_fresh(tmp_path, monkeypatch):
    def stale(pair):
        raise AssertionError(f"{pair} is not cached under the current code: run `symgame derive jeopardy_sweep`")

    monkeypatch.setattr("derivations.ganzfried2022.jeopardy_sweep.compute_pair", stale)
    monkeypatch.setattr("derivations.ganzfried2022.jeopardy_sweep_outputs.compute_pair", stale)
    shutil.copyfile(SWEEP / CACHE_FILE, tmp_path / CACHE_FILE)
    write_sweep_outputs(tmp_path)   # every pair comes from the cache: nothing is computed
    for name in TEXT_FILES:
        assert (tmp_path / name).read_bytes() == (SWEEP / name).read_bytes(), f"{name} is stale"


@pytest.mark.pinned
@pytest.mark.parametrize("pair", [(3, 1), (5, 3), (4, 3), (6, 5)])
def test_cached_pairs_recompute_identically(pair, cache):
    assert compute_pair(pair) == cache[part_name(pair)]["data"]


@pytest.mark.pinned
def test_every_pair_is_certified_and_checked(cache):
    data = [cache[part_name(pair)]["data"] for pair in committed_pairs()]
    assert len(data) == MAX_SCORE * (MAX_SCORE + 1) // 2 + len({p for p in NEAR_TIES_BEYOND if p[0] > MAX_SCORE})
    assert all(d.get("certificate") == "true" for d in data), [d["scores"] for d in data if d.get("certificate") != "true"]
    assert all(d["exact_nash_at_points"] and d["lp_agrees_at_points"] for d in data)
    near = {tuple(d["scores"]) for d in data} & {(a, a - 1) for a in range(2, MAX_SCORE + 1)}
    assert len(near) == MAX_SCORE - 1 and all(b == a - 1 for a, b in NEAR_TIES_BEYOND)


@pytest.mark.pinned
def test_sweep_agrees_with_the_seed_output_for_5_3(cache):
    committed = json.loads((ROOT / "outputs" / "jeopardy" / "5_3" / "result.json").read_text())
    assert cache[part_name((5, 3))]["data"]["pdl"] == committed["pdl"]


def test_a_crashing_pair_is_retried_then_reported_and_not_cached(tmp_path, monkeypatch):
    """A pair whose process dies (as in z3's segmentation faults) is run again; one that always dies is
    reported as crashed and left out of the cache, and the other pairs are computed and saved."""
    import faulthandler
    import os
    import signal

    def flaky(pair):
        marker = tmp_path / f"tried_{pair[0]}_{pair[1]}"
        if pair == (2, 0) or not marker.exists():
            marker.write_text("")
            faulthandler.disable()
            os.kill(os.getpid(), signal.SIGSEGV)
        return {"scores": list(pair), "certificate": "true"}

    monkeypatch.setattr("derivations.ganzfried2022.jeopardy_sweep_outputs.compute_pair", flaky)
    seen = []
    results = compute_sweep(tmp_path, [(1, 0), (2, 0), (2, 1)], progress=lambda part, s: seen.append(part))
    assert results["pair_1_0"] == {"scores": [1, 0], "certificate": "true"}
    assert results["pair_2_0"]["crashed"] and "SIGSEGV (3 attempts)" in results["pair_2_0"]["error"]
    assert sorted(seen) == [
        "pair_1_0 (certificate: true, 2 attempts: process ended by SIGSEGV)",
        "pair_2_0 (crashed: process ended by SIGSEGV (3 attempts), 3 attempts: process ended by SIGSEGV; "
        "process ended by SIGSEGV)",
        "pair_2_1 (certificate: true, 2 attempts: process ended by SIGSEGV)"]
    saved = json.loads((tmp_path / CACHE_FILE).read_text())
    assert sorted(saved) == ["pair_1_0", "pair_2_1"]


def test_a_tampered_pair_is_caught_before_it_is_rendered(cache):
    import copy

    from derivations.ganzfried2022.jeopardy_sweep import check_pair
    from symgame.errors import StoreError

    data = copy.deepcopy(cache["pair_8_7"]["data"])        # the shared record stays as committed
    check_pair(data)
    rule = data["pdl"][0]["machine"]["profile"]["Player 1"]
    action = sorted(rule)[0]
    rule[action] = ["num", "1/3"] if rule[action] != ["num", "1/3"] else ["num", "1/4"]
    with pytest.raises(StoreError, match="pair_8_7"):
        check_pair(data)
    data["pdl"] = []
    with pytest.raises(StoreError, match="no stored rule fires"):
        check_pair(data)


def test_a_fresh_pair_comes_back_in_the_cache_form(tmp_path, monkeypatch):
    """Keys in the order the cache gives them back, so outputs rendered right after a computation are the bytes
    a rerun from the cache writes (the action order of a mixed strategy was computation order before)."""
    def unsorted(pair):
        return {"scores": list(pair), "profile": {"Player 1": {"wager 4": "1/2", "wager 10": "1/2"}}}

    monkeypatch.setattr("derivations.ganzfried2022.jeopardy_sweep_outputs.compute_pair", unsorted)
    monkeypatch.setattr("derivations.ganzfried2022.jeopardy_sweep_outputs.check_pair", lambda data: None)  # a stub
    fresh = compute_sweep(tmp_path, [(10, 4)])
    again = compute_sweep(tmp_path, [(10, 4)])
    assert json.dumps(fresh) == json.dumps(again)
    assert list(fresh["pair_10_4"]["profile"]["Player 1"]) == ["wager 10", "wager 4"]
