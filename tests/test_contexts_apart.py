"""A one-job run with a checkpoint and a silent display computes its tasks in this
process, each in search contexts of the session's own (search_context.ContextsApart,
the runner's ``apart``), as the worker process it had until 2026-12-07 kept them; with
a display that tells time, still in that worker."""

from __future__ import annotations

import os

from optimal_mm import Game, search_context
from optimal_mm.progress import (BarProgress, LogProgress, PhasesHidden, Progress,
                                 QuietProgress, TeeProgress)
from optimal_mm.runner import TaskRunner
from optimal_mm.search import Solver
from optimal_mm.search_context import ContextsApart, _context


_SEEN: list = []  # keeps every context a task saw alive, so no two share an id()


def _context_seen(game, consistent, entries, symmetry, tag):
    """A task: the pid it ran in and the identity of the context it was given (the
    context is kept in ``_SEEN``: a freed one's id could be given to the next)."""
    ctx = _context(game, consistent, entries, symmetry)
    _SEEN.append(ctx)
    return os.getpid(), id(ctx)


def test_tasks_apart_share_a_context_of_their_session_alone():
    game = Game.from_spec("p2c3")
    common = (game, False, 1_001, True)
    own = _context(*common)  # this process's, as a solver's probes use it
    runner = TaskRunner(1, "loky", None, Progress(), apart=ContextsApart)
    runner.prepare(common)
    first = runner.run(_context_seen, [("a",), ("b",)])
    assert {pid for pid, _ in first} == {os.getpid()}  # computed here
    assert first[0][1] == first[1][1] != id(own)  # one context, the session's own
    assert _context(*common) is own  # this process's is put back after each task
    runner.prepare(common)  # a new session starts with a new store
    (again,) = runner.run(_context_seen, [("c",)])
    assert again[1] not in (first[0][1], id(own))
    assert search_context._CONTEXTS.get(common) is own


def test_the_apart_store_is_put_back_even_when_a_task_fails():
    game = Game.from_spec("p2c3")
    own = _context(game, False, 1_003, True)
    apart = ContextsApart()
    try:
        with apart:
            inner = _context(game, False, 1_003, True)
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    assert inner is not own and _context(game, False, 1_003, True) is own
    with apart:  # the same store again: the session's context is kept between tasks
        assert _context(game, False, 1_003, True) is inner


def test_a_one_job_solve_with_a_checkpoint_computes_here_and_plans_two_tables(tmp_path):
    game = Game.from_spec("p3c4")
    plain = Solver(game, jobs=1).solve("expected")
    solver = Solver(game, jobs=1, checkpoint=tmp_path)
    assert not solver._runner.isolated and solver._runner.apart is ContextsApart
    # The probes' tables and the tasks' own, as when a worker held the second
    assert solver.memory_plan("expected").processes == 2
    assert Solver(game, jobs=1).memory_plan("expected").processes == 1
    sol = solver.solve("expected")
    assert solver._runner._solo is None  # no worker process was started
    assert solver._runner._apart is None  # the session's tables freed as it ended
    assert sol.value == plain.value
    assert sol.strategy.root.to_dict() == plain.strategy.root.to_dict()
    assert solver.checkpoint.stored > 0
    # Several jobs still send every task to the workers
    assert Solver(game, jobs=2, checkpoint=tmp_path / "two")._runner.isolated


def test_a_display_that_tells_time_keeps_the_one_worker(tmp_path):
    # A compiled call holds the interpreter: only a parent that waits on a worker ticks
    # a log or a bar while a task takes hours.
    import io

    game = Game.from_spec("p3c4")
    log = LogProgress(io.StringIO(), interval=60)
    for display, worker in [(log, True), (TeeProgress(QuietProgress(), log), True),
                            (PhasesHidden(log), True), (BarProgress(io.StringIO()), True),
                            (QuietProgress(), False), (Progress(), False)]:
        assert display.tells_time is worker, display
        solver = Solver(game, jobs=1, checkpoint=tmp_path, progress=display)
        assert solver._runner.isolated is worker, display
        assert (solver._runner.apart is None) is worker, display
    assert not Solver(game, jobs=1, progress=log)._runner.isolated  # no checkpoint: here
