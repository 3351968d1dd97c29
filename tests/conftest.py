"""Fixtures shared by the tests, and the run's closing line on the page's screenshots.

The default run is spread over the machine's cores by pytest-xdist (``-n auto
--dist loadfile`` in pyproject.toml): each test module runs whole, in its order, in
one worker, so a module's fixtures (a browser, a numbered series of screenshots) are
never shared between processes. ``-n 0`` runs everything in this process.
"""

import time
from pathlib import Path

import pytest

from optimal_mm import Game

#: Where tests/test_web_page.py keeps a screenshot of every page state it reaches.
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "browser"


@pytest.fixture(scope="session")
def mastermind():
    return Game.from_spec("mastermind")


@pytest.fixture(scope="session")
def bulls():
    return Game.from_spec("bulls-and-cows")


def pytest_sessionstart(session):
    session.config._started_at = time.time()


def pytest_terminal_summary(terminalreporter, config):
    """Name the screenshot directory when this run wrote screenshots (in any worker)."""
    started = getattr(config, "_started_at", None)
    shots = sorted(ARTIFACTS.glob("*.png")) if ARTIFACTS.is_dir() else []
    if started is not None and shots and all(s.stat().st_mtime >= started for s in shots):
        terminalreporter.write_line(f"screenshots of the page: {len(shots)} in {ARTIFACTS}")
