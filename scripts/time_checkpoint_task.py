"""Run one saved part task of a checkpoint again: its answer, time and counters.

An expected-case run saves each task it finishes in its checkpoint, with the
processor time it took (docs/LONG_RUNS.md). This script takes one entry of
``_exp_part_task`` (the search of one part of the secrets after some guesses: a
chain's small part, a part's tree, a probe) or of ``_exp_batch_task`` (one batch of a
big small part's first guesses, found again as the search cuts them:
:mod:`optimal_mm.search_batches`), rebuilds its part from the guesses (the
part, among those their answers split the codes into, whose hash the entry holds),
runs the task again in this process, each time with a transposition table of its
own (``--repeat``), and prints its answer, which must be the saved one (or, where
the task had a budget, at least it as the saved one was: :func:`same_answer`), its
processor seconds and its counters beside the entry's. It is how the speed of a
change to the search is measured on the tasks a long run spends its hours on:

    python scripts/time_checkpoint_task.py results/checkpoints/p7c7n-expected \\
        task-f1b1401a --repeat 3

Run in its table run, a task met a table that the tasks before it had filled, so
its counters and time there are not a fresh run's: compare fresh runs with each
other (two checkouts, one after the other, on the same machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from optimal_mm import Game, search_batches, search_context, search_tasks  # noqa: E402
from optimal_mm.checkpoint import _canonical, read_entry  # noqa: E402
from optimal_mm.cli import at_least  # noqa: E402
from optimal_mm.errors import InvalidOptionError, OptimalMMError  # noqa: E402
from optimal_mm.search import Solver  # noqa: E402

#: The tasks run again, by name: each searches one part.
TASKS = {"_exp_part_task": search_tasks._exp_part_task,
         "_exp_batch_task": search_tasks._exp_batch_task}

#: The counters a task returns, in order (``optimal_mm._search_arrays.STATS``).
COUNTERS = ("states", "table hits", "guesses")


def find_entry(directory: Path, name: str) -> Path:
    """The one entry file of ``directory`` whose name starts with ``name`` (with or
    without ``task-`` and ``.json``)."""
    stem = name.removesuffix(".json")
    stem = stem if stem.startswith("task-") else "task-" + stem
    found = sorted(directory.glob(f"{stem}*.json"))
    if len(found) != 1:
        raise OptimalMMError(f"{len(found)} entries of {directory} start with {stem!r}; "
                             f"name one (a longer start)")
    return found[0]


def rebuild_part(game: Game, history, record: dict) -> np.ndarray:
    """The part after the guesses ``history`` whose key (:func:`_canonical`) is
    ``record``: the codes that give each guess the same answers.

    >>> game = Game.from_spec("p3c3")
    >>> two_ones = np.array([1, 2, 3, 6, 9, 18], dtype=np.int64)  # 2 blacks against 111
    >>> [game.code_str(c) for c in rebuild_part(game, [0], _canonical(two_ones))]
    ['112', '113', '121', '131', '211', '311']
    """
    table = game.answer_table()
    keys = np.zeros(game.n_codes, dtype=np.int64)
    for g in history:
        keys = keys * game.n_answer_slots + table[g]
    for key in np.unique(keys):
        part = np.flatnonzero(keys == key).astype(np.int64)
        if len(part) == record["shape"][0] and _canonical(part) == record:
            return part
    raise OptimalMMError("no part after the entry's guesses has the entry's hash")


def rebuild_batch(game: Game, run: dict, history, part, rest, cuts=None) -> np.ndarray:
    """The batch of first guesses whose key is ``rest[0]``, among those the search cuts
    ``part``'s ranked guesses into (:mod:`optimal_mm.search_batches`; ``rest``: the
    entry's arguments after the part: guesses, budget, guesses left, cap weight).
    ``cuts``, a dict, keeps each part's batches for the next batch of the same part."""
    record, _, d, weight = rest
    key = (tuple(history), part.tobytes(), d, weight)
    batches = None if cuts is None else cuts.get(key)
    if batches is None:
        solver = Solver(game, guesses=run["guesses"], symmetry=run["symmetry"], jobs=1)
        with solver._session("expected", None):  # its context: answer table, bounds
            ranked = [g for g, _ in solver.exp_second_guesses(history, part, d, weight)]
        batches = search_batches.cut(ranked)
        if cuts is not None:
            cuts[key] = batches
    for batch in batches:
        if _canonical(batch) == record:
            return batch
    raise OptimalMMError("no batch of the part's first guesses has the entry's hash (cut "
                         "by another version of the search?)")


