"""An expected-case run's proven lower bound rises while it solves its first guess.

A run stopped in phase 1 (the most promising first guess solved part by part) keeps
the bound it last reported: the optimal table's ``>= L`` of a cell that timed out.
That bound was the first guess's, fixed for the whole phase: p5c8nb's consistent
total, whose only first guess (up to symmetry) has three parts of 710 to 3,539
secrets raced for five sittings, stayed at 43830, the balanced-tree bound of those
parts' sizes. Now each part counts at the best bound known for it
(:class:`~optimal_mm.search_parts.PartsFloor`): its exact value once solved, and,
while its race runs, the least over its guesses of what each costs at least, two
guesses deep for a big part (:meth:`~optimal_mm.search_parts.PartSolving._part_low`).

Checked here: the deeper bound of every part never exceeds the part's optimum (the
compiled search's value), for any and consistent guesses, with and without a cap,
and for the cost of the fewest secrets at the cap; and a run whose big parts are
raced (mastermind, parts of 60 secrets or more split) reports bounds that only rise,
stay at or below the optimum, end at it, and have risen above the first guess's own
bound before the first race begins, which is what a stopped run keeps.
"""

from __future__ import annotations

import re

import pytest

from optimal_mm import Game, search_parts
from optimal_mm._search_arrays import INF, NO_CAP
from optimal_mm.progress import Progress
from optimal_mm.search import Solver
from optimal_mm.search_context import _part_guesses
from optimal_mm.search_costs import CappedCost, cap_weight


@pytest.mark.parametrize("spec, guesses, cap, weighted", [
    ("mastermind", "any", None, False),
    ("mastermind", "consistent", None, False),
    ("p4c5", "any", 5, False),
    ("p4c5", "any", 5, True),
    ("p4c6nb", "consistent", None, False),
])
def test_a_part_s_deeper_bound_never_exceeds_its_optimum(spec, guesses, cap, weighted):
    game = Game.from_spec(spec)
    solver = Solver(game, guesses=guesses, jobs=1)
    weight = cap_weight(game, cap) if weighted else 0
    d = NO_CAP if cap is None else cap - 1  # guesses left in a part of the first guess
    with solver._session("expected", cap):
        first = solver.first_guess_order(d, weight)[0][0]
        rose = 0
        for _, part in solver.first_guess_parts(first):
            lows = [solver._part_low((first,), part, d, weight, k) for k in range(3)]
            top = _part_guesses(game, (first,), part, solver.consistent, solver.symmetry)
            exact, _ = solver._ctx.exp(part, INF, d, top, weight)
            assert lows == sorted(lows)  # a deeper bound is never lower
            assert lows[-1] <= exact, (len(part), lows, exact)
            rose += lows[-1] > lows[0]
        assert rose  # and it says more than the part's size does


class Bounds(Progress):
    """The phases begun and the bounds and bests told, in order (those after the last
    ``reset``: fewest-at-worst's worst-case search before it reports depths)."""

    def __init__(self):
        self.events = []

    def reset(self):
        self.events = []

    def phase(self, label, total, done=0):
        self.events.append(("phase", label))

    def update(self, best=None, bound=None):
        if bound is not None:
            self.events.append(("bound", bound))


class StopAtRace(Bounds):
    """Stops the search (KeyboardInterrupt) as the first race of a part's rivals
    begins, as a run's time limit may."""

    def phase(self, label, total, done=0):
        super().phase(label, total, done)
        if "rivals of" in label:
            raise KeyboardInterrupt


def _pair(value):
    """A cost as the display is told it, as (secrets at the cap, total)."""
    return (value.at_cap, value.total) if isinstance(value, CappedCost) else (0, value)


@pytest.mark.parametrize("objective, cap", [("expected", None), ("fewest-at-worst", 6)])
def test_the_bound_rises_in_phase_one_to_the_optimum(monkeypatch, objective, cap):
    # Parts of 60 secrets or more raced, those of 200 or more bounded two guesses deep
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    monkeypatch.setattr(search_parts, "LOW_SECRETS", 200)
    game = Game.from_spec("mastermind")
    progress = Bounds()
    solver = Solver(game, jobs=1, chain_secrets=20, table_entries=60_001, progress=progress)
    sol = solver.solve(objective, cap)
    optimum = ((sol.value, sol.strategy.declared.total) if objective == "fewest-at-worst"
               else (0, sol.value))
    bounds = [_pair(v) for kind, v in progress.events if kind == "bound"]
    assert bounds == sorted(bounds) and bounds[-1] == optimum
    races = [i for i, (kind, label) in enumerate(progress.events)
             if kind == "phase" and "rivals of" in label]
    before = [_pair(v) for kind, v in progress.events[:races[0]] if kind == "bound"]
    assert before[-1] > before[0]  # risen above the first guess's own bound

    stopped = StopAtRace()
    with pytest.raises(KeyboardInterrupt):
        Solver(game, jobs=1, chain_secrets=20, table_entries=60_001,
               progress=stopped).solve(objective, cap)
    kept = [_pair(v) for kind, v in stopped.events if kind == "bound"]
    assert kept == before  # what the stopped run keeps: the risen bound


