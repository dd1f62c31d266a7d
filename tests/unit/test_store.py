"""Stored results are untrusted input: caches, checkpoints and output files, with faults injected into them."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from symgame.errors import InputError, StoreError
from symgame.export.cache import StudyCache, cached, content_key, provenance_changes
from symgame.model.store import load_json, read_limited, safe_name, write_atomic

ROOT = Path(__file__).resolve().parents[2]
KEY = "a" * 64


# --------------------------------------------------------------------------- writing

def test_write_atomic_replaces_whole_files_and_never_writes_through_a_link(tmp_path):
    target = tmp_path / "target.md"
    target.write_text("precious\n")
    link = tmp_path / "summary.md"
    link.symlink_to(target)
    with pytest.raises(StoreError, match="symbolic link"):
        write_atomic(link, "overwritten?\n")
    assert target.read_text() == "precious\n" and link.is_symlink()
    write_atomic(tmp_path / "deep" / "er" / "a.txt", "x")
    assert (tmp_path / "deep" / "er" / "a.txt").read_text() == "x"
    assert not [p for p in tmp_path.rglob("*.tmp")]
    (tmp_path / "folder").mkdir()
    with pytest.raises(StoreError, match="not a regular file"):
        write_atomic(tmp_path / "folder", "x")
    (tmp_path / "file").write_text("")
    with pytest.raises(StoreError, match="cannot write"):
        write_atomic(tmp_path / "file" / "below.txt", "x")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_one_line(tmp_path):
    (tmp_path / "ro").mkdir()
    os.chmod(tmp_path / "ro", 0o500)
    try:
        with pytest.raises(StoreError, match="cannot write"):
            write_atomic(tmp_path / "ro" / "a.txt", "x")
    finally:
        os.chmod(tmp_path / "ro", 0o700)


@pytest.mark.parametrize("name", ["../x", "a/b", "", ".", "..", "a\nb", "a\x00b", "a\u202eb", "a\u2028b", 3, None])
def test_stored_data_never_names_a_folder(name):
    with pytest.raises(StoreError):
        safe_name(name)


# --------------------------------------------------------------------------- reading

def test_devices_fifos_and_oversized_files_are_refused_in_one_line(tmp_path):
    for device in ("/dev/zero", "/dev/urandom"):
        with pytest.raises(StoreError, match="not a regular file"):
            read_limited(device)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(StoreError, match="not a regular file"):
        read_limited(fifo)
    (tmp_path / "big").write_bytes(b"x" * 101)
    with pytest.raises(StoreError, match="limit of 100 bytes"):
        read_limited(tmp_path / "big", limit=100)
    with pytest.raises(StoreError, match="cannot read"):
        read_limited(tmp_path / "missing")


@pytest.mark.parametrize("content", [b"", b"{", b'{"a": [1, 2', b"\xff\xfe", b"[" * 100000])
def test_broken_json_is_one_line(tmp_path, content):
    (tmp_path / "c.json").write_bytes(content)
    with pytest.raises(StoreError) as caught:
        load_json(tmp_path / "c.json")
    assert "\n" not in str(caught.value) and "c.json" in str(caught.value)


# --------------------------------------------------------------------------- study caches

@pytest.mark.parametrize("content", [
    b'{"part": {"key": "' + KEY.encode() + b'", "data": 1',                 # truncated
    b"[]",                                                                    # not an object
    b'{"part": {"key": "short", "data": 1}}',                                # not a key
    b'{"part": {"key": "' + KEY.encode() + b'"}}',                           # no data
    b'{"part": {"key": "' + KEY.encode() + b'", "data": 1, "run": "code"}}',  # an unknown field
])
def test_a_broken_or_forged_cache_is_one_line_naming_the_file(tmp_path, content):
    path = tmp_path / "study_cache.json"
    path.write_bytes(content)
    with pytest.raises(StoreError, match="study_cache.json"):
        StudyCache(path)


def test_a_bit_flipped_cache_is_caught(tmp_path):
    committed = (ROOT / "outputs" / "sampling" / "study_cache.json").read_bytes()
    caught = 0
    for position in range(0, len(committed), max(1, len(committed) // 40)):
        flipped = bytearray(committed)
        flipped[position] ^= 0x04
        (tmp_path / "c.json").write_bytes(bytes(flipped))
        try:
            cache = StudyCache(tmp_path / "c.json")
        except StoreError:
            caught += 1
            continue
        # what still parses is either a changed key (the part is then recomputed) or changed data
        entry = cache.entries.get("study")
        original = json.loads(committed)["study"]
        assert entry is None or entry != original
    assert caught > 0


def test_save_is_atomic_and_a_cached_part_is_rechecked(tmp_path):
    path = tmp_path / "study_cache.json"
    cache = StudyCache(path)
    key = content_key("demo", {"n": 3}, ["symgame.numeric.fictitious"])
    assert cached(cache, "demo", key, lambda: {"value": "-1/18"}) == {"value": "-1/18"}
    assert json.loads(path.read_text())["demo"]["provenance"]["roots"] == ["symgame.numeric.fictitious"]
    assert provenance_changes(path) == []

    def check(data):
        if data["value"] != "-1/18":
            raise StoreError(f"{path}: demo: the value {data['value']} is not the proved value -1/18")

    forged = json.loads(path.read_text())
    forged["demo"]["data"]["value"] = "-1/17"
    path.write_text(json.dumps(forged))
    with pytest.raises(StoreError, match="-1/17"):
        cached(StudyCache(path), "demo", key, lambda: 1 / 0, check=check)
    assert cached(StudyCache(path), "demo", key, lambda: {"value": "-1/18"}, recompute=True, check=check) \
        == {"value": "-1/18"}


_CHECKED: list = []


def test_a_record_is_reverified_once_per_process_and_again_when_a_byte_or_the_check_differs(tmp_path):
    """A study read twice in one process (a fixture, then its rendering) is checked once; a record that differs,
    a check that captured another value, or one that failed before is checked again."""
    path = tmp_path / "study_cache.json"
    key = content_key("demo", {"n": 4}, ["symgame.numeric.fictitious"])
    cached(StudyCache(path), "demo", key, lambda: {"value": "-1/18", "n": 4})
    calls = _CHECKED
    calls.clear()

    def checker(expected):       # (a check that captures values with no JSON form is never treated as seen)
        def check(data):
            _CHECKED.append(dict(data))
            if data["value"] != expected:
                raise StoreError(f"demo: {data['value']} is not {expected}")
        return check

    for _ in range(3):
        assert cached(StudyCache(path), "demo", key, lambda: 1 / 0, check=checker("-1/18"))["value"] == "-1/18"
    assert len(calls) == 1
    with pytest.raises(StoreError, match="is not -1/19"):        # the same bytes, a check with another value
        cached(StudyCache(path), "demo", key, lambda: 1 / 0, check=checker("-1/19"))
    with pytest.raises(StoreError, match="is not -1/19"):        # a failed check is not remembered
        cached(StudyCache(path), "demo", key, lambda: 1 / 0, check=checker("-1/19"))
    forged = json.loads(path.read_text())
    forged["demo"]["data"]["n"] = 5                               # one byte elsewhere in the record
    forged["demo"]["data"]["value"] = "-1/17"
    path.write_text(json.dumps(forged))
    with pytest.raises(StoreError, match="-1/17 is not -1/18"):
        cached(StudyCache(path), "demo", key, lambda: 1 / 0, check=checker("-1/18"))
    assert len(calls) == 4


def test_provenance_with_module_names_outside_the_packages_is_refused(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"p": {"key": KEY, "data": 1, "provenance": {"roots": ["symgame/../../etc"],
                                                                           "code": KEY}}}))
    assert provenance_changes(path) == ["p"]


def test_a_module_that_is_not_there_has_no_fingerprint(tmp_path):
    """Run from outside the repository, ``derivations.*`` is not on the path: the empty closure's hash once
    went into every committed cache as their code fingerprint, silently."""
    from symgame.export.cache import code_fingerprint

    with pytest.raises(LookupError, match="derivations.nowhere"):
        code_fingerprint(["symgame.numeric.fictitious", "derivations.nowhere"])
    path = tmp_path / "c.json"
    empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"   # SHA-256 of nothing
    path.write_text(json.dumps({"p": {"key": KEY, "data": 1, "provenance": {"roots": ["derivations.nowhere"],
                                                                           "code": empty}}}))
    assert provenance_changes(path) == ["p"]


@pytest.mark.pinned
def test_the_kuhn_cache_is_rechecked_before_it_is_written(tmp_path):
    from derivations.ganzfried2022.kuhn_outputs import CACHE_FILE, write_kuhn_outputs

    data = json.loads((ROOT / "outputs" / "kuhn" / CACHE_FILE).read_text())
    texts = data["all"]["data"]
    forged = dict(data)
    forged["all"] = dict(data["all"], data=dict(texts, **{"values.csv": texts["values.csv"].replace(
        "3,-1/18,", "3,-1/17,", 1)}))
    (tmp_path / CACHE_FILE).write_text(json.dumps(forged))
    with pytest.raises(StoreError, match="-1/17 at n = 3 is not the proved value -1/18"):
        write_kuhn_outputs(tmp_path, pdf=False)
    escaping = dict(data)
    escaping["all"] = dict(data["all"], data=dict(texts, **{"../x": "outside"}))
    (tmp_path / CACHE_FILE).write_text(json.dumps(escaping))
    with pytest.raises(StoreError, match="not the study's files"):
        write_kuhn_outputs(tmp_path, pdf=False)
    assert not (tmp_path.parent / "x").exists()


def test_derive_reports_a_broken_cache_in_one_line(tmp_path, capsys):
    from symgame.cli import main

    (tmp_path / "sampling").mkdir()
    (tmp_path / "sampling" / "study_cache.json").write_text('{"study": {"key"')
    assert main(["derive", "sampling", "--out", str(tmp_path), "--no-pdf"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not valid JSON" in err and "--recompute" in err
    assert main(["derive", "--status", "--out", str(tmp_path)]) == 2


def test_derive_status_lists_every_committed_cache(capsys):
    from symgame.cli import main

    assert main(["derive", "--status", "--out", str(ROOT / "outputs")]) == 0
    out = capsys.readouterr().out
    for name in ("kuhn", "guts", "goofspiel", "kuhn3", "sampling"):
        assert f"outputs/{name}/study_cache.json" in out


# --------------------------------------------------------------------------- Goofspiel checkpoints

def _level_file(folder: Path, exact: bool) -> Path:
    return sorted(folder.glob(f"level_*.{'json' if exact else 'npy'}"), key=lambda p: int(p.stem[6:]))[-1]


@pytest.mark.parametrize("exact", [False, True])
def test_goofspiel_checkpoints_are_checked_before_a_run_resumes(tmp_path, exact):
    from symgame.games.goofspiel import solve

    cards = 5 if exact else 6
    clean = solve(cards, exact=exact)
    assert solve(cards, exact=exact, checkpoint=tmp_path).first_move == clean.first_move
    last = _level_file(tmp_path, exact)
    raw = last.read_bytes()
    for broken in (raw[: len(raw) // 2], b"", raw[:-1] + bytes([raw[-1] ^ 1])):
        last.write_bytes(broken)
        with pytest.raises(StoreError, match="SHA-256"):
            solve(cards, exact=exact, checkpoint=tmp_path)
    last.write_bytes(raw)
    # a consistent forgery: other numbers in the last level, its hash updated
    state = json.loads((tmp_path / "state.json").read_text())
    if exact:
        forged = raw.replace(b'"', b'"1', 1)
    else:
        import io

        import numpy as np

        table = np.load(io.BytesIO(raw), allow_pickle=False).copy()
        table.flat[0] += 0.25
        buffer = io.BytesIO()
        np.save(buffer, table)
        forged = buffer.getvalue()
    last.write_bytes(forged)
    import hashlib

    state["sha256"][-1] = hashlib.sha256(forged).hexdigest()
    (tmp_path / "state.json").write_text(json.dumps(state))
    with pytest.raises(StoreError, match="differs from its recomputation|is not level"):
        solve(cards, exact=exact, checkpoint=tmp_path)
    (tmp_path / "state.json").write_text("{")
    with pytest.raises(StoreError, match="not valid JSON"):
        solve(cards, exact=exact, checkpoint=tmp_path)
    (tmp_path / "state.json").write_text(json.dumps({"levels": 99, "counts": [], "sha256": []}))
    with pytest.raises(StoreError, match="not a checkpoint state"):
        solve(cards, exact=exact, checkpoint=tmp_path)


def test_an_old_pickle_checkpoint_is_never_loaded(tmp_path):
    from symgame.games.goofspiel import solve

    (tmp_path / "meta.json").write_text(json.dumps({"game": "goofspiel", "version": 1, "cards": 4,
                                                    "objective": "amount", "exact": False}))
    (tmp_path / "levels.pkl").write_bytes(b"cos\nsystem\n(S'touch pwned'\ntR.")   # would run code if unpickled
    with pytest.raises(InputError, match="checkpoint of another run"):
        solve(4, checkpoint=tmp_path)
    assert not (tmp_path / "pwned").exists() and not Path("pwned").exists()


def kill_9_and_resume(command: list[str], checkpoint: Path, reached, stops, rerun=None) -> None:
    """Run ``command --checkpoint checkpoint``, SIGKILL it once ``reached(checkpoint, stop)`` holds, rerun it:
    the rerun must exit 0 and print what an uninterrupted run prints, for every ``stop``. ``rerun(arguments)``
    (``(status, stdout)``), if given, runs the uninterrupted and the resumed commands in this process through the
    command line's ``main`` (the same code; the killed runs are always processes)."""
    def run(arguments: list[str]) -> tuple[int, str]:
        if rerun is not None:
            return rerun(arguments)
        done = subprocess.run(command + arguments, capture_output=True, text=True)
        return done.returncode, done.stdout + (done.stderr if done.returncode else "")

    status, clean = run([])
    assert status == 0, clean
    for stop in stops:
        path = checkpoint.with_name(f"{checkpoint.name}{stop}")
        process = subprocess.Popen(command + ["--checkpoint", str(path)], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if reached(path, stop):
                    break
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.002)
        process.send_signal(signal.SIGKILL)
        process.wait()
        status, resumed = run(["--checkpoint", str(path)])
        assert status == 0, resumed
        assert resumed == clean


