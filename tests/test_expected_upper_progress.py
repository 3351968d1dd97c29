"""An expected-case run tells its progress an upper bound before its big parts end.

Phase 1 solves the most promising first guess part by part; a big part is split by
its second guesses, and its rivals can run for hours (p4c8nb past 900 s). As soon as
the first batch is done, the first guess with each big part under its first second
guess is a complete tree, and its total is reported as the best so far: a run
stopped there still has an upper bound. Checked on mastermind with every part of 60
secrets or more split: the first ``best`` arrives while the big parts' rivals are
still to be searched, is at least the optimum, and the bests only fall to it.
"""

from __future__ import annotations

from optimal_mm import Game, search_expected
from optimal_mm.progress import Progress
from optimal_mm.search import Solver


class Recorder(Progress):
    def __init__(self):
        self.events = []

    def phase(self, label, total, done=0):
        self.events.append(("phase", label))

    def update(self, best=None, bound=None):
        if best is not None:
            self.events.append(("best", best))


def test_the_first_batch_gives_an_upper_bound(monkeypatch):
    monkeypatch.setattr(search_expected, "SPLIT_SECRETS", 60)
    progress = Recorder()
    sol = Solver(Game.from_spec("mastermind"), jobs=1, progress=progress,
                 table_entries=60_001).solve("expected")
    assert sol.value == 5625
    events = progress.events
    bests = [v for kind, v in events if kind == "best"]
    first_best = next(i for i, (kind, _) in enumerate(events) if kind == "best")
    rivals = [i for i, (kind, label) in enumerate(events)
              if kind == "phase" and "rivals of" in label]
    assert rivals and first_best < rivals[0]  # before the big parts' rivals are searched
    assert bests[0] >= sol.value and bests[-1] == sol.value
    assert bests == sorted(bests, reverse=True)


class Bounds(Progress):
    def __init__(self):
        self.bounds = []

    def update(self, best=None, bound=None):
        if bound is not None:
            self.bounds.append(bound)


def test_no_bound_is_told_where_no_tree_fits_the_cap():
    # Mastermind within 4 guesses: every first guess's parts cost INF; the search
    # once told that as its bound (3,298,534,884,679); it tells none, and the proof
    # says why.
    progress = Bounds()
    sol = Solver(Game.from_spec("mastermind"), jobs=1, progress=progress).solve(
        "expected", 4)
    assert sol.value is None and progress.bounds == []
    assert sol.proof[-1] == "impossible within 4 guesses"
    progress = Bounds()
    Solver(Game.from_spec("mastermind"), jobs=1, progress=progress).solve("expected", 5)
    assert progress.bounds and max(progress.bounds) == 5626
