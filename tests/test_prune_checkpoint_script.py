"""scripts/prune_checkpoint.py: a checkpoint's copies of parts too quick to keep,
removed; every other entry, and every copy whose part is held, left as it was.

The copies are made as a run makes them: mastermind's first guess 1122's small
parts solved, then 2211's, renamings of them, taking their values
(``RivalRaces._renamed_values``). A run of today saves a copy only where the part
it renames is saved; one of before 2026-12-07 saved them all, which is what the
originals' files removed here leave."""

from __future__ import annotations

import pytest

from optimal_mm import Game, search_parts
from optimal_mm.checkpoint import read_entries, read_entry
from optimal_mm.errors import InvalidOptionError
from optimal_mm.search import Solver
from script_loader import load_script
from test_rival_chain import SPLIT, _small_task

_script = load_script("prune_checkpoint")


def _solve_small_parts(folder, monkeypatch):
    """1122's small parts, then 2211's, in one session, every task saved: the
    second's parts left by its probes are copies of the first's. Their answers."""
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", SPLIT)
    game = Game.from_spec("mastermind")
    solver = Solver(game, jobs=1, table_entries=60_001, checkpoint=folder)
    with solver._session("expected", None):
        answers = [solver._small_parts(*_small_task(solver, code), "small")[0]
                   for code in ("1122", "2211")]
    assert solver._renamed.found > 0
    return answers


def _entries(folder):
    """``{path name: (entry, is a copy)}`` of the folder's entries."""
    out = {}
    for path in folder.glob("task-*.json"):
        entry = read_entry(path)
        copy = _script.value_slot_of(entry) is not None and _script.is_copy(entry)
        out[path.name] = entry, copy
    return out


def test_copies_of_held_parts_are_kept(tmp_path, monkeypatch, capsys):
    _solve_small_parts(tmp_path, monkeypatch)
    before = _entries(tmp_path)
    copies = sum(copy for _, copy in before.values())
    assert copies > 0
    assert _script.main([str(tmp_path)]) == 0
    assert _entries(tmp_path).keys() == before.keys()
    assert f"removed 0 copies of parts not held; kept {copies:,} copies" in \
        capsys.readouterr().out


def test_copies_of_parts_not_held_are_removed_and_computed_again(tmp_path, monkeypatch,
                                                                  capsys):
    answers = _solve_small_parts(tmp_path, monkeypatch)
    before = _entries(tmp_path)
    # The parts the copies rename, removed as a minimum time would have left them out
    originals = [name for name, (entry, copy) in before.items()
                 if _script.value_slot_of(entry) is not None and not copy]
    assert originals
    for name in originals:
        (tmp_path / name).unlink()
    left = {name: v for name, v in before.items() if name not in originals}
    copies = {name for name, (_, copy) in left.items() if copy}
    assert _script.main([str(tmp_path), "--dry-run"]) == 0
    assert _entries(tmp_path).keys() == left.keys()  # a dry run removes nothing
    assert f"would remove {len(copies):,} copies" in capsys.readouterr().out
    assert _script.main([str(tmp_path)]) == 0
    assert set(_entries(tmp_path)) == set(left) - copies
    assert f"removed {len(copies):,} copies of parts not held; kept 0 copies (a value " \
           f"task of their size held) and {len(left) - len(copies):,} other entries" \
        in capsys.readouterr().out
    # A run that resumes the pruned checkpoint solves the parts again, and answers
    # as before
    assert _solve_small_parts(tmp_path, monkeypatch) == answers
    assert sum(task["function"] == "_exp_part_task" for _, task, _, _ in
               read_entries(tmp_path)) == len(originals) + len(copies)


def test_a_missing_directory_is_one_line(tmp_path):
    with pytest.raises(InvalidOptionError, match="is not a directory"):
        _script.main([str(tmp_path / "missing")])
    with pytest.raises(InvalidOptionError, match="is not a directory"):
        _script.main([""])