@pytest.mark.slow
def test_goofspiel_survives_kill_9_at_several_points(tmp_path):
    """Killed after 2, 4 and 6 finished levels, each rerun resumes and prints the uninterrupted answer."""
    kill_9_and_resume([sys.executable, "-m", "symgame", "goofspiel", "--cards", "8"], tmp_path / "run",
                      lambda folder, stop: json.loads((folder / "state.json").read_text())["levels"] >= stop,
                      (2, 4, 6))


# --------------------------------------------------------------------------- atlas checkpoints

EXAMPLE = ROOT / "examples" / "three_player.yaml"


def _atlas(args, capsys):
    from symgame.cli import main

    status = main(["atlas", str(EXAMPLE), "--json", "--workers", "1"] + args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err.strip()


def test_atlas_checkpoints_are_keyed_to_their_game_and_checked_line_by_line(tmp_path, capsys):
    checkpoint = tmp_path / "run.jsonl"
    status, clean, _ = _atlas(["--checkpoint", str(checkpoint)], capsys)
    assert status == 0
    lines = checkpoint.read_text().splitlines()
    assert json.loads(lines[0])["kind"] == "header"
    # resumed from its own checkpoint: the same answer
    assert _atlas(["--checkpoint", str(checkpoint)], capsys)[:2] == (0, clean)
    # a torn last line (an interrupted append) is dropped and the run completes
    checkpoint.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    assert _atlas(["--checkpoint", str(checkpoint)], capsys)[:2] == (0, clean)
    cases = {
        "another game": [json.dumps(dict(json.loads(lines[0]), game="0" * 64))] + lines[1:],
        "no header": lines[1:],
        "a malformed line": lines[:3] + ["{not json"] + lines[3:],
        "a forged record": lines[:3] + ['{"kind": "refuted", "case": "../../x", "stage": "z3"}'] + lines[3:],
        "an unknown kind": lines[:3] + ['{"kind": "solved", "case": "LL-"}'] + lines[3:],
        "a task of another game": lines[:3] + ['{"key": "9:UU", "kind": "search", "nodes": 1, "pruned": 0, '
                                               '"survivors": []}'] + lines[3:],
    }
    for name, content in cases.items():
        checkpoint.write_text("\n".join(content) + "\n")
        status, out, err = _atlas(["--checkpoint", str(checkpoint)], capsys)
        assert status == 2 and out == "" and len(err.splitlines()) == 1 and "run.jsonl" in err, (name, err)


def test_an_atlas_checkpoint_is_never_written_through_a_link(tmp_path, capsys):
    target = tmp_path / "elsewhere.txt"
    target.write_text("precious\n")
    (tmp_path / "run.jsonl").symlink_to(target)
    status, _, err = _atlas(["--checkpoint", str(tmp_path / "run.jsonl")], capsys)
    assert status == 2 and "symbolic link" in err and target.read_text() == "precious\n"


@pytest.mark.slow
def test_the_atlas_survives_kill_9(tmp_path, capsys):
    def rerun(arguments: list[str]) -> tuple[int, str]:
        status, out, err = _atlas(arguments, capsys)
        return status, out if status == 0 else err

    kill_9_and_resume([sys.executable, "-m", "symgame", "atlas", str(EXAMPLE), "--json", "--workers", "1"],
                      tmp_path / "run.jsonl", lambda path, stop: path.read_text().count("\n") >= stop, (5, 30, 60),
                      rerun=rerun)


@pytest.mark.slow
@pytest.mark.parametrize("stage, marker", [("search", "search: "), ("cases", "cases: "),
                                           ("certificates", " with solutions")], ids=["search", "cases", "certificates"])
def test_ctrl_c_ends_every_worker_and_exits_130_within_seconds(tmp_path, stage, marker):
    """SIGINT to the whole process group, as a terminal sends it, in each stage of a two-process atlas: in the
    search (workers), in the cases, and in the certificates (a z3 check in the main process, which the interrupt
    helper stops at once). The stage is read from the command's ``--progress`` lines, not guessed from the time
    (a loaded machine used to move a fixed delay into another stage). Every child is reaped before the command
    exits (the forced exit after the grace period used to leave its terminated workers behind)."""
    import threading

    checkpoint = tmp_path / "run.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "symgame", "atlas", str(ROOT / "examples" / "billingham.yaml"),
                                "--workers", "2", "--checkpoint", str(checkpoint), "--progress"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, text=True)
    lines: list[str] = []
    reached = threading.Event()

    def read_progress() -> None:
        for line in process.stderr:
            lines.append(line)
            if marker in line:
                reached.set()

    reader = threading.Thread(target=read_progress, daemon=True)
    reader.start()
    reached.wait(timeout=120)
    if stage == "certificates":
        time.sleep(0.5)                   # into the first certificate's z3 check
    if process.poll() is not None:
        pytest.skip("the run ended before it could be interrupted")
    assert reached.is_set(), f"no progress line with {marker!r} in two minutes: {lines[-3:]}"
    os.killpg(process.pid, signal.SIGINT)
    started = time.monotonic()
    try:
        status = process.wait(timeout=20)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    reader.join(timeout=10)
    assert status == 130 and "interrupted" in "".join(lines)
    if stage == "cases":                        # five seconds of cases: the interrupt lands inside them
        assert not any(" with solutions" in line for line in lines)
    assert process.stdout.read() == ""          # no report computed with an interrupted check
    assert time.monotonic() - started < 10
    leftover = subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, text=True).stdout.split()
    assert leftover == []


