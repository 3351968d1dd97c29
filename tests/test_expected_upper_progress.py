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

import numpy as np
import pytest

from optimal_mm import Game, search_parts
from optimal_mm._search_arrays import NO_CAP
from optimal_mm.progress import Progress
from optimal_mm.search_costs import CappedCost
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
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
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


def _pair(best):
    """A best as the display is told it, as (secrets at the cap, total)."""
    return (best.at_cap, best.total) if isinstance(best, CappedCost) else (0, best)


class StopAtRace(Recorder):
    """Records as :class:`Recorder` does; stops the search (KeyboardInterrupt) as the
    first race of a part's rival guesses begins."""

    def phase(self, label, total, done=0):
        super().phase(label, total, done)
        if "rivals of" in label:
            raise KeyboardInterrupt


@pytest.mark.parametrize("objective, cap, chain", [("expected", None, 20),
                                                 ("fewest-at-worst", 6, 20),
                                                 ("expected", None, 8)])
def test_a_part_split_by_its_own_guesses_counts_under_its_first_guess(monkeypatch,
                                                                      objective, cap,
                                                                      chain):
    # p6c7n's fewest at the worst depth (2026-12-04): its 264 secrets after 123456,
    # fewer than the big parts' 500 but more than --chain-secrets 250, are split by
    # their own guesses inside the first batch, and their race ran for hours over four
    # sessions with no tree told: the table had no upper bound. Such a part now
    # counts under its first guess (its parts solved exactly) until its race ends.
    # Mastermind, parts of 60 secrets or more big, 20 to 59 split by their guesses:
    # the first best comes before any race, a run stopped as the first race begins
    # keeps that complete tree, and the bests fall to the optimum. (Within 5 guesses,
    # the fewest at the worst depth has parts whose first guess keeps no tree within
    # the cap: no complete tree before their races; within 6, each has one.) From 8
    # secrets, parts are split below split parts: those too wait under their first
    # guess (p6c7nb's first batch raced thousands of guesses three deep).
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    game = Game.from_spec("mastermind")
    plain = Solver(game, jobs=1, table_entries=60_001).solve(objective, cap)
    solver = Solver(game, jobs=1, chain_secrets=chain, table_entries=60_001)
    first = solver.first_guess_order(NO_CAP)[0][0]
    sizes = [len(part) for _, part in solver.first_guess_parts(first)]
    assert any(chain <= n < 60 for n in sizes)  # a part split by its own guesses

    progress = Recorder()
    sol = Solver(game, jobs=1, chain_secrets=chain, table_entries=60_001,
                 progress=progress).solve(objective, cap)
    assert sol.value == plain.value
    # (fewest-at-worst first proves the worst case, whose best is a number of guesses)
    told = [(i, _pair(v)) for i, (kind, v) in enumerate(progress.events) if kind == "best"
            and (objective == "expected" or isinstance(v, CappedCost))]
    bests = [pair for _, pair in told]
    first_best = told[0][0]
    events = progress.events
    races = [i for i, (kind, label) in enumerate(events)
             if kind == "phase" and "rivals of" in label]
    assert races and first_best < races[0]
    optimum = ((sol.value, sol.strategy.declared.total) if objective == "fewest-at-worst"
               else (0, sol.value))
    assert bests[0] >= optimum and bests[-1] == optimum
    assert bests == sorted(bests, reverse=True)

    stopped = Solver(game, jobs=1, chain_secrets=chain, table_entries=60_001,
                     progress=StopAtRace())
    with pytest.raises(KeyboardInterrupt):
        stopped.solve(objective, cap)
    best = stopped.best_so_far()
    assert best is not None and not best.optimal
    assert best.validate() == best.declared  # replayed for every secret
    assert best.root.guess == game.code_str(first)


def _subtree_cost(game, node, secrets, cap=None, left=None):
    """The guesses ``node``'s subtree takes to find each of ``secrets``, summed; with a
    ``cap``, ``(secrets found by the cap-th guess, that sum)``, ``left`` the guesses
    to the cap counting ``node``'s (the cap, at the root)."""
    answers = game.answers(game.code_index(node.guess), secrets)
    total, at_cap = len(secrets), 0
    if cap is not None and left is None:
        left = cap
    for a in np.unique(answers):
        if a == game.win:
            at_cap += int(np.sum(answers == a)) if left == 1 else 0
            continue
        sub = _subtree_cost(game, node.next[game.answer_str(int(a))], secrets[answers == a],
                            cap, None if left is None else left - 1)
        if cap is None:
            total += sub
        else:
            at_cap, total = at_cap + sub[0], total + sub[1]
    return total if cap is None else (at_cap, total)


@pytest.mark.parametrize("objective, cap", [("expected", None), ("fewest-at-worst", 6)])
def test_a_split_part_s_tree_counts_its_parts_solved_before_its_race(monkeypatch,
                                                                     objective, cap):
    # p6c7nb's expected case: the first guess's seven split parts have parts split
    # in turn, whose races outlast a run, before their parent's race; the best tree
    # kept them under their first guess all that time (33941 in the table).
    # Each now lowers the best tree as it is solved: when any split part begins its
    # race, the best tree, where it plays that part's history, holds it under its
    # first guess with each of that guess's parts solved exactly (the race's own
    # budget), or something better. Mastermind, parts of 60 secrets or more big,
    # parts of 8 or more split by their own guesses, at every depth.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    game = Game.from_spec("mastermind")
    solver = Solver(game, jobs=1, chain_secrets=8, table_entries=60_001)
    checked = []
    split_part = Solver._split_part_started

    def watched(self, history, part, plan, incumbent, d, weight, *args, **kwargs):
        best = self.best_so_far()
        node, secrets = best.root, np.asarray(part)
        for h in history:  # down the best tree along the part's history, if it plays it
            if node is None or node.guess != game.code_str(h):
                node = None
                break
            node = node.next.get(game.answer_str(int(game.answers(h, secrets[:1])[0])))
        if node is not None:
            costs = [_subtree_cost(game, node, secrets, cap,
                                   None if cap is None else cap - len(history))]
            costs.append(len(part) + sum(v for v, _ in incumbent.values()))
            if weight:  # the capped cost as the tree gives it: secrets at the cap first
                costs[0] = costs[0][0] * weight + costs[0][1]
            checked.append((len(history), *costs))
        return split_part(self, history, part, plan, incumbent, d, weight, *args, **kwargs)

    monkeypatch.setattr(Solver, "_split_part_started", watched)
    plain = Solver(game, jobs=1, table_entries=60_001).solve(objective, cap)
    assert solver.solve(objective, cap).value == plain.value
    assert {depth for depth, _, _ in checked} >= {1, 2}  # races one and two guesses deep
    assert all(kept <= exact for _, kept, exact in checked), checked
