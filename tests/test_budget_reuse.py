"""A checkpoint answers a rival under another budget (checkpoint.py, "Results under
another budget").

The rivals of a split part are searched in rounds of one per worker, each against
the best total so far, so their budgets depend on ``--jobs``. A run killed with one
job and resumed with two must not search again the rivals it has finished: their
entries settle the same rivals under the new budgets whenever the rule allows, and
the rule never answers what the entry does not settle.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from optimal_mm import Game, search
from optimal_mm.checkpoint import Checkpoint, task_key
from optimal_mm.search import Solver, _guess_result_under

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
    value, counters = _guess_result_under((stored, COUNTERS), ran, wanted)
    assert value == expected and counters is COUNTERS


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


def _resume_with_two_jobs(folder, entries):
    solver = Solver(Game.from_spec("mastermind"), jobs=2, backend="threading",
                    table_entries=entries, checkpoint=folder)
    return solver.expected(), solver


def test_resumed_with_more_jobs_searches_only_unsettled_rivals(tmp_path, monkeypatch):
    # Mastermind with every part of 60 secrets or more split: with one job each rival
    # has the best total of the rivals before it as budget, with two the best of the
    # rounds before. Rerun with two jobs, a rival is searched again only if no entry
    # of the first run settles it under its new budget.
    monkeypatch.setattr(search, "SPLIT_SECRETS", 60)
    one = Solver(Game.from_spec("mastermind"), jobs=1, table_entries=50_001,
                 checkpoint=tmp_path / "a").expected()
    first = _rivals(tmp_path / "a")
    assert len(first) >= 10
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    two, solver = _resume_with_two_jobs(tmp_path / "a", 50_002)
    assert two.value == one.value == 5625
    assert two.strategy.root.to_dict() == one.strategy.root.to_dict()
    again = {p: v for p, v in _rivals(tmp_path / "a").items() if p not in first}
    assert solver.checkpoint.stored == len(again) < len(first) // 3
    for task, _ in again.values():
        budget, free = task["args"][5], dict(task, args=task["args"][:5] + task["args"][6:])
        for old, value in first.values():
            if dict(old, args=old["args"][:5] + old["args"][6:]) == free:
                assert value is None and old["args"][5] < budget  # did not settle it
    # Without the rule, the rivals whose budget changed are all searched again.
    monkeypatch.delattr(search._exp_guess_task, "checkpoint_reuse")
    _, plain = _resume_with_two_jobs(tmp_path / "b", 50_003)
    assert plain.checkpoint.stored > solver.checkpoint.stored
