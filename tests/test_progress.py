"""Progress lines in a log (:mod:`optimal_mm.progress`): what a long run tells a person
reading its log, and that it does not bury them.

A chain's rivals are phases of a task or two, by the thousand: p5c6b's capped run
wrote 33 MB of their lines in 74 minutes, two lines a phase. A log now tells at most
``burst`` phases an interval; a long phase still tells its progress every interval.
"""

from __future__ import annotations

import doctest
import io

from optimal_mm import progress
from optimal_mm.progress import LogProgress, QuietProgress, TeeProgress


def test_doctests():
    result = doctest.testmod(progress)
    assert result.attempted and not result.failed


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_phases_by_the_thousand_write_a_few_lines_an_interval():
    out, clock = io.StringIO(), _Clock()
    log = LogProgress(out, interval=120, clock=clock, burst=20)
    for k in range(100_000):  # 2,000 s of phases of two 10-ms tasks
        log.phase(f"expected: rival {k}", total=2)
        for _ in range(2):
            clock.now += 0.01
            log.advance()
    lines = out.getvalue().splitlines()
    intervals = -(-2000 // 120)
    assert 20 * (intervals - 1) <= len(lines) <= 20 * intervals
    # Every phase told is told whole: its first line, then its last
    assert all(a.endswith("0/2 tasks") and b.endswith("phase done in 0:00:00")
               for a, b in zip(lines[::2], lines[1::2]))


def test_a_long_phase_after_a_burst_still_tells_its_progress():
    out, clock = io.StringIO(), _Clock()
    log = LogProgress(out, interval=60, clock=clock, burst=2)
    for k in range(3):  # the third is not told
        log.phase(f"expected: rival {k}", total=1)
        log.advance()
    log.phase("expected: the long one", total=3)
    for _ in range(3):
        clock.now += 50
        log.advance()
    lines = out.getvalue().splitlines()
    assert [line.split("] ")[1] for line in lines] == [
        "expected: rival 0: 0/1 tasks", "expected: rival 0: 1/1 tasks, phase done in 0:00:00",
        "expected: the long one: 2/3 tasks, eta 0:00:50",
        "expected: the long one: 3/3 tasks, phase done in 0:02:30"]


def test_no_interval_tells_everything():
    out, clock = io.StringIO(), _Clock()
    log = LogProgress(out, interval=0, clock=clock, burst=1)
    for k in range(50):
        log.phase(f"expected: rival {k}", total=1)
        log.advance()
    assert len(out.getvalue().splitlines()) == 100


def test_a_tee_tells_each_display_and_a_prefix_names_the_search():
    out = io.StringIO()
    quiet = QuietProgress()
    tee = TeeProgress(quiet, LogProgress(out, interval=0, prefix="p3c4/any/expected "))
    tee.phase("expected: first guess 123 exact", total=1)
    tee.update(best=206)
    tee.advance()
    tee.message("first guess 123: total 206")
    tee.reset()
    assert quiet.so_far() == "" and tee.so_far() == ""
    assert all(line.startswith("p3c4/any/expected ") for line in out.getvalue().splitlines())
    assert "best 206" in out.getvalue()
