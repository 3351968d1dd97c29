"""A chain's big small parts are solved in batches of their first guesses
(:mod:`optimal_mm.search_batches`): the least answer over the batches, each under the
best found before it, must be the part's value as its one task finds it, under any
cap and cost, whatever order the batches finish in; and a run stopped between two
batches must resume from those saved.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from optimal_mm import Game, search, search_batches, search_parts, search_tasks
from optimal_mm._search_arrays import INF
from optimal_mm.checkpoint import read_entries
from optimal_mm.checkpoint_report import report
from optimal_mm.search import NO_CAP, Solver, cap_weight

SPLIT = 60  # mastermind's first guesses then have parts of 60 secrets or more
BATCH = 20  # and parts of 20 secrets or more are batched


def _value_tasks(solver, first, d, weight, least=BATCH):
    """The value tasks of mastermind's parts of ``least`` secrets or more after the
    guess ``first`` (and ``11``-first second guesses of the biggest), ``d`` left."""
    game = solver.game
    secrets = np.arange(game.n_codes, dtype=np.int64)
    parts = [p for _, p in solver._parts(game.code_index(first), secrets)]
    return [search_tasks.value_task((game.code_index(first),), p, d, weight)
            for p in parts if len(p) >= least]


def _one_task(game, task, consistent=False):
    """The value task's answer as one task computes it."""
    return search_tasks._exp_part_task(game, consistent, 60_001, True, *task)


@pytest.fixture()
def solver(monkeypatch):
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", SPLIT)
    monkeypatch.setattr(search_batches, "BATCH_SECRETS", BATCH)
    solver = Solver(Game.from_spec("mastermind"), jobs=1, table_entries=60_001)
    with solver._session("expected", None):
        yield solver


@pytest.mark.parametrize("cap", [None, 4, 3])
@pytest.mark.parametrize("fewest", [False, True])
def test_batches_give_the_parts_value(solver, cap, fewest):
    # No cap, a cap that every part meets and one that some miss (INF: no tree), with
    # the total or the fewest secrets at the cap as the cost: the least over the
    # batches is the one task's value, in any number of batches.
    game = solver.game
    d = NO_CAP if cap is None else cap
    weight = cap_weight(game, cap + 1) if fewest and cap is not None else 0
    tasks = _value_tasks(solver, "1123", d, weight)
    assert tasks
    seen_inf = False
    for task in tasks:
        one = _one_task(game, task)[0]
        seen_inf |= one >= INF
        ranked = [g for g, _ in solver.exp_second_guesses(task[0], task[1], d, weight)]
        if not ranked:
            assert one >= INF  # no guess fits: the search solves it as one task
            continue
        for k in (1, 3, 16):
            value, tree, _ = solver._batched_value(task, search_batches.cut(ranked, k), "t")
            assert (value, tree) == (one, None)
    assert seen_inf == (cap == 3)


def test_batches_of_consistent_guesses(monkeypatch):
    # With consistent guesses the first guesses are the part's own codes (one per
    # class): the least over their batches is the one task's value too.
    monkeypatch.setattr(search_batches, "BATCH_SECRETS", BATCH)
    game = Game.from_spec("mastermind")
    solver = Solver(game, guesses="consistent", jobs=1, table_entries=60_001)
    with solver._session("expected", None):
        tasks = _value_tasks(solver, "1123", NO_CAP, 0)
        for task in tasks:
            ranked = [g for g, _ in solver.exp_second_guesses(task[0], task[1], NO_CAP, 0)]
            assert set(ranked) <= set(task[1].tolist())
            value = solver._batched_value(task, search_batches.cut(ranked, 5), "t")[0]
            assert value == _one_task(game, task, consistent=True)[0]


def test_the_order_the_batches_finish_in_does_not_matter(solver):
    # Batches drawn all at once (every budget INF) or one after the other, their
    # answers taken in every order: the same value.
    game = solver.game
    task = max(_value_tasks(solver, "1122", NO_CAP, 0), key=lambda t: len(t[1]))
    one = _one_task(game, task)[0]
    ranked = [g for g, _ in solver.exp_second_guesses(task[0], task[1], NO_CAP, 0)]
    batches = search_batches.cut(ranked, 4)
    for order in itertools.permutations(range(4)):
        parts = search_batches.PartBatches(task, batches)
        drawn = [parts.next_task() for _ in batches]  # all at INF: as many workers
        assert all(a[3] == INF for a in drawn)
        for k in order:
            parts.found(search_tasks._exp_batch_task(game, False, 60_001, True, *drawn[k]))
        assert parts.result()[0] == one
    parts = search_batches.PartBatches(task, batches)
    budgets = []
    while (args := parts.next_task()) is not None:  # one worker: each under the best
        budgets.append(args[3])
        parts.found(search_tasks._exp_batch_task(game, False, 60_001, True, *args))
    assert parts.result()[0] == one and budgets[0] == INF and budgets[-1] == one


