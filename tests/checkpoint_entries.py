"""Take entries out of a checkpoint directory, as a run stopped before it computed
them would have left it: the tests of the checkpoint report and of the scripts that
read checkpoints start from a finished run and remove part of its work."""

from __future__ import annotations

import json

from optimal_mm.search_tasks import saved_small_parts


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


def answers_elsewhere(folder, game, first: int, part, bigs) -> dict:
    """``{rival: processor seconds}``: the mean time of each rival second guess's
    answers (its own entries below the first guess of index ``first``) in the first
    guess's parts other than ``part``, of those that carry their timing: read from
    the entries, as the report prices a rival still in the race in ``part`` (by its
    answers in the other big parts ``bigs`` and in the parts solved whole since their
    race), those within a factor of two in size. A part is told by its size: the
    tests' big parts differ in size."""
    assert len({b.secrets for b in bigs}) == len(bigs)
    times = {}
    for path in folder.glob("task-*.json"):
        entry = json.loads(path.read_text())
        task, timing = entry["task"], entry.get("timing")
        args = task["args"]
        # (history, guess, parts, lbs, n, ...); a piece of a chain (its small parts)
        # does not cover the n secrets, and is no answer
        if (task["function"] == "_exp_guess_task" and args[0] == [first]
                and args[4] != part.secrets and timing is not None
                and 2 * min(args[4], part.secrets) >= max(args[4], part.secrets)
                and not saved_small_parts(args)):
            times.setdefault(game.code_str(args[1]), []).append(timing["cpu_seconds"])
    return {rival: sum(cpu) / len(cpu) for rival, cpu in times.items()}


def priced(part, there: dict, price: float) -> float:
    """The processor seconds the report gives the rivals still in the race of the big
    ``part``: each at its time in the other big parts (``there``, from
    :func:`answers_elsewhere`), else at ``price``, less the share of it begun."""
    return sum(there.get(rival, price) * (1 - part.rival_share(rival))
               for rival in part.pending)


def untime_entries(folder, which) -> int:
    """Take the timing out of the checkpoint entries for which ``which(function,
    args)`` is true, as entries written without it are (the checksum made again:
    intact, only untimed); how many."""
    from optimal_mm import checkpoint

    untimed = 0
    for path in sorted(folder.glob("task-*.json")):
        entry = json.loads(path.read_text())
        if which(entry["task"]["function"], entry["task"]["args"]) and "timing" in entry:
            del entry["timing"], entry["sha256"]
            entry["sha256"] = checkpoint._digest(entry)
            path.write_text(json.dumps(entry))
            untimed += 1
    return untimed