# --------------------------------------------------------------------------- re-checks of the other studies

def _committed(path: str, part: str):
    return json.loads((ROOT / "outputs" / path).read_text())[part]["data"]


def test_a_forged_goofspiel_row_is_caught():
    from derivations.rhoads2012.outputs import check_part

    rows = _committed("goofspiel/study_cache.json", "float")
    check_part("float", rows)
    row = next(r for r in rows if r["cards"] == 8)
    move = row["first_move"]["8"]
    best = max(move, key=lambda b: float(move[b]))
    other = min(move, key=lambda b: float(move[b]))
    move[best], move[other] = str(float(move[best]) - 0.01), str(float(move[other]) + 0.01)
    with pytest.raises(StoreError, match="N = 8 differs from its recomputation"):
        check_part("float", rows)
    row["value"] = "0.5"
    with pytest.raises(StoreError, match="symmetric game's value is 0"):
        check_part("float", rows)


def test_a_forged_jacob_equilibrium_is_caught():
    from derivations.buck2022.jacob2_schedules import check_schedule

    data = _committed("guts/jacob2_cache.json", "jacob2/C.7")
    check_schedule("C.7", data)
    data["equilibria"][3]["payoffs"][0] = "0"
    with pytest.raises(StoreError, match="equilibrium 4: player 1's payoff"):
        check_schedule("C.7", data)
    data["equilibria"][3]["profile"][0] = ["1"] + ["0"] * 5
    with pytest.raises(StoreError, match="equilibrium 4"):
        check_schedule("C.7", data)