def test_small_parts_in_batches_answer_as_the_one_task(solver):
    # The chain's small parts, probed, then solved (the big ones in batches): the
    # answer of the one task that searched them all, below its bound or not.
    game = solver.game
    g = game.code_index("1123")
    secrets = np.arange(game.n_codes, dtype=np.int64)
    lb = solver._ctx.bounds(0)[NO_CAP]
    parts = [p for _, p in solver._parts(g, secrets)]
    small = [p for p in parts if len(p) < SPLIT]
    assert any(len(p) >= BATCH for p in small)
    lbs = [int(lb[len(p)]) for p in small]
    known = game.n_codes + sum(int(lb[len(p)]) for p in parts if len(p) >= SPLIT)
    exact = known + sum(int(solver._ctx.exp(p, INF, NO_CAP, None)[0]) for p in small)
    for bound in (exact, exact + 1):
        one, _, _ = search_tasks._exp_guess_task(game, False, 60_001, True, (), g, small,
                                                 lbs, known, bound, NO_CAP, 0)
        pieces, _, _ = solver._small_parts((), g, small, lbs, known, bound, NO_CAP, 0, "s")
        assert pieces == one == (exact if exact < bound else None)


def test_batches_on_two_workers(monkeypatch, tmp_path):
    # On a pool of two, a part's first batch runs alone (no budget), the rest under
    # the best so far, two at a time: the same values as one task each.
    monkeypatch.setattr(search_batches, "BATCH_SECRETS", BATCH)
    game = Game.from_spec("mastermind")
    pool = Solver(game, jobs=2, table_entries=60_001, checkpoint=tmp_path)
    with pool._session("expected", None):
        tasks = _value_tasks(pool, "1122", NO_CAP, 0)
        found = {}
        pool._solve_values(tasks, "t", lambda k, result: found.setdefault(k, result[0]))
    assert len(tasks) >= 5 and any(len(t[1]) >= 200 for t in tasks)
    assert found == {k: _one_task(game, t)[0] for k, t in enumerate(tasks)}
    budgets = [task["args"][3] for _, task, _, _ in read_entries(tmp_path)
               if task["function"] == "_exp_batch_task"]
    assert len(budgets) == search_batches.BATCHES * len(tasks)
    assert budgets.count(INF) == len(tasks)  # one batch a part


class StopAfter(search.Progress):
    """Raises KeyboardInterrupt once ``tasks`` tasks have finished."""

    def __init__(self, tasks):
        self.tasks, self.done = tasks, 0

    def phase(self, label, total, done=0):
        pass

    def advance(self, n=1, resumed=False):
        self.done += n
        if self.done == self.tasks:
            raise KeyboardInterrupt


def test_a_run_stopped_between_batches_keeps_those_done(tmp_path, monkeypatch):
    # Stopped after two batches of a part, a run keeps them; resumed, it computes only
    # the others, and saves the part's value as its value task's, which a third run
    # reads back alone.
    monkeypatch.setattr(search_batches, "BATCH_SECRETS", BATCH)
    game = Game.from_spec("mastermind")
    plain = Solver(game, jobs=1, table_entries=60_001)
    with plain._session("expected", None):
        task = max(_value_tasks(plain, "1122", NO_CAP, 0), key=lambda t: len(t[1]))
    one = _one_task(game, task)[0]

    def run(folder, progress=None):
        solver = Solver(game, jobs=1, table_entries=60_001, checkpoint=folder,
                        checkpoint_min_seconds=0, progress=progress)
        with solver._session("expected", None):
            results = {}
            solver._solve_values([task], "t", lambda k, r: results.setdefault(k, r))
        return solver, results

    with pytest.raises(KeyboardInterrupt):
        run(tmp_path, StopAfter(2))
    saved = read_entries(tmp_path)
    assert [task["function"] for _, task, _, _ in saved] == ["_exp_batch_task"] * 2
    again, results = run(tmp_path)
    assert results[0][0] == one
    assert again.checkpoint.loaded == 2
    functions = [task["function"] for _, task, _, _ in read_entries(tmp_path)]
    assert functions.count("_exp_part_task") == 1
    assert functions.count("_exp_batch_task") == search_batches.BATCHES
    third, results = run(tmp_path)
    assert results[0][0] == one
    assert third.checkpoint.loaded == 1 and third.checkpoint.stored == 0
    # The report counts the batches and the part's value as pieces of a chain's
    # small parts, and prices nothing by them
    (rep,) = report(tmp_path)
    assert rep.small_parts == search_batches.BATCHES + 1
    text = f"in batches of their first guesses): {search_batches.BATCHES + 1}"
    assert any(text in line for line in rep.lines())


def test_a_whole_solve_with_batched_small_parts(tmp_path):
    # p4c7's rival first guesses with parts of 500 secrets or more are chains, and
    # their small parts of 200 or more are batched at the search's own threshold:
    # the proven optimum all the same (11228, the table's), with batches in the
    # checkpoint.
    solver = Solver(Game.from_spec("p4c7"), jobs=2, split_secrets=500, checkpoint=tmp_path)
    assert solver.solve("expected").value == 11228
    functions = [task["function"] for _, task, _, _ in read_entries(tmp_path)]
    assert functions.count("_exp_batch_task") >= search_batches.BATCHES
