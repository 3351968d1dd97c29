"""Fixtures shared by the tests, and the run's closing line on the page's screenshots.

The default run is spread over the machine's cores by pytest-xdist (``-n auto
--dist loadfile`` in pyproject.toml): each test module runs whole, in its order, in
one worker, so a module's fixtures (a browser, a numbered series of screenshots) are
never shared between processes. ``-n 0`` runs everything in this process.

The tests' temporary folders (``tmp_path``) live in memory, under /dev/shm, where
it is a tmpfs with room to spare (:func:`pytest_configure`): the checkpoints the
tests write are many small files, each written with ``fsync`` and replaced
atomically, and on a slow virtual disk the syncs and the removal of old runs' folders
cost a sixth of the tier's time (cProfile of six modules on a 2-core VM: 23 s in
``fsync``, 26 s in ``unlink``, of 319 s). ``--basetemp DIR`` puts them back on disk.

Ctrl-C is the terminal's in every process of the run (:func:`pytest_sessionstart`),
whatever started it: the tests that send it, to the package or to a command they
start, expect a KeyboardInterrupt and the exit status 130.
"""

import contextlib
import faulthandler
import glob
import os
import shutil
import signal
import sys
import tempfile
import time

import pytest

from browser_artifacts import ARTIFACTS
from optimal_mm import Game

_STARTED = pytest.StashKey[float]()
_IN_MEMORY = pytest.StashKey[str]()
_FAILED = pytest.StashKey[bool]()
# /dev/shm is used when it is a writable folder with at least this much free room
# (a container's default of 64 MiB is too small for the tests' checkpoints).
_MEMORY_ROOM = 2 << 30
# A failed run's folder is kept for a look, and removed by the first run a day later.
_KEEP_FAILED_SECONDS = 24 * 3600
# A process of the run still alive this long after its tests prints its threads' stacks.
_END_WATCH_SECONDS = 120


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
    from optimal_mm import search_parts

    runs = {}

    def run(rebuild="kept"):
        if rebuild not in runs:
            folder = tmp_path_factory.mktemp(f"mastermind-60-{rebuild}")
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(search_parts, "SPLIT_SECRETS", 60)
                if rebuild != "kept":
                    rivals_without_trees(patch, rebuild)
                solver = search.Solver(Game.from_spec("mastermind"), jobs=1,
                                       checkpoint=folder, table_entries=60_003)
                runs[rebuild] = folder, solver, solver.solve("expected")
        return runs[rebuild]

    return run


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Give the run a fresh base folder in memory, before pytest reads its option.

    Only the controlling process chooses it: pytest-xdist hands each worker a folder
    inside it. A run that passes removes it at its end; one that fails keeps it and
    names it (as pytest keeps its own last runs' folders) for a day."""
    if config.option.basetemp is not None or hasattr(config, "workerinput"):
        return
    try:
        stats = os.statvfs("/dev/shm")
    except OSError:
        return
    if stats.f_bavail * stats.f_frsize < _MEMORY_ROOM or not os.access("/dev/shm", os.W_OK):
        return
    # Failed runs' folders, a day old or more
    for old in glob.glob("/dev/shm/optimal_mm-tests-*"):
        try:
            if time.time() - os.stat(old).st_mtime > _KEEP_FAILED_SECONDS:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            pass
    folder = tempfile.mkdtemp(prefix="optimal_mm-tests-", dir="/dev/shm")
    config.option.basetemp = folder
    config.stash[_IN_MEMORY] = folder


def pytest_sessionfinish(session, exitstatus):
    session.config.stash[_FAILED] = exitstatus != 0
    _watch_the_end()


def _watch_the_end():
    """Print every thread's stack if this process is still alive
    :data:`_END_WATCH_SECONDS` after its tests are done, in the controller and in each
    worker alike.

    A default tier once stopped so (2026-12-06, at 0ecb7d9): in its session finish
    the controller waited, idle, until ``timeout`` ended the run at 580 s, and nothing
    told which process waited for what; the eight runs after it passed. A stuck test prints
    its stack by itself (``faulthandler_timeout`` in pyproject.toml); this covers what
    comes after the last test: xdist's shutdown, the interpreter's exit, threads and
    pools joined there. A process that ends in time never prints."""
    with contextlib.suppress(AttributeError, OSError, ValueError):  # no stderr to write to
        faulthandler.dump_traceback_later(_END_WATCH_SECONDS, file=sys.__stderr__)


def pytest_unconfigure(config):
    folder = config.stash.get(_IN_MEMORY, None)
    if folder is not None and not config.stash.get(_FAILED, True):
        shutil.rmtree(folder, ignore_errors=True)


def pytest_sessionstart(session):
    session.config.stash[_STARTED] = time.time()
    _ctrl_c_as_in_a_terminal()


def _ctrl_c_as_in_a_terminal():
    """Have SIGINT raise KeyboardInterrupt here and end the commands the tests start,
    where this process was given it ignored. A shell script's background job
    (``pytest ... &`` without job control) starts so, and Python then leaves it
    ignored: a test's own ``raise_signal(SIGINT)`` did nothing, and a command started
    by a test inherited the ignoring and ran to its end (three tests failed so, and
    seven of the slow tier). A handled signal is reset to the default in a command
    started by ``exec``, so those behave as a terminal's foreground commands do."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Name the screenshot directory when this run wrote screenshots (in any worker)."""
    started = config.stash.get(_STARTED, None)
    shots = sorted(ARTIFACTS.glob("*.png")) if ARTIFACTS.is_dir() else []
    if started is not None and shots and all(s.stat().st_mtime >= started for s in shots):
        terminalreporter.write_line(f"screenshots of the page: {len(shots)} in {ARTIFACTS}")
    folder = config.stash.get(_IN_MEMORY, None)
    if folder is not None and exitstatus != 0:
        terminalreporter.write_line(f"the tests' temporary folders are kept in {folder}")
