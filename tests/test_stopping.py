"""Ctrl-C and SIGTERM reach a compiled kernel in the middle of a call.

p3c10nb's fewest-at-worst search spends many minutes in one kernel call (its first
guess's biggest part, one task); before :mod:`optimal_mm.stopping`, Ctrl-C, ``kill``
and ``timeout`` all waited for that call to return. Here the signal is sent once that
call has begun, and the command must stop with its usual one line and status. A
handler that does not raise lets the stopped call run again: the search must then
end with the same value and tree as an undisturbed one (what the transposition
table kept from the stopped call is exact). No assertion depends on the machine's
speed beyond the generous limits that keep a broken build from hanging the run.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from optimal_mm import search, stopping
from optimal_mm import search_context
from optimal_mm._search_arrays import STOP, STOP_SIGNALS, new_stats

ROOT = Path(__file__).resolve().parents[1]
#: The phase whose first task is one kernel call of many minutes.
LONG_PHASE = "fewest-at-worst: first guess 012 exact: 0/"


def _start_long_solve(tmp_path) -> tuple[subprocess.Popen, str]:
    """``solve p3c10nb --objective fewest-at-worst --jobs 1`` as a child, returned
    once its long kernel call has begun (with what it wrote to stderr so far)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = subprocess.Popen(
        [sys.executable, "-m", "optimal_mm", "solve", "p3c10nb", "--objective",
         "fewest-at-worst", "--jobs", "1", "-o", str(tmp_path / "tree.json"),
         "--progress-interval", "0"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    err, deadline = "", time.monotonic() + 300
    while LONG_PHASE not in err and time.monotonic() < deadline and run.poll() is None:
        ready, _, _ = select.select([run.stderr], [], [], 1.0)
        if ready:
            err += os.read(run.stderr.fileno(), 65536).decode()
    if LONG_PHASE not in err:
        run.kill()
        pytest.fail(f"the long phase never began: {err}")
    time.sleep(1.0)  # well inside the call
    return run, err


@pytest.mark.parametrize("signum, status, word", [(signal.SIGINT, 130, "interrupted"),
                                                  (signal.SIGTERM, 143, "terminated")])
def test_a_signal_stops_a_long_kernel_call(tmp_path, signum, status, word):
    run, err = _start_long_solve(tmp_path)
    os.kill(run.pid, signum)
    try:
        _, rest = run.communicate(timeout=60)  # the call itself runs for many minutes
    except subprocess.TimeoutExpired:
        run.kill()
        run.communicate()
        pytest.fail("the kernel call went on after the signal")
    err += rest
    assert run.returncode == status, err
    assert "Traceback" not in err
    assert err.rstrip().splitlines()[-1].startswith(f"optimal-mm solve: {word} (so far:")
    assert not (tmp_path / "tree.json").exists()


@pytest.mark.parametrize("spec, objective", [("p4c6b", "expected"), ("p4c6b", "worst-case"),
                                             ("p4c6", "expected")])
def test_a_handler_that_returns_lets_the_search_finish_exactly(spec, objective):
    """SIGINT every few milliseconds, to a handler that only counts: calls are stopped
    and made again, and the answer is the undisturbed search's, tree and all.

    Whether a signal lands inside a kernel call is a matter of timing (mastermind's
    whole search is some 0.1 s), so the disturbed search is run again, each time
    checked against the calm one, until one of its calls was restarted."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    search_context._CONTEXTS.clear()  # a fresh transposition table for each search
    calm = search.solve(spec, objective, jobs=1)
    expected = _tree_doc(calm)
    before = stopping.restarted
    for _ in range(ATTEMPTS):
        disturbed, seen = _pestered(lambda: search.solve(spec, objective, jobs=1), before)
        assert seen, "no signal arrived"
        assert disturbed.value == calm.value
        assert _tree_doc(disturbed) == expected
        disturbed.strategy.validate()
        if objective != "expected" or stopping.restarted > before:
            break
    if objective == "expected":  # most of its time is in kernel calls of ~10 ms and more
        assert stopping.restarted > before, f"no kernel call restarted in {ATTEMPTS} searches"


#: How many pestered searches may pass before one has a kernel call restarted.
ATTEMPTS = 20


def _tree_doc(solution) -> dict:
    """The strategy's JSON document without its metadata (which holds timings)."""
    doc = json.loads(json.dumps(solution.strategy.to_dict()))
    doc.pop("meta")
    return doc


def _pestered(run, before) -> tuple:
    """``run()`` with SIGINT sent every 3 ms to a handler that only counts, until three
    kernel calls past ``before`` were restarted: its result, and the signals seen."""
    seen = []
    previous = signal.signal(signal.SIGINT, lambda *_: seen.append(1))
    done = threading.Event()

    def pester():
        while not done.wait(0.003) and stopping.restarted < before + 3:
            os.kill(os.getpid(), signal.SIGINT)

    thread = threading.Thread(target=pester)
    search_context._CONTEXTS.clear()  # a fresh transposition table for each search
    thread.start()
    try:
        result = run()
    finally:
        done.set()
        thread.join()
        signal.signal(signal.SIGINT, previous)
    return result, seen


def test_the_stop_slot_reads_stop_signals_only():
    assert stopping.stop_signal_in(0) is False
    assert stopping.stop_signal_in(int(signal.SIGINT)) is True
    # Another signal first (SIGCHLD), then SIGTERM in the next byte.
    assert stopping.stop_signal_in(int(signal.SIGCHLD) | int(signal.SIGTERM) << 8) is True
    assert stopping.stop_signal_in(int(signal.SIGCHLD) | int(signal.SIGWINCH) << 8) is False
    # SIGALRM is a time limit's (optimal_mm.stopping.time_limit, tests/test_time_limit.py).
    assert stopping.stop_signal_in(int(signal.SIGCHLD) | int(signal.SIGALRM) << 8) is True
    assert set(STOP_SIGNALS) == {int(signal.SIGINT), int(signal.SIGTERM), int(signal.SIGALRM)}


def test_counters_pass_through_and_the_page_is_left_clean():
    """What a kernel counts reaches the caller's counters; the stop slot is zero after
    each call, whether or not a signal came."""
    counters = new_stats()
    counters[:STOP] = [1, 2, 3, 4, 5]

    def kernel(stats):
        assert stats[STOP] == 0 and list(stats[:STOP]) == [1, 2, 3, 4, 5]
        stats[0] += 10
        return "done"

    assert stopping.run(kernel, counters) == "done"
    assert list(counters) == [11, 2, 3, 4, 5, 0]
    page = stopping._armable_page()
    if page is not None:
        assert page.stats[STOP] == 0
        assert np.shares_memory(page.stats, np.frombuffer(page._map, dtype=np.int64))