def test_a_forged_sampling_share_and_kuhn3_witness_are_caught():
    import copy

    import symgame
    from derivations.ganzfried2022.sampling_outputs import check_study
    from derivations.szafron2013.kuhn3 import check_study as check_kuhn3
    from symgame.games import two_by_two

    data = _committed("sampling/study_cache.json", "study")
    pdl = symgame.solve(two_by_two.build_game()).pdl
    check_study(data, pdl)
    data["small_k"][0]["share_at_most_printed"] = 0.0025          # "1 of 400 draws" instead of 0
    with pytest.raises(StoreError, match="small-k spread"):
        check_study(data, pdl)
    study = _committed("kuhn3/study_cache.json", "kuhn3")
    # (the committed study passes the same check in tests/studies/test_kuhn3_study.py's fixture, 8 s)
    forged = copy.deepcopy(study)
    witness = forged["witnesses"][4]
    name = next(x for x, v in sorted(witness["profile"].items()) if v == "0")
    witness["profile"][name] = "1/3"
    with pytest.raises(StoreError, match="witness of"):
        check_kuhn3(dict(forged, witnesses=forged["witnesses"][:5]))   # the first four pass, the fifth does not


def test_a_forged_guts_table_row_is_caught():
    from derivations.buck2022.outputs import check_part

    data = _committed("guts/study_cache.json", "table")
    check_part("table", data)
    data["table1.csv"] = data["table1.csv"].replace("\n2,101,0.013152,", "\n2,101,0.013153,", 1)
    with pytest.raises(StoreError, match="row N = 2 differs"):
        check_part("table", data)