def test_a_big_part_s_bound_rises_as_its_race_answers_rivals(monkeypatch):
    # Each part's bound, as it rises, never passes the part's exact value (its last
    # rise, once solved); and after the races begin (every pending part below the
    # big parts solved by then), a big part rises short of its value: its rivals
    # answered, the least bound of those left went up.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    monkeypatch.setattr(search_parts, "LOW_SECRETS", 200)
    progress = Bounds()
    rise = search_parts.PartsFloor.rise

    def recorded(self, i, value):
        progress.events.append(("rise", (i, int(min(value, INF)))))
        rise(self, i, value)

    monkeypatch.setattr(search_parts.PartsFloor, "rise", recorded)
    Solver(Game.from_spec("mastermind"), jobs=1, chain_secrets=20, table_entries=60_001,
           progress=progress).solve("expected")
    rises = [(k, i, v) for k, (kind, item) in enumerate(progress.events) if kind == "rise"
             for i, v in [item]]
    final = {i: v for _, i, v in rises}  # each part's last: its exact value
    assert all(v <= final[i] for _, i, v in rises)
    race = next(k for k, (kind, label) in enumerate(progress.events)
                if kind == "phase" and _big_race(label))
    assert any(k > race and v < final[i] for k, i, v in rises)


def _big_race(label) -> bool:
    """Whether a phase is the race of a big part's rivals: 60 secrets or more, after
    1123 alone (the split parts' races before it are smaller, or deeper)."""
    found = re.search(r"\((\d+) secrets after 1123\)", label)
    return "rivals of" in label and found is not None and int(found.group(1)) >= 60


@pytest.mark.parametrize("guesses, cap", [("any", None), ("consistent", None), ("any", 6),
                                          ("consistent", 7)])
def test_a_single_first_guess_s_bound_rises_to_the_optimum(monkeypatch, guesses, cap):
    # p4c6n, like p5c8nb, has one first guess up to symmetry: its probed bound is the
    # balanced-tree bound of the parts' sizes, and the bound a run tells rises from
    # there to the optimum within phase 1, every step a bound. Parts of 40 secrets
    # or more are raced (88, 84 and 72), and bounded two guesses deep; from 15, the
    # parts below them are split by their own guesses.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 40)
    monkeypatch.setattr(search_parts, "LOW_SECRETS", 40)
    game = Game.from_spec("p4c6n")
    progress = Bounds()
    solver = Solver(game, guesses=guesses, jobs=1, chain_secrets=15, progress=progress)
    (_, first_bound), = solver.first_guess_order(NO_CAP if cap is None else cap - 1)
    sol = solver.solve("expected", cap)
    bounds = [v for kind, v in progress.events if kind == "bound"]
    # (Before, the bound stayed at the first, 1330, until the end: with no rival
    # first guess, nothing raised it.)
    assert bounds[0] == first_bound
    assert bounds == sorted(set(bounds)) and bounds[-1] == sol.value and len(bounds) > 5

    # Stopped as the first batch begins (it may take hours: p5c8nb's with any
    # guesses), a run has raised its big parts to their own bounds already
    stopped = StopAtBatch()
    with pytest.raises(KeyboardInterrupt):
        Solver(game, guesses=guesses, jobs=1, chain_secrets=15,
               progress=stopped).solve("expected", cap)
    kept = [v for kind, v in stopped.events if kind == "bound"]
    assert kept[0] == first_bound < kept[-1] < sol.value


class StopAtBatch(Bounds):
    """Stops the search (KeyboardInterrupt) as the first guess's batch begins."""

    def phase(self, label, total, done=0):
        super().phase(label, total, done)
        if "exact" in label:
            raise KeyboardInterrupt
