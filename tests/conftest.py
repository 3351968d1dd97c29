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


def pytest_sessionstart(session):
    session.config.stash[_STARTED] = time.time()


def pytest_terminal_summary(terminalreporter, config):
    """Name the screenshot directory when this run wrote screenshots (in any worker)."""
    started = config.stash.get(_STARTED, None)
    shots = sorted(ARTIFACTS.glob("*.png")) if ARTIFACTS.is_dir() else []
    if started is not None and shots and all(s.stat().st_mtime >= started for s in shots):
        terminalreporter.write_line(f"screenshots of the page: {len(shots)} in {ARTIFACTS}")
