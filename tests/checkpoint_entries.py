"""Take entries out of a checkpoint directory, as a run stopped before it computed
them would have left it: the tests of the checkpoint report and of the scripts that
read checkpoints start from a finished run and remove part of its work."""

from __future__ import annotations

import json


def drop_entries(folder, keep) -> int:
    """Remove the checkpoint entries for which ``keep(function, args)`` is false, as a
    run stopped before it computed them; how many were removed."""
    removed = 0
    # In the order of their names, not the folder's listing order, which differs
    # between file systems (ext4 and tmpfs): a ``keep`` that drops "the first two"
    # of a kind then drops the same ones everywhere.
    for path in sorted(folder.glob("task-*.json")):
        task = json.loads(path.read_text())["task"]
        if not keep(task["function"], task["args"]):
            path.unlink()
            removed += 1
    return removed


def rivals_without_trees(monkeypatch, rebuild: str = "task") -> None:
    """Make the in-process search's rival tasks answer as before 2026-11-28, when
    a rival that proved better did not keep its parts' trees (``(total, counters)``),
    as the entries of the results' older checkpoints do. The search then builds the
    winner's tree with a task of its own (``rebuild="task"``: the rival's search
    again, its total as budget), or, as the versions before did (``"parts"``), part
    by part without a budget."""
    from optimal_mm import search, search_expected, search_races, search_tasks

    task = search_tasks._exp_guess_task

    def earlier(*args):
        value, _, counters = task(*args)
        return value, counters

    earlier.__name__ = task.__name__  # the same task key
    earlier.checkpoint_reuse = task.checkpoint_reuse
    for module in (search_expected, search_races):  # rival first guesses, rivals below
        monkeypatch.setattr(module, "_exp_guess_task", earlier)
    if rebuild == "parts":
        monkeypatch.setattr(search.Solver, "_rival_trees", lambda self, *args: None)
