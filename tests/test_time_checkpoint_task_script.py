"""scripts/time_checkpoint_task.py: one saved part task of a checkpoint, run again.

Its figures are the measurements behind changes to the search's speed, so the task
it runs must be the entry's own: the part rebuilt from the guesses must be the one
whose hash the entry holds, and the answer must be the saved one."""

from __future__ import annotations

import doctest
import json

import pytest

from optimal_mm import Game
from optimal_mm.checkpoint import _digest, read_entries
from optimal_mm.errors import OptimalMMError
from optimal_mm.search import Solver
from script_loader import load_script

_script = load_script("time_checkpoint_task")


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """A checkpoint of p3c4's expected case, one job: its first guess's parts are
    part tasks."""
    folder = tmp_path_factory.mktemp("p3c4-expected")
    Solver(Game.from_spec("p3c4"), jobs=1, checkpoint=folder).solve("expected")
    return folder


def _entries(folder, function):
    names = sorted(p.name for p in folder.glob("task-*.json"))
    entries = list(read_entries(folder))
    return [(name, entry) for name, entry in zip(names, entries)
            if entry[1]["function"] == function]


def test_a_part_task_runs_again_with_its_saved_answer(checkpoint, capsys):
    parts = _entries(checkpoint, "_exp_part_task")
    assert parts
    name, (_, task, result, _) = max(parts, key=lambda p: p[1][1]["args"][1]["shape"][0])
    assert _script.main([str(checkpoint), name[:16], "--repeat", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    secrets = task["args"][1]["shape"][0]
    assert out[0].startswith(f"p3c4 {name}: {secrets} secrets after ")
    assert f"saved: value {result[0]}," in out[0]
    assert [line.split(",")[0] for line in out[1:3]] == [
        f"run {k}: value {result[0]}" for k in (1, 2)]
    # A table of its own each time: the same search twice
    assert out[1].split(",", 2)[2] == out[2].split(",", 2)[2]
    assert out[3].startswith("median ") and out[3].endswith("over 2 runs")


def test_the_entry_must_be_one_part_task(checkpoint, tmp_path):
    with pytest.raises(OptimalMMError, match="entries of .* start with 'task-'; name one"):
        _script.main([str(checkpoint), "task-"])  # every entry
    with pytest.raises(OptimalMMError, match="0 entries of"):
        _script.main([str(checkpoint), "task-zz"])
    name, _ = _entries(checkpoint, "_exp_part_task")[0]
    body = json.loads((checkpoint / name).read_text())
    body["task"]["function"] = "_exp_guess_task"
    body["sha256"] = _digest({k: body[k] for k in ("format", "run", "task", "result",
                                                   "timing")})
    (tmp_path / name).write_text(json.dumps(body))
    with pytest.raises(OptimalMMError, match="a task of _exp_guess_task; only"):
        _script.main([str(tmp_path), name])
    with pytest.raises(OptimalMMError, match="is not a directory"):
        _script.main([str(tmp_path / "none"), name])
    assert not (tmp_path / "none").exists()


def test_a_changed_answer_or_a_damaged_entry_is_refused(checkpoint, tmp_path):
    name, _ = _entries(checkpoint, "_exp_part_task")[0]
    copy = tmp_path / name
    body = json.loads((checkpoint / name).read_text())
    body["result"]["tuple"][0] += 1  # the checksum no longer holds
    copy.write_text(json.dumps(body))
    with pytest.raises(OptimalMMError, match="damaged or of another format"):
        _script.main([str(tmp_path), name[:12]])


def test_doctests():
    result = doctest.testmod(_script)
    assert result.attempted and not result.failed


def test_a_batch_of_first_guesses_runs_again(tmp_path, monkeypatch, capsys):
    # A big small part's batch (search_batches): its guesses are found again as the
    # search cuts them, by the hash the entry holds, and its answer is the saved one.
    from optimal_mm import search_batches, search_tasks
    from optimal_mm.search import NO_CAP

    monkeypatch.setattr(search_batches, "BATCH_SECRETS", 20)
    game = Game.from_spec("mastermind")
    solver = Solver(game, jobs=1, table_entries=60_001, checkpoint=tmp_path)
    with solver._session("expected", None):
        g = game.code_index("1122")
        part = max((p for _, p in solver._parts(g, solver._root()[0])), key=len)
        task = search_tasks.value_task((g,), part, NO_CAP, 0)
        solver._solve_values([task], "t", lambda k, result: None)
    batches = _entries(tmp_path, "_exp_batch_task")
    assert len(batches) == search_batches.BATCHES
    name, (_, _, result, _) = batches[3]
    assert _script.main([str(tmp_path), name[:16]]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"p4c6 {name}: {len(part)} secrets after 1122; ")
    assert out[1].startswith(f"run 1: value {result[0]},")