def test_a_forged_jacob2_search_find_is_caught():
    from derivations.buck2022.outputs import check_part

    data = _committed("guts/study_cache.json", "jacob2")
    check_part("jacob2", data)
    old = "(0, 0, 1) / (2/3, 1/3, 0) / (2/3, 1/3, 0); payoffs"
    assert old in data["text"]
    data["text"] = data["text"].replace(old, "(0, 0, 1) / (1/3, 2/3, 0) / (2/3, 1/3, 0); payoffs", 1)
    with pytest.raises(StoreError, match=r"schedule \(C.5\) differs"):
        check_part("jacob2", data)


@pytest.mark.parametrize("part, old, new, message", [
    ("restriction", "| 2 | 101 | 0.013152 |", "| 2 | 101 | 0.013153 |", "row N = 2, M = 101"),
    ("teams", "| 21 | 0.000000 |", "| 21 | 0.000001 |", "row M = 21"),
    ("weenie", "- n = 2: proved by z3", "- n = 2: NOT proved by z3", "z3 proof for n = 2"),
])
def test_forged_guts_texts_are_caught(part, old, new, message):
    """The text parts are re-checked by a recomputed sample too (issue 37: they were rendered as stored)."""
    from derivations.buck2022.outputs import check_part

    data = _committed("guts/study_cache.json", part)
    check_part(part, data)
    assert any(line.startswith(old) for line in data["lines"])
    data["lines"] = [line.replace(old, new, 1) if line.startswith(old) else line for line in data["lines"]]
    with pytest.raises(StoreError, match=message):
        check_part(part, data)


