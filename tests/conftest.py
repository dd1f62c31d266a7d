import os
import re
from fractions import Fraction
from importlib import metadata
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("symgame", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("symgame")


# Expensive fixtures are session-scoped, also those defined in one test module (they stay visible to that module
# only): xdist's worksteal scheduler interleaves the modules on a worker after a steal, and pytest tears a
# module-scoped fixture down whenever the next test belongs to another module, so it was built again (the front
# door's twelve solutions three times in one run). No test mutates these objects.


@pytest.fixture(scope="session")
def two_by_two_analysis():
    from derivations.ganzfried2022.seeds import GAMES
    from symgame.games.analysis import analyse

    return analyse(GAMES["two_by_two"])


@pytest.fixture(scope="session")
def weakest_link_analysis():
    from derivations.ganzfried2022.seeds import GAMES
    from symgame.games.analysis import analyse

    return analyse(GAMES["weakest_link"])


def fractions(point):
    return {k: Fraction(v) for k, v in point.items()}


@pytest.fixture(scope="session")
def billingham_atlas():
    """The Billingham atlas built from the rules (all cores), once per session (per test process)."""
    from symgame.engine.atlas import ProcessMapper, build_atlas
    from symgame.games import billingham

    with ProcessMapper() as mapper:
        return build_atlas(billingham.build_game(), mapper)


@pytest.fixture(scope="session")
def billingham_analysis(billingham_atlas):
    """Every check of the Billingham study run on that atlas, once per session."""
    from derivations.billingham2017.outputs import analyse_billingham

    return analyse_billingham(atlas=billingham_atlas)


@pytest.fixture(scope="session")
def billingham_stability(billingham_analysis):
    """``stability_analysis`` of that atlas at the dynamics study's scale, once per session (about 13 s)."""
    from derivations.billingham2017.dynamics import SCALE
    from symgame.engine.stability import stability_analysis

    return stability_analysis(billingham_analysis.atlas, scale=SCALE)


# --- tests that compare committed outputs byte for byte -------------------------------------------------------------
# The committed outputs (and the study caches' keys) were computed with the runtime libraries at the versions of
# constraints.txt. With other versions inside pyproject.toml's ranges the library works, but its bytes may differ, so
# tests marked ``pinned`` skip with one line naming the version that differs. CI installs the pinned versions and
# sets SYMGAME_REQUIRE_PINNED=1, which turns such a skip into a failure: nothing is silently skipped there.

CONSTRAINTS = Path(__file__).resolve().parents[1] / "constraints.txt"


def pinned_runtime_versions() -> dict[str, str]:
    """The exact versions of the runtime libraries (the first section of constraints.txt)."""
    pins: dict[str, str] = {}
    if not CONSTRAINTS.exists():
        return pins
    started = False
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)$", line.strip())
        if match:
            started = True
            pins[match.group(1)] = match.group(2)
        elif started and not line.strip():
            break                     # the runtime section ends at its first blank line
    return pins


def version_differences() -> list[str]:
    out = []
    for name, pinned in pinned_runtime_versions().items():
        try:
            have = metadata.version(name)
        except metadata.PackageNotFoundError:
            have = "absent"
        if have != pinned:
            out.append(f"{name} {have} (constraints.txt pins {pinned})")
    return out


def pytest_collection_modifyitems(config, items):
    differences = version_differences()
    if not differences:
        return
    reason = "compares committed outputs, computed with other library versions: " + "; ".join(differences)
    if os.environ.get("SYMGAME_REQUIRE_PINNED") == "1":
        raise pytest.UsageError("SYMGAME_REQUIRE_PINNED=1 but " + "; ".join(differences))
    for item in items:
        if item.get_closest_marker("pinned") is not None:
            item.add_marker(pytest.mark.skip(reason=reason))
