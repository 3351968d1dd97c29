"""Fixtures shared by the tests, and the run's closing line on the page's screenshots.

The default run is spread over the machine's cores by pytest-xdist (``-n auto
--dist loadfile`` in pyproject.toml): each test module runs whole, in its order, in
one worker, so a module's fixtures (a browser, a numbered series of screenshots) are
never shared between processes. ``-n 0`` runs everything in this process.
"""

import time

import pytest

from browser_artifacts import ARTIFACTS
from optimal_mm import Game

_STARTED = pytest.StashKey[float]()


@pytest.fixture(scope="session")
def mastermind():
    return Game.from_spec("mastermind")


@pytest.fixture(scope="session")
def bulls():
    return Game.from_spec("bulls-and-cows")


@pytest.fixture(scope="session")
def mastermind_runs(tmp_path_factory):
    """Mastermind's expected case run to the end with every part of 60 secrets or more
    split by second guess, as a function of how rivals that prove better build their
    trees: ``"kept"`` (their tasks keep them), ``"task"`` or ``"parts"`` (as before
    2026-11-28: see :func:`checkpoint_entries.rivals_without_trees`). It answers the
    run's checkpoint folder, solver and solution; each run is made once per worker
    process, for every module there that asks for it, so a test that prunes the
    checkpoint copies it first."""
    from checkpoint_entries import rivals_without_trees
    from optimal_mm import search
    from optimal_mm import search_expected

    runs = {}

    def run(rebuild="kept"):
        if rebuild not in runs:
            folder = tmp_path_factory.mktemp(f"mastermind-60-{rebuild}")
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(search_expected, "SPLIT_SECRETS", 60)
                if rebuild != "kept":
                    rivals_without_trees(patch, rebuild)
                solver = search.Solver(Game.from_spec("mastermind"), jobs=1,
                                       checkpoint=folder, table_entries=60_003)
                runs[rebuild] = folder, solver, solver.solve("expected")
        return runs[rebuild]

    return run


def pytest_sessionstart(session):
    session.config.stash[_STARTED] = time.time()


def pytest_terminal_summary(terminalreporter, config):
    """Name the screenshot directory when this run wrote screenshots (in any worker)."""
    started = config.stash.get(_STARTED, None)
    shots = sorted(ARTIFACTS.glob("*.png")) if ARTIFACTS.is_dir() else []
    if started is not None and shots and all(s.stat().st_mtime >= started for s in shots):
        terminalreporter.write_line(f"screenshots of the page: {len(shots)} in {ARTIFACTS}")
