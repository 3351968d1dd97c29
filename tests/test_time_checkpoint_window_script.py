"""scripts/time_checkpoint_window.py: a window of a checkpoint's part tasks run again,
in one table, in two as two workers held them, and in a fresh table each.

Its figures decide whether sharing or keeping the workers' tables would pay, so each
task it runs must be the entry's own, answered as the entry was, and each way must
give each task the tables it says."""

from __future__ import annotations

import doctest
import json

import pytest

from optimal_mm import Game, search_context
from optimal_mm.checkpoint import read_entries
from optimal_mm.errors import InvalidOptionError, OptimalMMError
from optimal_mm.search import Solver
from script_loader import load_script

_script = load_script("time_checkpoint_window")


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """A checkpoint of p4c4's expected case, one job: its first guess's parts are
    part tasks, each timed."""
    folder = tmp_path_factory.mktemp("p4c4-expected")
    Solver(Game.from_spec("p4c4"), jobs=1, checkpoint=folder).solve("expected")
    return folder


def _part_tasks(folder):
    return [(task, result, timing) for _, task, result, timing in read_entries(folder)
            if task["function"] == "_exp_part_task" and timing]


def test_every_way_answers_each_task_as_its_entry(checkpoint, capsys):
    tasks = _part_tasks(checkpoint)
    assert len(tasks) >= 2
    ends = sorted(timing["finished"] for _, _, timing in tasks)
    assert _script.main([str(checkpoint), "--from", ends[0], "--to", ends[-1]]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"p4c4: {len(tasks)} part tasks ended from ")
    assert [line.split(":")[0] for line in out[1:]] == ["one", "two", "fresh"]
    states = {line.split(":")[0]: int(line.rsplit(", ", 1)[1].split()[0].replace(",", ""))
              for line in out[1:]}
    # A fresh table each: each task's own search, summed, as the script rebuilds it
    alone = 0
    found = _script.window_entries(checkpoint, _script.utc_time(ends[0]),
                                   _script.utc_time(ends[-1]))
    assert len(found) == len(tasks)
    for name, entry in found:
        with search_context.ContextsApart():
            value, _, counters = _script.Rebuilt.of(entry, 64_000_000).run()
        assert value == entry["result"][0]
        alone += int(counters[0])
    assert states["fresh"] == alone
    # One task alone is the same search whatever the way
    name, entry = found[-1]
    task = _script.WindowTask(name, entry, _script.Rebuilt.of(entry, 64_000_000))
    assert len({_script.run_window([task], way)[1] for way in _script.MODES}) == 1


def test_a_changed_answer_is_refused(checkpoint, tmp_path):
    from optimal_mm.checkpoint import _digest

    names = sorted(p.name for p in checkpoint.glob("task-*.json"))
    copied = 0
    for name in names:
        body = json.loads((checkpoint / name).read_text())
        if body["task"]["function"] == "_exp_part_task" and body["timing"] and not copied:
            body["result"]["tuple"][0] += 1  # the value, with a checksum that holds
            body["sha256"] = _digest({k: body[k] for k in ("format", "run", "task",
                                                           "result", "timing")})
            (tmp_path / name).write_text(json.dumps(body))
            copied = 1
    assert copied
    with pytest.raises(OptimalMMError, match="answered .* the entry"):
        _script.main([str(tmp_path), "--from", "2000-01-01T00:00", "--to",
                      "2100-01-01T00:00", "--ways", "one"])


def test_bad_input_names_the_problem(checkpoint, tmp_path, capsys):
    with pytest.raises(OptimalMMError, match="no part task of .* ended from 2000-01-01"):
        _script.main([str(checkpoint), "--from", "2000-01-01", "--to", "2000-01-02"])
    with pytest.raises(InvalidOptionError, match="--to is before --from"):
        _script.main([str(checkpoint), "--from", "2026-01-02", "--to", "2026-01-01"])
    with pytest.raises(InvalidOptionError, match="is not a directory"):
        _script.main([str(tmp_path / "none"), "--from", "2026-01-01", "--to", "2026-01-02"])
    assert not (tmp_path / "none").exists()
    for bad in (["--from", "yesterday", "--to", "2026-01-01"],
                ["--from", "2026-01-01", "--to", "2026-01-02", "--ways", "one,three"]):
        with pytest.raises(SystemExit) as exit_:
            _script.main([str(checkpoint), *bad])
        assert exit_.value.code == 2
        assert capsys.readouterr().err.strip().splitlines()[-1].split(": error: ")[1]


def test_doctests():
    result = doctest.testmod(_script)
    assert result.attempted and not result.failed


def test_each_way_gives_each_task_its_tables(checkpoint):
    # The same task twice, the second begun after the first ended: in one table the
    # second meets the first's states; in two (as two workers) and fresh it does not.
    name, entry = max(_script.window_entries(checkpoint, _script.utc_time("2000-01-01"),
                                             _script.utc_time("2100-01-01")),
                      key=lambda found: found[1]["task"]["args"][1]["shape"][0])
    first = _script.WindowTask(name, entry, _script.Rebuilt.of(entry, 64_000_000))
    again = _script.WindowTask(name, entry, _script.Rebuilt.of(entry, 64_000_000))
    again.started, again.ended = first.ended, first.ended + (first.ended - first.started)
    alone = _script.run_window([first], "fresh")[1]
    assert alone > 1
    assert _script.two_workers([first, again]) == [0, 1]
    assert _script.run_window([first, again], "two")[1] == 2 * alone
    assert _script.run_window([first, again], "fresh")[1] == 2 * alone
    assert _script.run_window([first, again], "one")[1] < 2 * alone


def test_the_window_builds_its_game_once(checkpoint):
    # Every task of the window shares one game, and so one answer table (p7c7n's is
    # 25 MB), however many tasks it holds.
    games, tasks = {}, []
    for name, entry in _script.window_entries(checkpoint, _script.utc_time("2000-01-01"),
                                              _script.utc_time("2100-01-01")):
        tasks.append(_script.Rebuilt.of(entry, 64_000_000, {}, games))
    assert len(tasks) >= 2 and len(games) == 1
    assert all(t.game is tasks[0].game for t in tasks)
