"""A checkpoint answers a rival under another budget (checkpoint.py, "Results under
another budget").

The rivals of a split part are a stream of tasks, each drawn when a worker is free
with the best total so far as its budget; with several workers a rival may be drawn
before the result of one still running is known, and earlier versions searched them
in rounds of one per worker, each round against the best total of the rounds before.
So the same rival's budget depends on ``--jobs``, on timing and on the version that
wrote the checkpoint. A resumed run must not search again the rivals it has
finished: their entries settle the same rivals under the new budgets whenever the
rule allows, and the rule never answers what the entry does not settle.
"""

from __future__ import annotations

import itertools
import json
import shutil

import numpy as np
import pytest

from optimal_mm import Game, search_parts, search_tasks
from optimal_mm.checkpoint import Checkpoint, task_key
from optimal_mm.runner import TaskRunner
from optimal_mm.search import Solver
from optimal_mm.search_tasks import _guess_answer, _guess_result_under

COUNTERS = np.zeros(4, dtype=np.int64)


@pytest.mark.parametrize("stored, ran, wanted, expected", [
    (120, 200, 150, 120),     # a total below both budgets carries over
    (120, 200, 500, 120),
    (120, 200, 120, None),    # ... and is "not better" under a budget it reaches
    (120, 200, 100, None),
    (None, 200, 150, None),   # "not below 200" is "not below 150"
    (None, 200, 200, None),
])
def test_rule_answers_what_the_entry_settles(stored, ran, wanted, expected):
    # An entry of an earlier version, (total, counters), and one that keeps the
    # trees of a rival that proved better, (total, trees, counters)
    trees = None if stored is None else [(stored - 3, (4, {}))]
    for result in ((stored, COUNTERS), (stored, trees, COUNTERS)):
        value, kept, counters = _guess_answer(_guess_result_under(result, ran, wanted))
        assert value == expected and counters is COUNTERS
        assert kept == (trees if value is not None and len(result) == 3 else None)


def test_rule_refuses_a_higher_budget_than_a_refutation():
    # "not below 200" says nothing about a budget of 250: computed again.
    assert _guess_result_under((None, COUNTERS), 200, 250) is None


def _rival_key(budget, part=(3, 5, 8)):
    args = ((1,), 7, [np.asarray(part, dtype=np.int64)], [5], 3, budget, 4, 0)
    return task_key("_exp_guess_task", args)


def test_checkpoint_finds_the_same_task_under_another_budget(tmp_path):
    cp = Checkpoint(tmp_path, {"game": "p2c3"})
    cp.put(_rival_key(300), (None, COUNTERS))
    cp.put(_rival_key(400, part=(1, 2)), (250, COUNTERS))
    fresh = Checkpoint(tmp_path, {"game": "p2c3"})
    assert fresh.get(_rival_key(280)) is None  # not this budget's own entry

    def adapt(wanted):
        return lambda result, ran: _guess_result_under(result, ran, wanted)

    assert fresh.reuse(_rival_key(280), 5, adapt(280))[0] is None
    assert fresh.reuse(_rival_key(350), 5, adapt(350)) is None  # higher: not settled
    assert fresh.reuse(_rival_key(260, part=(1, 2)), 5, adapt(260))[0] == 250
    assert fresh.reuse(_rival_key(250, part=(1, 2)), 5, adapt(250))[0] is None
    # Another run's entries never answer, nor does an altered entry.
    other = Checkpoint(tmp_path, {"game": "p2c4"})
    assert other.reuse(_rival_key(280), 5, adapt(280)) is None
    path = fresh.path(_rival_key(300))
    entry = json.loads(path.read_text())
    entry["result"] = {"tuple": [10, entry["result"]["tuple"][1]]}
    path.write_text(json.dumps(entry))
    assert Checkpoint(tmp_path, {"game": "p2c3"}).reuse(_rival_key(280), 5,
                                                        adapt(280)) is None
    # An entry written during the session is found too.
    fresh.put(_rival_key(900, part=(4,)), (None, COUNTERS))
    assert fresh.reuse(_rival_key(800, part=(4,)), 5, adapt(800))[0] is None


def _rivals(folder):
    """``{path: (task key, result value)}`` of the rival entries in ``folder``."""
    out = {}
    for path in folder.glob("task-*.json"):
        entry = json.loads(path.read_text())
        if entry["task"]["function"] == "_exp_guess_task":
            out[path] = (entry["task"], entry["result"]["tuple"][0])
    return out


def _rounds_of_two(runner, fn, tasks, sink):
    """TaskRunner.stream as the rounds of earlier versions with two jobs did it: two
    rivals drawn at once, the second before the first one's result is known."""
    tasks = iter(tasks)
    while batch := list(itertools.islice(tasks, 2)):
        for args, result in zip(batch, runner.run(fn, batch)):
            sink(args, result)


def test_a_run_resumed_searches_only_the_unsettled_rivals(tmp_path, monkeypatch):
    # Mastermind with every part of 60 secrets or more split, its checkpoint written
    # by rounds of two (an earlier version with two jobs; or a stream of two workers
    # whose results came late), resumed by the stream of one job, whose budgets are
    # the best totals of every rival before: a rival is searched again only if no
    # entry of the first run settles it under its new budget.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    with monkeypatch.context() as patch:
        patch.setattr(TaskRunner, "stream", _rounds_of_two)
        rounds = Solver(Game.from_spec("mastermind"), jobs=1, table_entries=50_001,
                        checkpoint=tmp_path / "a").expected()
    first = _rivals(tmp_path / "a")
    assert len(first) >= 10
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    resumed = Solver(Game.from_spec("mastermind"), jobs=1, table_entries=50_002,
                     checkpoint=tmp_path / "a")
    sol = resumed.expected()
    assert sol.value == rounds.value == 5625
    assert sol.strategy.root.to_dict() == rounds.strategy.root.to_dict()
    again = {p: v for p, v in _rivals(tmp_path / "a").items() if p not in first}
    assert resumed.checkpoint.stored == len(again) < len(first) // 3
    for task, _ in again.values():
        budget, free = task["args"][5], dict(task, args=task["args"][:5] + task["args"][6:])
        for old, value in first.values():
            if dict(old, args=old["args"][:5] + old["args"][6:]) == free:
                assert value is None and old["args"][5] < budget  # did not settle it
    # Without the rule, the rivals whose budget changed are all searched again.
    monkeypatch.delattr(search_tasks._exp_guess_task, "checkpoint_reuse")
    plain = Solver(Game.from_spec("mastermind"), jobs=1, table_entries=50_003,
                   checkpoint=tmp_path / "b")
    plain.expected()
    assert plain.checkpoint.stored > resumed.checkpoint.stored