# --------------------------------------------------------------------------- generated faults (hypothesis, fixed seed)

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                        max_size=4), max_leaves=20)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(st.binary(max_size=200), json_values.map(lambda v: json.dumps(v).encode())))
def test_any_stored_bytes_give_a_cache_or_one_store_error(tmp_path, content):
    path = tmp_path / "study_cache.json"
    path.write_bytes(content)
    try:
        cache = StudyCache(path)
    except StoreError as exc:
        assert "\n" not in str(exc) and "study_cache.json" in str(exc)
        return
    assert all(set(e) >= {"key", "data"} for e in cache.entries.values())
    provenance_changes(path)                          # never raises on a loaded cache


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.one_of(json_values.map(json.dumps), st.text(max_size=30)), max_size=6))
def test_any_atlas_checkpoint_lines_give_a_resume_or_one_store_error(tmp_path, lines):
    from symgame.engine.atlas import _Checkpoint, game_key
    from symgame.model.polyfile import load_polynomial_game

    game = load_polynomial_game(EXAMPLE)
    header = json.dumps({"game": game_key(game), "kind": "header", "version": 2}, sort_keys=True)
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join([header] + [line.replace("\n", " ") for line in lines]) + "\n")
    try:
        store = _Checkpoint(path, game, ["0:LL", "0:LU"], 3)
    except StoreError as exc:
        assert "\n" not in str(exc) and "run.jsonl" in str(exc)
        return
    assert set(store.search) <= {"0:LL", "0:LU"} and all(len(c) == 3 for c in store.refuted)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=json_values)
def test_any_goofspiel_state_gives_a_resume_or_one_store_error(tmp_path, state):
    import tempfile

    from symgame.games.goofspiel import solve

    folder = Path(tempfile.mkdtemp(dir=tmp_path))            # one folder per example
    solve(3, checkpoint=folder)
    (folder / "state.json").write_text(json.dumps(state))
    try:
        result = solve(3, checkpoint=folder)
    except StoreError as exc:
        assert "\n" not in str(exc)
        return
    assert result.first_move == solve(3).first_move