class Rebuilt:
    """One entry's task as its run computed it: ``function`` (of :data:`TASKS`) called
    with the session's ``common`` arguments (game, guess rule, table entries,
    symmetry), then ``history``, the rebuilt ``part`` and the ``rest`` of its
    arguments (a batch's guesses rebuilt too); ``budget`` is the task's own."""

    def __init__(self, function, game, common, history, part, rest):
        self.function, self.game, self.common = function, game, common
        self.history, self.part, self.rest = tuple(history), part, rest
        self.budget = rest[1] if function == "_exp_batch_task" else rest[0]

    @classmethod
    def of(cls, entry: dict, table_entries: int, cuts=None, games=None) -> "Rebuilt":
        """The task of ``entry`` (as :func:`read_entry` gives it), to run in tables of
        ``table_entries``; ``cuts`` as :func:`rebuild_batch` takes it, and ``games``, a
        dict, keeps each game (and the answer table it builds) for the next entry."""
        function, run = entry["task"]["function"], entry["run"]
        spec = (run["game"], run.get("alphabet"))
        game = None if games is None else games.get(spec)
        if game is None:
            game = Game.from_spec(*spec)
            if games is not None:
                games[spec] = game
        history, record, *rest = entry["task"]["args"]
        part = rebuild_part(game, history, record)
        if function == "_exp_batch_task":
            rest[0] = rebuild_batch(game, run, history, part, rest, cuts)
        common = (game, run["guesses"] == "consistent", table_entries, run["symmetry"])
        return cls(function, game, common, history, part, rest)

    def run(self) -> tuple:
        """The task's answer, computed in this process's current context (the caller
        chooses the table: :class:`~optimal_mm.search_context.ContextsApart`)."""
        return TASKS[self.function](*self.common, self.history, self.part, *self.rest)


def same_answer(value, saved, budget) -> bool:
    """Whether ``value`` answers the task as the entry's ``saved`` did: the same value
    below the task's ``budget`` (exact), or both at least the budget (a bound, which
    depends on what the table held: the run's had other tasks' states in it).

    >>> same_answer(7, 7, 10), same_answer(12, 15, 10), same_answer(7, 8, 10)
    (True, True, False)
    """
    return value == saved or (value >= budget and saved >= budget)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", help="a checkpoint directory")
    parser.add_argument("entry", help="the start of an entry's file name")
    parser.add_argument("--repeat", type=at_least(1), default=1,
                        help="how many times to run it (each with a fresh table)")
    parser.add_argument("--table-entries", type=at_least(1 << 10), default=1 << 24,
                        help="the transposition table's entries (default 16,777,216)")
    args = parser.parse_args(argv)
    directory = Path(args.directory)
    if not args.directory or not directory.is_dir():  # ('' would be this folder)
        raise InvalidOptionError(f"checkpoint {args.directory!r} is not a directory")
    path = find_entry(directory, args.entry)
    entry = read_entry(path)
    if entry is None:
        raise OptimalMMError(f"{path.name} is damaged or of another format")
    function = entry["task"]["function"]
    if function not in TASKS:
        raise OptimalMMError(f"{path.name} is a task of {function}; only "
                             f"{' and '.join(TASKS)} entries (the search of one part) are "
                             f"run again")
    task = Rebuilt.of(entry, args.table_entries)
    saved_value, _, saved_counters = entry["result"]
    timing = entry["timing"] or {}
    after = " ".join(task.game.code_str(g) for g in task.history)
    print(f"{entry['run']['game']} {path.name}: {len(task.part)} secrets after {after}; "
          f"saved: value {saved_value}, {timing.get('cpu_seconds', 'untimed')} s, "
          + _counters_text(saved_counters))
    seconds = []
    for k in range(args.repeat):
        with search_context.ContextsApart():  # a table of its own
            start = time.process_time()
            value, _, counters = task.run()
            seconds.append(time.process_time() - start)
        if not same_answer(value, saved_value, task.budget):
            raise OptimalMMError(f"run {k + 1} answered {value}, the entry {saved_value}")
        print(f"run {k + 1}: value {value}, {seconds[-1]:.2f} s, {_counters_text(counters)}")
    print(f"median {statistics.median(seconds):.2f} s of processor time over {len(seconds)} "
          f"run{'s' if len(seconds) > 1 else ''}")
    return 0


def _counters_text(counters) -> str:
    return ", ".join(f"{name} {int(c):,}" for name, c in zip(COUNTERS, counters))


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("time_checkpoint_task.py", main))
